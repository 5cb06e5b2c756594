package io.github.poolkit.internal;

/**
 * One request waiting in a {@link SemaphoreWaitQueue}: a weight, a status, and a way to wake the requester.
 * Internal to {@code WeightedSemaphore}; not part of poolkit's API.
 *
 * <p>The status moves once, from waiting to either granted or cancelled, and only while the owning semaphore's lock
 * is held. It is volatile so that the requester may poll it without the lock: reading "granted" happens-after the
 * grant (and therefore after the release that made it possible).
 */
public abstract class SemaphoreWaiter {

    /*
     * Implementation overview.
     * - permits: immutable.
     * - status: WAITING -> GRANTED or WAITING -> CANCELLED, written only under the owning semaphore's lock, read
     *   anywhere (volatile). A racy read of WAITING is only ever used as a hint; the decision is re-taken under the lock.
     * - prev/next: owned by SemaphoreWaitQueue and guarded by the same lock. Once a batch of waiters has been taken out
     *   of the queue to be granted, 'next' links that batch instead (see SemaphoreWaitQueue.takeFitting); nothing
     *   changes it after that.
     */

    private static final int WAITING = 0;
    private static final int GRANTED = 1;
    private static final int CANCELLED = 2;

    private final long permits;
    private volatile int status = WAITING;

    SemaphoreWaiter prev;
    SemaphoreWaiter next;

    /**
     * Creates a waiting request.
     *
     * @param permits the weight requested, {@code >= 0}
     */
    protected SemaphoreWaiter(long permits) {
        this.permits = permits;
    }

    /**
     * Returns the weight requested.
     *
     * @return the number of permits this request needs
     */
    public final long permits() {
        return permits;
    }

    /**
     * Returns whether the request is still waiting (neither granted nor cancelled). May be called without the lock.
     *
     * @return {@code true} until the request is granted or cancelled
     */
    public final boolean isWaiting() {
        return status == WAITING;
    }

    /** Marks the request granted. The caller holds the owner's lock and has already accounted for the permits. */
    public final void markGranted() {
        status = GRANTED;
    }

    /** Marks the request cancelled. The caller holds the owner's lock and has removed it from the queue. */
    public final void markCancelled() {
        status = CANCELLED;
    }

    /**
     * Returns the next waiter of the batch returned by {@link SemaphoreWaitQueue#takeFitting(long)}.
     *
     * @return the waiter granted after this one in the same batch, or {@code null} at the end of the batch
     */
    public final SemaphoreWaiter nextInBatch() {
        return next;
    }

    /**
     * Tells the requester that it has been granted. Called once, after {@link #markGranted()}, without the owner's
     * lock held (so that a woken requester does not immediately block on it, and so that no user code runs under it).
     */
    public abstract void wake();
}
