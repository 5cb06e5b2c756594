package io.github.poolkit;

import java.util.concurrent.RejectedExecutionException;

/**
 * Thrown when a pool cannot take a task now and the caller may not wait (longer): no worker is free and the pool is
 * {@code nonblocking}, or {@code maxBlockingTasks} callers are already blocked, or a bounded queue is full and the
 * caller may not block, or a blocked caller's {@code maxWait} (or its own time limit) ran out. The task was not
 * accepted and will not run; the caller may retry later. The Spring Boot starter also throws it when {@code @Permits}
 * permits do not come within their {@code maxWait}.
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
