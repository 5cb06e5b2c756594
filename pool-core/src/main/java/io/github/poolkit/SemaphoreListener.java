package io.github.poolkit;

/**
 * Receives one call for each request a {@link PermitSemaphore} settles, for metrics and tracing: granted, timed out,
 * interrupted, cancelled or refused.
 *
 * <p>Calls are made on the requesting thread, or for an asynchronous request on the thread that settles it; they must
 * be fast and must not throw (anything thrown is logged and ignored). A semaphore with no listener pays nothing.
 */
@FunctionalInterface
public interface SemaphoreListener {

    /**
     * A request was settled.
     *
     * @param permits     the permits asked for
     * @param waitedNanos how long the request waited, {@code 0} when settled at once
     * @param outcome     how it ended
     */
    void requestSettled(long permits, long waitedNanos, AcquireOutcome outcome);

    /** How a request for permits ended. */
    enum AcquireOutcome {
        /** The permits were granted. */
        ACQUIRED,
        /**
         * A timed request gave up: its time ran out (for an asynchronous request, its future was failed with a
         * {@link java.util.concurrent.TimeoutException} while it waited, as {@code orTimeout} does).
         */
        TIMEOUT,
        /** The waiting thread was interrupted. */
        INTERRUPTED,
        /**
         * An asynchronous request's future was cancelled (or completed by someone else, other than with a
         * {@code TimeoutException}) while it waited.
         */
        CANCELLED,
        /**
         * Refused: at once when {@code tryAcquire} found the permits taken or somebody waiting, or the request was
         * larger than the size; after a wait when a shrink below the request refused it.
         */
        REJECTED
    }
}
