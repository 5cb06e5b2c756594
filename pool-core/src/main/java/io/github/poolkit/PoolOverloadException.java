package io.github.poolkit;

import java.util.concurrent.RejectedExecutionException;

/**
 * Thrown instead of blocking when a pool cannot take a task now: no worker is free and the pool is
 * {@code nonblocking}, or {@code maxBlockingTasks} callers are already blocked, or a bounded queue is full and the
 * caller may not block. The task was not accepted and will not run; the caller may retry later.
 */
public final class PoolOverloadException extends RejectedExecutionException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message why the task was refused
     */
    public PoolOverloadException(String message) {
        super(message);
    }
}
