package io.github.poolkit.sample.web;

import java.time.Duration;

/**
 * A resource the request needs (worker, semaphore permits) could not be had in time; {@link ApiExceptionHandler}
 * answers it with {@code 429 Too Many Requests} and a {@code Retry-After} header. This is back-pressure made
 * visible: the client should slow down and try again later.
 */
public class OverloadedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient Duration retryAfter;

    /**
     * Creates the exception.
     *
     * @param message    what was busy and what the client may do about it
     * @param retryAfter a hint for when a retry might succeed
     * @param cause      the underlying refusal, or {@code null}
     */
    public OverloadedException(String message, Duration retryAfter, Throwable cause) {
        super(message, cause);
        this.retryAfter = retryAfter;
    }

    /**
     * Returns the retry hint sent in the {@code Retry-After} header.
     *
     * @return when a retry might succeed, measured from now
     */
    public Duration retryAfter() {
        return retryAfter;
    }
}
