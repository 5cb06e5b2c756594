package io.github.poolkit.redis;

/**
 * Redis did not answer a {@link RedisPermitSemaphore} in time (it is down, paused or unreachable), or dropped a
 * request of this instance from the line because it had not heard from the instance for the lease time. The caller
 * holds none of the permits it asked for; retry once Redis is back, or treat it as an overload.
 */
public class SemaphoreUnavailableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what did not answer, and within what time
     * @param cause   the underlying failure, or {@code null}
     */
    public SemaphoreUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
