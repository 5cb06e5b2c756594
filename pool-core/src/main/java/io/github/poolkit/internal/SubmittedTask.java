package io.github.poolkit.internal;

import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.FutureTask;

/**
 * The future a pool's {@code submit} returns and runs: a {@link FutureTask} that still knows the task it was given,
 * so that an overdue report names that task rather than the future ({@link Wrapping}), also through a wrapper that
 * shows it by its {@code toString()}, which is the task's own. Costs nothing over the
 * {@code FutureTask} it replaces. Subclasses may add to {@link #done()} (as {@code invokeAny}'s futures do).
 *
 * @param <V> the result type
 */
public class SubmittedTask<V> extends FutureTask<V> implements Wrapping {

    private final Object task;

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
}
