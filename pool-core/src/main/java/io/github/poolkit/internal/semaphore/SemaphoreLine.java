package io.github.poolkit.internal.semaphore;

import io.github.poolkit.Permit;
import io.github.poolkit.SemaphoreListener;
import io.github.poolkit.SemaphoreListener.AcquireOutcome;
import io.github.poolkit.SemaphoreStats;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The lock of a {@code WeightedSemaphore}, its FIFO line of waiting requests, and everything done under that lock:
 * queueing, granting in order, withdrawing, releasing to waiters and resizing. Internal; not part of poolkit's API.
 *
 * <p>The semaphore keeps its state word itself (on cache lines of its own), next to its lock-free fast paths; it
 * gives this class access to the word by implementing the abstract accessors, and calls in here only when a fast
 * path cannot decide alone.
 */
public abstract class SemaphoreLine {

    /*
     * Implementation overview.
     *
     * State. One long word, 'state' = used | (LOCKED if the lock must be taken), where LOCKED is the sign bit and used
     * (bits 0..62) is the number of permits in use. LOCKED is raised while anybody may be queued, and also while the
     * size is below its high mark 'cap' (after a shrink) and while a resize runs. Keeping the flag in the same word as
     * 'used' is what makes the owner's lock-free fast paths safe: a single CAS checks "lock not needed" and takes the
     * permits atomically, so it can never overtake a waiter. The word and 'cap' live in the owner (WeightedSemaphore,
     * which also explains why its fast paths are safe); this class reaches them through getState/setState/
     * compareAndSetState and getCap/setCap.
     *
     * Size. 'size' is the current size; it changes only under the lock with LOCKED raised. 'cap' is the bound the
     * lock-free fast paths check against: the highest size ever set, so it never decreases.
     *
     * Lock. 'lock' guards 'queue' (the FIFO line of SemaphoreWaiters), every change of the LOCKED bit, of 'size' and
     * 'cap', and every change of 'state' while LOCKED is set. Waiters are allocated only on the slow path.
     *
     * Invariants:
     *  I1. 0 <= used; used <= size except after a shrink, until enough permits have been released.
     *  I2. LOCKED is raised and cleared only under the lock; the queue changes only under the lock. Whenever the lock
     *      is free, LOCKED is set iff the queue is non-empty or size < cap. (grantOrEnqueue raises LOCKED an instant
     *      before it appends, both under the lock; resize raises it for its whole critical section.)
     *  I3. (kept by the owner's fast paths; written in WeightedSemaphore) While LOCKED is set, 'state' changes only
     *      under the lock, so lock holders may then write it with a plain volatile store (setState); while it is
     *      clear, they too change it by CAS.
     *  I4. Whenever the lock is free, the head waiter does not fit: used + head.permits > size. Every lock holder
     *      that lowers 'used', raises 'size' or removes the head calls grantWaiters before unlocking. So a fast-path
     *      release (only possible with LOCKED clear, i.e. nobody queued) never has anybody to grant.
     *  I5. FIFO: permits are taken only (a) by a CAS that saw LOCKED clear, i.e. with an empty queue, (b) under the
     *      lock with an empty queue, or (c) by grantWaiters, from the head of the queue, stopping at the first waiter
     *      that does not fit. Nobody overtakes a queued waiter.
     *  I6. No permit is lost: a waiter's status moves once, under the lock, from WAITING to GRANTED (its permits are
     *      then counted in 'used'), to CANCELLED (removed, 'used' untouched) or to REFUSED (removed by a shrink below
     *      its request, 'used' untouched). A requester that gives up calls withdraw, which succeeds only while
     *      WAITING; if the grant won, the requester either keeps the permits (timeout: returns true) or releases them
     *      (interrupt; a future that was cancelled or completed by someone else first).
     *  I7. Whenever LOCKED is clear, size == cap; 'cap' never decreases. A fast-path acquire that read (s, c) and
     *      whose CAS from s succeeds at time T had s + n <= c <= cap(T) == size(T): the grant is valid at T whatever
     *      resizes ran between its reads and its CAS.
     *  I8. 'resizes' is odd exactly while a resize is in its critical section (even otherwise); readers that combine
     *      'size' and 'state' (available) retry until they saw the same even value around their reads.
     *
     * Waking happens after unlocking (BatchWakes): a woken thread does not run into the lock we still hold, and future
     * callbacks never run under the lock. Blocked threads are woken before asynchronous requests, and the asynchronous
     * requests a blocked thread's give-up lets through are woken on a virtual thread of their own. grantWaiters
     * writes 'state' before marking waiters GRANTED, so a requester that sees its grant also sees 'used' including its
     * permits.
     *
     * Racy reads: size() and waiting() read one volatile field each without the lock; available() combines two under
     * I8. They are snapshots, never torn.
     */


    /** The bit of the state word that is set while the lock must be taken (the sign bit). */
    public static final long LOCKED = Long.MIN_VALUE;

    /** The bits of the state word that count the permits in use. */
    public static final long USED = Long.MAX_VALUE;

    /**
     * Reports what this class and the waiters settle; {@code null} when the semaphore has no listener. Replaced (never
     * cleared) by {@link #addListener}, under the lock; a request reads it when it starts and when it settles, so one
     * under way as a listener is added may be told to the earlier listeners only, or with a wait of 0.
     */
    volatile SemaphoreReporter reporter;

    /** The semaphore: what a parked requester waits for (see {@link java.util.concurrent.locks.LockSupport}). */
    final Object semaphore;

    private final ReentrantLock lock = new ReentrantLock();
    private final SemaphoreWaitQueue queue = new SemaphoreWaitQueue();
    private volatile long size;
    private volatile int resizes;

    /**
     * Creates the empty line of a semaphore.
     *
     * @param size      the semaphore's size, {@code >= 0}, also its high mark at first
     * @param semaphore the semaphore, the blocker of its parked requesters
     * @param reporter  the semaphore's reporter, or {@code null} when it has no listener
     */
    protected SemaphoreLine(long size, Object semaphore, SemaphoreReporter reporter) {
        this.size = size;
        this.semaphore = semaphore;
        this.reporter = reporter;
    }

    /**
     * Adds a listener after the semaphore's others; adding happens-before every request it is then told of.
     *
     * @param listener the listener
     */
    public final void addListener(SemaphoreListener listener) {
        lock.lock();
        try {
            reporter = SemaphoreReporter.adding(reporter, listener, semaphore);
        } finally {
            lock.unlock();
        }
    }

    /** {@return the semaphore's reporter now, or {@code null} when it has no listener} */
    public final SemaphoreReporter reporter() {
        return reporter;
    }

    // ---- the owner's state word ----

    /**
     * Reads the state word.
     *
     * @return {@code used | LOCKED} if the lock must be taken, else {@code used}
     */
    protected abstract long getState();

    /**
     * Writes the state word with a volatile store; only with the lock held and LOCKED set (I3).
     *
     * @param state the new word
     */
    protected abstract void setState(long state);

    /**
     * Changes the state word by CAS.
     *
     * @param expected the word read
     * @param state    the new word
     * @return whether the word was {@code expected} and is now {@code state}
     */
    protected abstract boolean compareAndSetState(long expected, long state);

    /**
     * Reads the size's high mark, the bound of the owner's fast paths.
     *
     * @return the highest size ever set
     */
    protected abstract long getCap();

    /**
     * Raises the size's high mark; only with the lock held and LOCKED set.
     *
     * @param cap the new high mark, above the old one
     */
    protected abstract void setCap(long cap);

    /**
     * Takes {@code n} permits by CAS if the lock is not needed and they fit (the semaphore's lock-free fast path).
     *
     * @param n the permits, {@code >= 0}
     * @return whether they were taken
     */
    protected abstract boolean tryAcquireFast(long n);

    /**
     * Checks a request that must wait for its grant: a weight {@code >= 0} and at most the size (a larger one could
     * never be granted, and is reported as refused).
     *
     * @param n         the permits requested
     * @param operation the method called, named in the message for {@code n < 0}
     * @throws IllegalArgumentException if {@code n < 0} or {@code n > size()}
     */
    public final void checkGrantable(long n, String operation) {
        SemaphoreErrors.checkNotNegative(n, operation);
        long current = size();
        if (n > current) {
            SemaphoreReporter.settle(reporter, n, 0L, AcquireOutcome.REJECTED);
            throw SemaphoreErrors.tooLarge(n, current);
        }
    }

    /**
     * Gives back permits granted to a requester that gave up meanwhile, as the semaphore's {@code release} does.
     *
     * @param n the permits granted
     */
    protected abstract void giveBack(long n);

    /**
     * Hands granted permits to an asynchronous requester.
     *
     * @param n the permits granted
     * @return a permit that releases them to the semaphore once closed
     */
    protected abstract Permit permit(long n);

    // ---- snapshots ----

    /**
     * Returns the current size.
     *
     * @return the size given at construction or to the last resize
     */
    public final long size() {
        return size;
    }

    /**
     * Returns the number of requests in line, a snapshot.
     *
     * @return the number of queued requests
     */
    public final int waiting() {
        return queue.size();
    }

    /**
     * Returns size, used and waiting as of one instant: under the lock the size and the queue cannot change (I2), and
     * the state word is read once, so the three held together when it was read.
     *
     * @return the snapshot
     */
    public final SemaphoreStats stats() {
        lock.lock();
        try {
            return new SemaphoreStats(size, getState() & USED, queue.size());
        } finally {
            lock.unlock();
        }
    }

    /**
     * Returns size minus used, from one consistent snapshot of both (I8).
     *
     * @return the permits free, negative after a shrink below what is in use
     */
    public final long available() {
        for (;;) {
            int before = resizes;
            long s = getState();
            long z = size;
            if ((before & 1) == 0 && resizes == before) { // no resize overlapped the two reads (I8)
                return z - (s & USED);
            }
            lock.lock(); // a resize is running: wait for it rather than spin
            lock.unlock();
        }
    }

    // ---- requests (under the lock) ----

    /**
     * tryAcquire(n) after the fast path failed: false if the permits are taken or somebody waits, else decided under
     * the lock (the fast path may have failed only because a resize, or a size below the high mark, raised LOCKED).
     *
     * @param n the permits requested, {@code >= 0}
     * @return whether they were taken
     */
    public final boolean tryAcquireLocked(long n) {
        for (;;) {
            long s = getState();
            if (s >= 0) { // as the fast path (I7)
                if (n > getCap() - s) {
                    return false;
                }
                if (compareAndSetState(s, s + n)) {
                    return true;
                }
            } else if (queue.size() > 0) {
                return false; // somebody waits now: never barge (I5)
            } else {
                lock.lock();
                try {
                    return queue.isEmpty() && takeIfFits(n);
                } finally {
                    lock.unlock();
                }
            }
        }
    }

    /** Lock held, queue empty: takes n permits if they fit under the current size (I5b). */
    private boolean takeIfFits(long n) {
        for (;;) {
            long s = getState();
            long used = s & USED;
            if (n > size - used) {
                return false;
            }
            if (s < 0) {
                setState(s + n); // LOCKED: nobody else writes (I3)
                return true;
            }
            if (compareAndSetState(s, s + n)) { // LOCKED clear: fast paths may race (I3)
                return true;
            }
        }
    }

    /**
     * Grants the waiter's permits at once if nobody waits and they fit, else raises LOCKED and appends the waiter.
     * Returns true if granted (the waiter is then not queued and stays WAITING, unused). A request larger than the
     * current size (the semaphore shrank since the caller checked) is refused with IllegalArgumentException, reported
     * to the listener (after unlocking: no callback runs under the lock) as waiting since {@code since}.
     */
    final boolean grantOrEnqueue(SemaphoreWaiter waiter, long since) {
        long n = waiter.permits();
        long current;
        lock.lock();
        try {
            current = size;
            if (n <= current) {
                return enqueueLocked(waiter);
            }
        } finally {
            lock.unlock();
        }
        SemaphoreReporter.settle(reporter, n, since, AcquireOutcome.REJECTED);
        throw SemaphoreErrors.tooLarge(n, current);
    }

    /** grantOrEnqueue under the lock, for a request that fits the current size. */
    private boolean enqueueLocked(SemaphoreWaiter waiter) {
        if (!queue.isEmpty()) {
            queue.add(waiter); // the head does not fit (I4), so neither may we (I5)
            return false;
        }
        if (takeIfFits(waiter.permits())) {
            waiter.markGranted(); // never queued, but never left looking like a waiter either
            return true;
        }
        // From now on 'state' changes only under the lock (I3). A fast-path release may have come between the check
        // above and raising LOCKED, so let grantWaiters decide again (I4): it grants us if we now fit.
        raiseLocked();
        queue.add(waiter);
        return grantWaiters() != null;
    }

    /** Lock held: sets LOCKED (by CAS, as fast paths may race while it is clear) and returns the new state. */
    private long raiseLocked() {
        for (;;) {
            long s = getState();
            if (s < 0 || compareAndSetState(s, s | LOCKED)) {
                return s | LOCKED;
            }
        }
    }

    /**
     * release(n) when the lock is needed (or was when release looked): gives the permits back, then grants the
     * waiters at the head that now fit.
     *
     * @param n the permits released, {@code >= 0}
     * @throws IllegalStateException if {@code n} is more than the permits in use; nothing changes then
     */
    public final void releaseLocked(long n) {
        SemaphoreWaiter granted;
        lock.lock();
        try {
            long s;
            do { // a CAS loop because LOCKED may have been cleared before we got the lock (I3)
                s = getState();
                long used = s & USED;
                if (n > used) {
                    throw SemaphoreErrors.releasedMoreThanHeld(n, used, size);
                }
            } while (!compareAndSetState(s, s - n));
            granted = s < 0 ? grantWaiters() : null;
        } finally {
            lock.unlock();
        }
        BatchWakes.wake(granted, null, false);
    }

    /**
     * Changes the size: refuses the waiting requests larger than the new size, then grants, in order, those at the
     * head that now fit. Takes no permit back.
     *
     * @param newSize the new size, {@code >= 0}
     */
    public final void resize(long newSize) {
        SemaphoreWaiter refused;
        SemaphoreWaiter granted;
        lock.lock();
        try {
            long s = raiseLocked();
            resizes++; // odd: size and state may disagree until the matching increment (I8)
            if (newSize > getCap()) {
                setCap(newSize); // cap only grows (I7)
            }
            size = newSize;
            refused = queue.takeLargerThan(newSize);
            for (SemaphoreWaiter w = refused; w != null; w = w.nextInBatch()) {
                w.markRefused();
            }
            setState(s); // LOCKED stays raised; grantWaiters drops it if the queue is empty and size == cap (I2, I7)
            granted = grantWaiters();
            resizes++;
        } finally {
            lock.unlock();
        }
        BatchWakes.wake(refused, granted, false);
    }

    /**
     * Lock held, LOCKED set: grants the waiters at the head that fit, in order (I4, I5c), and clears LOCKED if the
     * queue is empty and the size is at its high mark (I2, I7). Returns the granted batch, to be woken after
     * unlocking.
     */
    private SemaphoreWaiter grantWaiters() {
        long used = getState() & USED;
        SemaphoreWaiter batch = queue.takeFitting(size - used); // negative after a shrink: nobody fits
        for (SemaphoreWaiter w = batch; w != null; w = w.nextInBatch()) {
            used += w.permits();
        }
        setState(queue.isEmpty() && size == getCap() ? used : used | LOCKED); // plain store: LOCKED is set (I3)
        for (SemaphoreWaiter w = batch; w != null; w = w.nextInBatch()) {
            w.markGranted(); // after the store above, so a granted requester sees its permits in used()
        }
        return batch;
    }

    /**
     * Takes a still-waiting request out of the line, leaving 'used' unchanged; if it was the head, grants the
     * followers that now fit, whose asynchronous requests are woken on a virtual thread of their own if
     * {@code handOff}, else on this thread. Returns false if the request had already been granted or refused (I6).
     */
    final boolean withdraw(SemaphoreWaiter waiter, boolean handOff) {
        SemaphoreWaiter granted = null;
        lock.lock();
        try {
            if (!waiter.isWaiting()) {
                return false;
            }
            boolean wasHead = queue.remove(waiter);
            waiter.markCancelled();
            if (wasHead) { // the new head may fit; and if the queue is now empty, this may clear LOCKED (I2)
                granted = grantWaiters();
            }
        } finally {
            lock.unlock();
        }
        BatchWakes.wake(granted, null, handOff);
        return true;
    }
}
