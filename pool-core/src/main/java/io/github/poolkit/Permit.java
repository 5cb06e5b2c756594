package io.github.poolkit;

import io.github.poolkit.internal.VarHandles;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Permits held from a {@link WeightedSemaphore}, released by {@link #close()}; made for try-with-resources:
 *
 * <pre>{@code
 * try (Permit permit = semaphore.acquirePermit(4)) {
 *     // at most size() permits' worth of work runs here at once
 * }
 * }</pre>
 *
 * <p>A permit is obtained from {@link PermitSemaphore#acquirePermit(long)},
 * {@link PermitSemaphore#acquireAsync(long)} or a {@code tryAcquirePermit} form. {@link #close()} releases the
 * {@link #permits()} permits exactly once: the first call releases them, later calls (from any thread) do nothing. A
 * permit that is never closed keeps its permits in use for good, as an unreleased
 * {@link WeightedSemaphore#acquire(long)} would.
 *
 * <p>A permit of a semaphore shared by several instances of a service is a <em>lease</em> that the semaphore keeps
 * renewing; it can be lost (a renewal finds that the grant expired, or the shared store stays silent for longer than
 * the lease time), and then other instances may be granted the same permits. {@link #isValid()} and {@link #lost()}
 * tell the holder, so that it can stop work it may no longer do. A {@link WeightedSemaphore}'s permits are never lost.
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
     * stale 'false' only means a concurrent close() has not finished yet. 'lostSignal' is owned by the semaphore that
     * made the permit (null for a local one, which cannot be lost): it completes it once, and this class only reads it
     * and hands out views that cannot complete it.
     */

    private static final VarHandle CLOSED = VarHandles.field(MethodHandles.lookup(), "closed", boolean.class);

    /** The fencing token of a permit whose semaphore issues none (a {@link WeightedSemaphore}'s). */
    public static final long NO_FENCING_TOKEN = -1;

    private final WeightedSemaphore semaphore; // null when 'release' gives the permits back
    private final Runnable release;
    private final long permits;
    private final long fencingToken;
    /** When a permit of an adaptive semaphore was made, to report its hold time; 0 otherwise. */
    private final long acquiredNanos;
    private final CompletableFuture<Void> lostSignal; // null: cannot be lost
    private volatile boolean closed;

    /** Created only by {@link WeightedSemaphore} once it has granted {@code permits} permits to the caller. */
    Permit(WeightedSemaphore semaphore, long permits) {
        this.semaphore = semaphore;
        this.release = null;
        this.permits = permits;
        this.fencingToken = NO_FENCING_TOKEN;
        this.acquiredNanos = semaphore.isAdaptive() ? System.nanoTime() : 0;
        this.lostSignal = null;
    }

    private Permit(Runnable release, long permits, long fencingToken, CompletableFuture<Void> lostSignal) {
        this.semaphore = null;
        this.release = release;
        this.permits = permits;
        this.fencingToken = fencingToken;
        this.acquiredNanos = 0;
        this.lostSignal = lostSignal;
    }

    /**
     * Makes a permit for a grant of another {@link PermitSemaphore} implementation, for example one shared by several
     * instances of a service. Application code does not call this: it receives permits from a semaphore.
     *
     * @param permits      the weight that was granted, {@code >= 0}
     * @param fencingToken the grant's fencing token, {@code >= 0}, or {@link #NO_FENCING_TOKEN}
     * @param release      gives the permits back; run by the first {@link #close()} only, and whatever it throws
     *                     reaches that caller (for example when the shared store does not answer)
     * @return the permit
     * @throws IllegalArgumentException if {@code permits < 0}
     * @throws NullPointerException     if {@code release} is null
     */
    public static Permit of(long permits, long fencingToken, Runnable release) {
        return of(permits, fencingToken, release, null);
    }

    /**
     * Makes a permit for a grant that may be lost, for a {@link PermitSemaphore} implementation whose grants are
     * leases (for example one shared by several instances of a service). Application code does not call this: it
     * receives permits from a semaphore.
     *
     * @param permits      the weight that was granted, {@code >= 0}
     * @param fencingToken the grant's fencing token, {@code >= 0}, or {@link #NO_FENCING_TOKEN}
     * @param release      gives the permits back; run by the first {@link #close()} only, and whatever it throws
     *                     reaches that caller
     * @param lostSignal   completed (normally) by the semaphore, once, when it learns that the grant was lost; the
     *                     permit only reads it: {@link #isValid()} is {@code false} once it is done, and
     *                     {@link #lost()} hands out its {@code minimalCompletionStage()} (which a semaphore may
     *                     override to run the holders' actions on an executor of its own); {@code null} for a grant
     *                     that cannot be lost
     * @return the permit
     * @throws IllegalArgumentException if {@code permits < 0}
     * @throws NullPointerException     if {@code release} is null
     */
    public static Permit of(long permits, long fencingToken, Runnable release, CompletableFuture<Void> lostSignal) {
        if (permits < 0) {
            throw new IllegalArgumentException("permits must be >= 0, got " + permits);
        }
        if (release == null) {
            throw new NullPointerException("release");
        }
        return new Permit(release, permits, fencingToken, lostSignal);
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
     * Returns whether the grant is still held as far as its semaphore knows: {@code false} once the semaphore learned
     * that the lease was lost (a renewal found that it had expired, or the shared store did not confirm a renewal for
     * longer than the lease time), from that very moment: it does not wait for the actions hung on {@link #lost()},
     * which may run a little later on the semaphore's notification executor. Once {@code false}, it stays
     * {@code false}: other holders may have been granted the same permits, so work that needs them should stop (and a
     * protected resource should refuse this permit's {@link #fencingToken()}). Closing does not change it. Always
     * {@code true} for a {@link WeightedSemaphore}'s permit, which cannot be lost.
     *
     * @return {@code false} once the lease is known to be lost
     */
    public boolean isValid() {
        return lostSignal == null || !lostSignal.isDone();
    }

    /**
     * Returns a stage that completes (normally, with {@code null}) when the semaphore learns that this permit's lease
     * was lost, once {@link #isValid()} has turned {@code false}; it is never completed if the permit is closed
     * before that, nor for a {@link WeightedSemaphore}'s permit, which cannot be lost. The stage is read-only: it
     * cannot be completed by its callers. Its dependent actions run on the semaphore's notification executor (or on
     * the caller's thread when registered after the loss), so they should be short, for example:
     *
     * <pre>{@code
     * FutureTask<?> job = new FutureTask<>(work, null);
     * try (Permit permit = semaphore.acquirePermit(2)) {
     *     permit.lost().thenRun(() -> job.cancel(true)); // stop the work that is no longer protected
     *     job.run();
     * }
     * }</pre>
     *
     * @return a stage completed once the lease is known to be lost
     */
    public CompletionStage<Void> lost() {
        return (lostSignal == null ? new CompletableFuture<Void>() : lostSignal).minimalCompletionStage();
    }

    /**
     * Releases the permits to the semaphore they came from, as {@link WeightedSemaphore#release(long)} does, which
     * may grant waiting requests. Only the first call has an effect; later calls return at once. A local permit never
     * waits for long: it may briefly take the semaphore's internal lock (and runs the dependent stages of the
     * {@code acquireAsync} futures it grants); a permit of a shared semaphore makes one round trip to it. Never throws
     * a checked exception.
     *
     * <p>A lost permit ({@link #isValid()} {@code false}, or found expired by this call) closes quietly with poolkit's
     * semaphores: its permits went back without this call, so nothing is given back twice and nothing is thrown; the
     * permit is then reported lost if it was not yet.
     *
     * @throws RuntimeException from a shared semaphore that cannot tell whether the permits were given back (for
     *                          example when it does not answer in time)
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
     * @return for example {@code Permit[permits=4, closed=false]}, with {@code , lost} once the lease was lost
     */
    @Override
    public String toString() {
        return "Permit[permits=" + permits + ", closed=" + closed + (isValid() ? "" : ", lost") + "]";
    }
}
