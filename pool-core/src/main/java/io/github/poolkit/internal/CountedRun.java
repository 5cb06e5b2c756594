package io.github.poolkit.internal;

/**
 * A pool's own future that counts its task on the worker running it, as the task ends and before the future
 * completes (a submitted task, {@link SubmittedTask}; a scheduled job): whoever sees the future done also sees the
 * count. The worker runs it with {@link #runCounted} and keeps how the run ended itself ({@link #RETURNED}, what the
 * task threw, or {@link #NOT_COUNTED}), never on the future: a periodic job may start its next run on another worker
 * before this one has read how its run ended. The worker counts the task itself only if the future did not.
 */
public interface CountedRun extends Runnable {

    /** How a run ended that did not count a task: it did not run one (cancelled, done, or run elsewhere). */
    Object NOT_COUNTED = new Object();

    /** How a run ended whose task returned, counted. */
    Object RETURNED = new Object();

    /**
     * Runs the future on a pool's worker, which counts the task as it ends, before the future completes. The protocol,
     * the same for every such future: the worker is set ({@link #countOn}, which also forgets how an earlier run
     * ended), the future runs, and the worker is cleared even if the run throws.
     *
     * @param counter the worker, on its own thread
     */
    default void runCounted(TaskCounter counter) {
        countOn(counter);
        try {
            run();
        } finally {
            countOn(null);
        }
    }

    /**
     * Sets the worker that counts the next end of the task ({@code null}: none), and forgets how an earlier run ended.
     * Only {@link #runCounted} calls it, on the worker's thread.
     *
     * @param counter the worker, or {@code null} once the run is over
     */
    void countOn(TaskCounter counter);

    /** {@return whether the future was cancelled} */
    boolean isCancelled();
}
