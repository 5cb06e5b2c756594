package io.github.poolkit;

import java.util.concurrent.RejectedExecutionException;

/**
 * Thrown when a task is submitted to a pool that has been released (shut down), and to callers that were blocked in
 * {@code execute} when the pool was released: the task was not accepted and will not run. Also thrown by
 * {@link Pool#releaseTimeout} on a pool already closed.
 */
public final class PoolClosedException extends RejectedExecutionException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what was closed
     */
    public PoolClosedException(String message) {
        super(message);
    }
}
