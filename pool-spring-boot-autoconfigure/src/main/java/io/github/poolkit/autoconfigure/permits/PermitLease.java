package io.github.poolkit.autoconfigure.permits;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

import org.jspecify.annotations.Nullable;

import io.github.poolkit.Permit;

/**
 * The permits of one subscription to a guarded reactive method: requested without blocking a thread when the
 * subscription starts ({@link #start}), given back once when it ends ({@link #release}), whatever the order in which
 * the grant, the wait's end and the subscription's end arrive.
 *
 * <p>With {@code maxWait} zero the request is a {@code tryAcquireAsync} (as for a plain method: no wait, no
 * barging); otherwise {@code acquireAsync}, whose future is completed exceptionally at {@code maxWait}
 * ({@code orTimeout}), which withdraws the request from the semaphore's line. Either way the lease holds a
 * {@link Permit} of the semaphore's own, whose close reports the hold time to an adaptive semaphore.
 *
 * <p>No thread waits on a semaphore shared through a store (Redis) either: its answer completes the future on the
 * semaphore's own executor; a refusal is worded from that answer alone
 * ({@link PermitsGuard#refusedWithoutBlocking}); and its permit, whose close is a round trip, is closed on the
 * {@code closer} executor, not on the thread that ends the subscription (often an event loop).
 *
 * <p>Invariants. {@code state} moves once from {@code PENDING} to either the granted {@link Permit} or
 * {@code RELEASED}, and from a {@code Permit} only to {@code RELEASED}:
 * <ul>
 *   <li>a grant is kept only by the CAS {@code PENDING -> permit}; a grant that finds the lease no longer pending
 *       (released, or failed) closes its permit at once, so no grant is ever lost;</li>
 *   <li>{@code closed} completes when {@code state} becomes {@code RELEASED}: at once, or once the permit taken out
 *       is closed;</li>
 *   <li>{@link #release} swaps in {@code RELEASED} and closes the permit it took out, if any: the permit leaves
 *       {@code state} once, so it is closed once (and {@link Permit#close()} is idempotent besides); if it took out
 *       {@code PENDING} it cancels the pending request, which withdraws it, or, if granted meanwhile, leaves the
 *       permit to the grant's failed CAS;</li>
 *   <li>{@code request} is written before {@code state} is read in {@link #start}, and {@code state} before
 *       {@code request} is read in {@link #release} (both volatile), so a release racing with the start sees the
 *       request or the start sees the release: the request is cancelled either way;</li>
 *   <li>the outcome is signalled at most once: success only by the thread whose grant CAS won, failure only by the
 *       thread whose CAS {@code PENDING -> RELEASED} won. A subscriber that cancels after that CAS but before the
 *       signal simply does not hear it (Reactor drops a failure signalled after a cancel, and logs it).</li>
 * </ul>
 */
final class PermitLease {

    /** Receives the end of the wait, at most once. */
    interface Outcome {

        /** The permits are held. */
        void granted();

        /** @param failure why there are no permits: a {@code PoolOverloadException}, or the semaphore's own error */
        void failed(Throwable failure);
    }

    /** Waits this long or longer are not timed. */
    private static final Duration NO_TIMEOUT = Duration.ofDays(365L * 100);

    private static final Object PENDING = new Object();
    private static final Object RELEASED = new Object();

    private final PermitsGuard guard;
    private final long weight;
    private final Executor continuation;
    private final Executor closer;
    private final AtomicReference<Object> state = new AtomicReference<>(PENDING);
    /** Completed once the lease has left {@code state} and any permit it held is closed ({@link #releaseAndAwait}). */
    private final CompletableFuture<Void> closed = new CompletableFuture<>();
    private volatile @Nullable CompletableFuture<Permit> request;
    private long grantedAt; // written before the grant CAS, read after taking the permit out of 'state'

    /**
     * @param guard        the method's guard
     * @param weight       the permits to hold
     * @param continuation where the outcome of a request that had to wait is signalled, so that the work it starts
     *                     does not run on (and deepen the stack of) the thread whose release granted it
     * @param closer       where a permit of a semaphore shared through a store is closed (a blocking round trip)
     */
    PermitLease(PermitsGuard guard, long weight, Executor continuation, Executor closer) {
        this.guard = guard;
        this.weight = weight;
        this.continuation = continuation;
        this.closer = closer;
    }

    /** Requests the permits; {@code outcome} hears once how that ends, unless {@link #release} comes first. */
    void start(Outcome outcome) {
        boolean waits = !guard.maxWait().isZero();
        // more than a local semaphore's size (a field read): refused at once, also by an implementation that queues it
        if (!guard.sharedThroughStore() && weight > guard.semaphore().size()) {
            if (fail()) {
                outcome.failed(guard.refusedWithoutBlocking(weight, true));
            }
            return;
        }
        CompletableFuture<Permit> future;
        try {
            future = waits ? guard.semaphore().acquireAsync(weight) : guard.semaphore().tryAcquireAsync(weight);
        }
        catch (IllegalArgumentException tooLarge) { // more than the size: they can never come
            if (fail()) {
                outcome.failed(guard.refusedWithoutBlocking(weight, true));
            }
            return;
        }
        request = future;
        if (state.get() == RELEASED) {
            future.cancel(false);
            // the callback below then finds RELEASED (or keeps nothing) and signals nothing
        }
        boolean immediate = future.isDone();
        if (waits && !immediate && guard.maxWait().compareTo(NO_TIMEOUT) < 0) { // longer: no timer (would overflow)
            future.orTimeout(guard.maxWait().toNanos(), TimeUnit.NANOSECONDS);
        }
        future.whenComplete((permit, failure) -> {
            if (permit != null) {
                if (keep(permit)) {
                    signal(immediate, outcome::granted);
                }
            }
            else if (fail()) { // not after this lease's own cancel (by release): that left it RELEASED
                // no failure: a try refused; a timeout: maxWait ran out; IllegalArgumentException: more than the size;
                // a cancel by the semaphore itself (not by this lease) fails the subscription rather than hang it
                boolean tooLarge = failure instanceof IllegalArgumentException;
                Throwable why = (failure == null || failure instanceof TimeoutException || tooLarge)
                        ? guard.refusedWithoutBlocking(weight, tooLarge) : failure;
                signal(immediate, () -> outcome.failed(why));
            }
        });
    }

    /** Gives the permits back if they were granted, else withdraws the request; only the first call acts. */
    void release() {
        Object taken = state.getAndSet(RELEASED);
        if (taken instanceof Permit permit) {
            guard.holdTimes().record(System.nanoTime() - grantedAt);
            close(permit, closed);
        }
        else if (taken == PENDING) {
            CompletableFuture<Permit> pending = request;
            if (pending != null) {
                pending.cancel(false);
            }
            closed.complete(null);
        }
    }

    /**
     * {@link #release}, then {@return a future completed once the permits are back}: at once for a local semaphore
     * (or when none were held), after the release's round trip for one shared through a store, whichever call
     * released them; never exceptionally (a failed release is logged where it runs)
     */
    CompletableFuture<Void> releaseAndAwait() {
        release();
        return closed;
    }

    /** @return whether the lease holds the permits now; {@code false} closes them (they came too late) */
    private boolean keep(Permit permit) {
        grantedAt = System.nanoTime();
        if (state.compareAndSet(PENDING, permit)) {
            return true;
        }
        close(permit, null); // a grant that came too late: the lease was settled already
        return false;
    }

    /**
     * Closes a permit: here for a local semaphore, on {@code closer} for one shared through a store; then completes
     * {@code done}, if any, whether the close succeeded or threw.
     */
    private void close(Permit permit, @Nullable CompletableFuture<Void> done) {
        Runnable closing = () -> {
            try {
                guard.closeQuietly(permit); // a failure is logged, never in place of the method's own outcome
            }
            finally {
                if (done != null) {
                    done.complete(null);
                }
            }
        };
        if (!guard.sharedThroughStore()) {
            closing.run();
            return;
        }
        try {
            closer.execute(closing);
        }
        catch (RejectedExecutionException shutDown) {
            closing.run();
        }
    }

    /** @return whether this call ended the wait without permits (nothing else had ended it) */
    private boolean fail() {
        if (state.compareAndSet(PENDING, RELEASED)) {
            closed.complete(null);
            return true;
        }
        return false;
    }

    private void signal(boolean immediate, Runnable outcome) {
        if (immediate) {
            outcome.run();
            return;
        }
        try {
            continuation.execute(outcome);
        }
        catch (RejectedExecutionException shutDown) {
            outcome.run();
        }
    }
}
