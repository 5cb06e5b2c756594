package io.github.poolkit.redis;

/**
 * The semaphore was closed, or is paused: the call was not sent to Redis at all, or, a request waiting in line, was
 * withdrawn from it. Unlike a call Redis did not answer, nothing of it took effect there (nothing is held, nothing was
 * released).
 */
final class ClosedSemaphoreException extends SemaphoreUnavailableException {

    private static final long serialVersionUID = 1L;

    /**
     * @param semaphore the semaphore's name
     * @param why       what became of it, and of the call ("was closed")
     */
    ClosedSemaphoreException(String semaphore, String why) {
        super("Cluster semaphore '" + semaphore + "' " + why, null);
    }
}
