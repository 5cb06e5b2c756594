package io.github.poolkit.internal;

/**
 * A pool's own future that counts its task on the worker running it, as the task ends and before the future
 * completes (a submitted task, {@link SubmittedTask}; a scheduled job): whoever sees the future done also sees the
 * count. The worker runs it with {@link #runCounted} and keeps how the run ended itself ({@link #RETURNED}, what the
 * task threw, or {@link #NOT_COUNTED}), never on the future: a periodic job may start its next run on another worker
 * before this one has read how its run ended. For the same reason the worker a run counts on belongs to that run
 * only: a periodic job's runs never share it through a field of the job, which the end of one run could clear under
 * the next. The worker counts the task itself only if the future did not.
 */
public interface CountedRun extends Runnable {

    /** How a run ended that did not count a task: it did not run one (cancelled, done, or run elsewhere). */
    Object NOT_COUNTED = new Object();

    /** How a run ended whose task returned, counted. */
    Object RETURNED = new Object();

    /**
     * Runs the future on a pool's worker, which counts the task as it ends ({@link TaskCounter#countEnded}), before
     * the future completes; a run that runs no task (the future done, cancelled, or running elsewhere) counts nothing.
     *
     * @param counter the worker, on its own thread
     */
    void runCounted(TaskCounter counter);

    /** {@return whether the future was cancelled} */
    boolean isCancelled();
}
