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
 * <p>A permit is obtained from {@link PermitSemaphore#acquirePermit(long)} or
 * {@link PermitSemaphore#acquireAsync(long)}. {@link #close()} releases the {@link #permits()} permits exactly
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
     * one close() gives the permits back: WeightedSemaphore.release for a local permit, or the 'release' action of a
     * permit made by another PermitSemaphore (of). Nothing else is mutable. isClosed() is a plain volatile read; a
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

    /** The fencing token of a permit whose semaphore issues none (a {@link WeightedSemaphore}'s). */
    public static final long NO_FENCING_TOKEN = -1;

    private final WeightedSemaphore semaphore; // null when 'release' gives the permits back
    private final Runnable release;
    private final long permits;
    private final long fencingToken;
    /** When a permit of an adaptive semaphore was made, to report its hold time; 0 otherwise. */
    private final long acquiredNanos;
    private volatile boolean closed;

    /** Created only by {@link WeightedSemaphore} once it has granted {@code permits} permits to the caller. */
    Permit(WeightedSemaphore semaphore, long permits) {
        this.semaphore = semaphore;
        this.release = null;
        this.permits = permits;
        this.fencingToken = NO_FENCING_TOKEN;
        this.acquiredNanos = semaphore.isAdaptive() ? System.nanoTime() : 0;
    }

    private Permit(Runnable release, long permits, long fencingToken) {
        this.semaphore = null;
        this.release = release;
        this.permits = permits;
        this.fencingToken = fencingToken;
        this.acquiredNanos = 0;
    }

    /**
     * Makes a permit for a grant of another {@link PermitSemaphore} implementation, for example one shared by several
     * instances of a service. Application code does not call this: it receives permits from a semaphore.
     *
     * @param permits      the weight that was granted, {@code >= 0}
     * @param fencingToken the grant's fencing token, {@code >= 0}, or {@link #NO_FENCING_TOKEN}
     * @param release      gives the permits back; run by the first {@link #close()} only, and whatever it throws
     *                     reaches that caller (for example an {@link IllegalStateException} when the grant had
     *                     already expired)
     * @return the permit
     * @throws IllegalArgumentException if {@code permits < 0}
     * @throws NullPointerException     if {@code release} is null
     */
    public static Permit of(long permits, long fencingToken, Runnable release) {
        if (permits < 0) {
            throw new IllegalArgumentException("permits must be >= 0, got " + permits);
        }
        if (release == null) {
            throw new NullPointerException("release");
        }
        return new Permit(release, permits, fencingToken);
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
     * Returns the fencing token of the grant: a number that grows with every grant of the semaphore, so that a
     * protected resource can refuse a request carrying a smaller token than one it has already seen (a holder whose
     * grant ran out). Semaphores that live in one JVM issue none.
     *
     * @return the token, or {@link #NO_FENCING_TOKEN} ({@code -1}) for a {@link WeightedSemaphore}'s permit
     */
    public long fencingToken() {
        return fencingToken;
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
     * may grant waiting requests. Only the first call has an effect; later calls return at once. A local permit never
     * blocks for long: it may briefly take the semaphore's internal lock; a permit of a shared semaphore makes one
     * round trip to it. Never throws a checked exception.
     *
     * @throws IllegalStateException from a shared semaphore when the grant had already expired (its permits were
     *                               given back without this call)
     */
    @Override
    public void close() {
        if (CLOSED.compareAndSet(this, false, true)) {
            if (semaphore != null) {
                semaphore.releasePermit(permits, acquiredNanos);
            } else {
                release.run();
            }
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
