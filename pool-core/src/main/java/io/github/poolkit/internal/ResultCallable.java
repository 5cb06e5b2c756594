package io.github.poolkit.internal;

import java.util.Objects;
import java.util.concurrent.Callable;

/**
 * A runnable run as a callable that gives a fixed result (as {@code Executors.callable(task, result)}), which still
 * knows the runnable, so that an overdue report names the runnable rather than the adapter ({@link Wrapping}).
 * Immutable.
 *
 * @param <T> the result type
 */
public final class ResultCallable<T> implements Callable<T>, Wrapping {

    private final Runnable task;
    private final T result;

    /**
     * Adapts a runnable.
     *
     * @param task   the runnable as submitted
     * @param result what {@link #call()} returns once the runnable ran
     * @throws NullPointerException if {@code task} is null
     */
    public ResultCallable(Runnable task, T result) {
        this.task = Objects.requireNonNull(task, "task");
        this.result = result;
    }

    /** {@return the fixed result, after running the runnable} */
    @Override
    public T call() {
        task.run();
        return result;
    }

    /** {@return the runnable as it was submitted} */
    @Override
    public Object wrapped() {
        return task;
    }

    /** {@return the runnable's description} */
    @Override
    public String toString() {
        return task.toString();
    }
}
