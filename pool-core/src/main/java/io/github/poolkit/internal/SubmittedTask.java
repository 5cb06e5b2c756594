package io.github.poolkit.internal;

import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.FutureTask;
import java.util.function.UnaryOperator;

/**
 * The future a pool's {@code submit} returns and runs: a {@link FutureTask} that still knows the task it was given,
 * so that an overdue report names that task rather than the future ({@link Wrapping}), also through a wrapper that
 * shows it by its {@code toString()}, which is the task's own. Subclasses may add to {@link #done()} (as
 * {@code invokeAny}'s futures do).
 *
 * <p>Counted before it completes ({@link CountedRun}). A pool's worker runs it with {@link #runCounted}: when the task
 * ends on that worker's thread, {@link #set}/{@link #setException} first count it ({@link TaskCounter#countEnded}:
 * completed if it returned, failed if it threw), then complete the future. Invariant: a task's count is written before
 * its future is done, in the same thread, so whoever sees the future done ({@code get()} returning, {@code isDone()})
 * also sees the count. The future's own life is that of {@code FutureTask}: it runs at most once, completes once, and a
 * {@code cancel(true)} interrupts the worker only while the task runs (the worker clears a late interrupt before its
 * next task). A task cancelled before it started never runs and is not counted.
 *
 * <p>Decorated in place. A pool with a task decorator decorates the future's own run ({@link #decorate}) rather than
 * wrapping the future, so the pool still carries, counts and hands back (from {@code shutdownNow}) the future itself.
 *
 * @param <V> the result type
 */
public class SubmittedTask<V> extends FutureTask<V> implements Wrapping, CountedRun {

    private final Object task;

    /** The decorator's wrapping of this future's own run ({@link Undecorated}), or null; written before the pool is
     * given the future. */
    private Runnable decorated;

    /**
     * The worker running this future through {@link #runCounted}. A plain field: only that worker's thread writes and
     * reads it ({@link TaskCounter#countEnded} refuses any other thread).
     */
    private TaskCounter counter;

    /**
     * Wraps a callable.
     *
     * @param callable the task as submitted
     */
    public SubmittedTask(Callable<V> callable) {
        super(callable);
        this.task = callable;
    }

    /**
     * Wraps a runnable and the result it gives.
     *
     * @param runnable the task as submitted
     * @param result   what {@code get()} returns once it ran
     */
    public SubmittedTask(Runnable runnable, V result) {
        super(Executors.callable(runnable, result));
        this.task = runnable;
    }

    /**
     * Decorates this future's run with a pool's task decorator, once, on the submitting thread, before the pool is
     * given the future.
     *
     * @param decorator the pool's task decorator
     * @return this future, which the pool carries in place of a decorated wrapper
     */
    public final SubmittedTask<V> decorate(UnaryOperator<Runnable> decorator) {
        decorated = Objects.requireNonNull(decorator.apply(new Undecorated()), "decorated task");
        return this;
    }

    /** Runs the task, through the pool's task decorator if there is one. */
    @Override
    public void run() {
        Runnable d = decorated;
        if (d == null) {
            super.run();
        } else {
            d.run();
        }
    }

    /** Runs once, so the worker can be a field: set for the run, cleared even if it throws. */
    @Override
    public final void runCounted(TaskCounter counter) {
        this.counter = counter;
        try {
            run();
        } finally {
            this.counter = null;
        }
    }

    /** Counts the task as returned (when run counted), then completes the future, then tells the worker so. */
    @Override
    protected final void set(V v) {
        count(null);
        super.set(v);
        futureCompleted();
    }

    /** Counts the task as failed (when run counted), then completes the future with its exception, then tells so. */
    @Override
    protected final void setException(Throwable t) {
        count(t);
        super.setException(t);
        futureCompleted();
    }

    private void futureCompleted() {
        TaskCounter c = counter;
        if (c != null) {
            c.futureCompleted();
        }
    }

    private void count(Throwable failure) {
        TaskCounter c = counter;
        if (c != null) {
            // Its exception goes to the future only, so nothing runs after it completes, unless a decorator's own
            // code does (it wraps this future's whole run).
            c.countEnded(failure, decorated == null);
        }
    }

    /** {@return the task as it was submitted} */
    @Override
    public final Object wrapped() {
        return task;
    }

    /**
     * {@return the submitted task's own description} So a wrapper that shows the task it wraps (the Spring Boot
     * starter's decorated task, say) shows the application's task, not this future, in an overdue report.
     */
    @Override
    public final String toString() {
        return String.valueOf(task);
    }

    /** What the task decorator decorates: the future's own run, shown as the submitted task. */
    private final class Undecorated implements Runnable {

        @Override
        public void run() {
            SubmittedTask.super.run();
        }

        @Override
        public String toString() {
            return String.valueOf(task);
        }
    }
}
