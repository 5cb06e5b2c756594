package io.github.poolkit;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Permits held from a {@link WeightedSemaphore}, released by {@link #close()}; made for try-with-resources:
 *
 * <pre>{@code
 * try (Permit permit = semaphore.acquirePermit(4)) {
 *     // at most size() permits' worth of work runs here at once
 * }
 * }</pre>
 *
 * <p>A permit is obtained from {@link WeightedSemaphore#acquirePermit(long)} or
 * {@link WeightedSemaphore#acquireAsync(long)}. {@link #close()} releases the {@link #permits()} permits exactly
 * once: the first call releases them, later calls (from any thread) do nothing. A permit that is never closed keeps
 * its permits in use for good, as an unreleased {@link WeightedSemaphore#acquire(long)} would.
 *
 * <p>Memory consistency: actions in a thread before the {@code close()} that releases the permits happen-before
 * actions following a later successful acquire that is granted those permits.
 *
 * <p>Thread-safe.
 */
public final class Permit implements AutoCloseable {

    /*
     * Implementation overview: one flag, 'closed', flipped from false to true at most once by a CAS, so that exactly
     * one close() calls WeightedSemaphore.release. Nothing else is mutable. isClosed() is a plain volatile read; a
     * stale 'false' only means a concurrent close() has not finished yet.
     */

    private static final VarHandle CLOSED;

    static {
        try {
            CLOSED = MethodHandles.lookup().findVarHandle(Permit.class, "closed", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final WeightedSemaphore semaphore;
    private final long permits;
    private volatile boolean closed;

    /** Created only by {@link WeightedSemaphore} once it has granted {@code permits} permits to the caller. */
    Permit(WeightedSemaphore semaphore, long permits) {
        this.semaphore = semaphore;
        this.permits = permits;
    }

    /**
     * Returns the number of permits this object holds (or held, once closed).
     *
     * @return the weight that was granted, {@code >= 0}
     */
    public long permits() {
        return permits;
    }

    /**
     * Returns whether {@link #close()} has been called.
     *
     * @return {@code true} once the permits have been given back
     */
    public boolean isClosed() {
        return closed;
    }

    /**
     * Releases the permits to the semaphore they came from, as {@link WeightedSemaphore#release(long)} does, which
     * may grant waiting requests. Only the first call has an effect; later calls return at once. Never blocks for
     * long: it may briefly take the semaphore's internal lock. Never throws a checked exception.
     */
    @Override
    public void close() {
        if (CLOSED.compareAndSet(this, false, true)) {
            semaphore.release(permits);
        }
    }

    /**
     * Describes this permit for logs.
     *
     * @return for example {@code Permit[permits=4, closed=false]}
     */
    @Override
    public String toString() {
        return "Permit[permits=" + permits + ", closed=" + closed + "]";
    }
}
