package io.github.poolkit.internal.semaphore;

/**
 * One request waiting in a {@link SemaphoreWaitQueue}: a weight, a status, and a way to wake the requester.
 * Internal to {@code WeightedSemaphore}; not part of poolkit's API.
 *
 * <p>The status moves once, from waiting to granted, cancelled (the requester gave up) or refused (the semaphore
 * shrank below the request, which can then never be granted), and only while the owning semaphore's lock is held.
 * It is volatile so that the requester may poll it without the lock: reading "granted" happens-after the grant (and
 * therefore after the release that made it possible).
 */
abstract class SemaphoreWaiter {

    /*
     * Implementation overview.
     * - permits: immutable.
     * - status: WAITING -> GRANTED, CANCELLED or REFUSED, written only under the owning semaphore's lock, read
     *   anywhere (volatile). A racy read of WAITING is only ever used as a hint; the decision is re-taken under the
     *   lock.
     * - prev/next: owned by SemaphoreWaitQueue and guarded by the same lock. Once a batch of waiters has been taken out
     *   of the queue to be granted, 'next' links that batch instead (see SemaphoreWaitQueue.takeFitting); nothing
     *   changes it after that.
     */

    private static final int WAITING = 0;
    private static final int GRANTED = 1;
    private static final int CANCELLED = 2;
    private static final int REFUSED = 3;

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

    /**
     * Returns whether the request was granted. May be called without the lock.
     *
     * @return {@code true} once the request's permits are counted as in use
     */
    public final boolean isGranted() {
        return status == GRANTED;
    }

    /**
     * Returns whether the request was refused because the semaphore shrank below it. May be called without the lock.
     *
     * @return {@code true} once the request has been taken out of the line as impossible to grant
     */
    public final boolean isRefused() {
        return status == REFUSED;
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
     * Marks the request refused. The caller holds the owner's lock and has removed it from the queue (see
     * {@link SemaphoreWaitQueue#takeLargerThan(long)}).
     */
    public final void markRefused() {
        status = REFUSED;
    }

    /**
     * Returns the next waiter of the batch returned by {@link SemaphoreWaitQueue#takeFitting(long)} or
     * {@link SemaphoreWaitQueue#takeLargerThan(long)}.
     *
     * @return the waiter granted after this one in the same batch, or {@code null} at the end of the batch
     */
    public final SemaphoreWaiter nextInBatch() {
        return next;
    }

    /**
     * Tells the requester that it has been granted or refused. Called once, after {@link #markGranted()} or
     * {@link #markRefused()}, without the owner's
     * lock held (so that a woken requester does not immediately block on it, and so that no user code runs under it).
     */
    public abstract void wake();

    /**
     * {@return whether {@link #wake()} runs the requester's own code (the dependent stages of an asynchronous request's
     * future), rather than only unparking a blocked thread}
     */
    abstract boolean wakeRunsCallersCode();
}
