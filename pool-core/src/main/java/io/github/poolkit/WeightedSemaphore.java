package io.github.poolkit;

import io.github.poolkit.SemaphoreListener.AcquireOutcome;
import io.github.poolkit.internal.Durations;
import io.github.poolkit.internal.semaphore.SemaphoreWaitQueue;
import io.github.poolkit.internal.semaphore.SemaphoreWaiter;
import io.github.poolkit.internal.Spin;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A counting semaphore whose requests have a weight, granted in strict FIFO order: the Java counterpart of Go's
 * {@code golang.org/x/sync/semaphore.Weighted}.
 *
 * <p>The semaphore holds {@link #size()} permits. A request for {@code n} permits is granted when {@code n} permits
 * are free <em>and</em> every earlier request has been granted or has given up. Permits are given back with
 * {@link #release(long)} (or by closing the {@link Permit} from {@link #acquirePermit(long)} or
 * {@link #acquireAsync(long)}); nothing ties permits to the thread that acquired them.
 *
 * <h2>Fairness</h2>
 * <ul>
 *   <li>Grants are strictly first-in, first-out. A waiting request is never overtaken, not even by a smaller one
 *       that would fit, so a request for many permits (even all of them) is not starved by a stream of small ones.
 *       The price is head-of-line blocking: while a large request waits, smaller ones queue behind it.</li>
 *   <li>{@link #tryAcquire(long)} never barges: it fails whenever anybody waits, even if enough permits are free
 *       (unlike {@link java.util.concurrent.Semaphore#tryAcquire(int)}).</li>
 *   <li>{@code acquire(0)} is a request like any other: it returns at once when nobody waits, and otherwise waits for
 *       its turn.</li>
 *   <li>A request for more than {@link #size()} permits could never be granted: {@code acquire},
 *       {@code acquirePermit} and {@code acquireAsync} throw {@link IllegalArgumentException}, both
 *       {@code tryAcquire} forms return {@code false} at once. A request that waits when {@link #resize(long)}
 *       shrinks the semaphore below it fails with {@link IllegalArgumentException} in the same way.</li>
 *   <li>When a waiting request gives up (timeout, interrupt, cancelled future) it leaves the line without changing
 *       the permits in use; if it was first in line, the requests behind it that now fit are granted at once.</li>
 * </ul>
 *
 * <h2>Memory consistency</h2>
 * Actions in a thread before a {@link #release(long)} (or {@link Permit#close()}) happen-before actions following a
 * later successful acquire (in any form, including the completion of an {@link #acquireAsync(long)} future and the
 * stages that depend on it) that is granted permits freed by that release.
 *
 * <h2>Blocking and interruption</h2>
 * {@link #acquire(long)}, {@link #acquirePermit(long)} and {@link #tryAcquire(long, Duration)} block the calling
 * thread and are interruptible: if the thread is interrupted on entry or while waiting they throw
 * {@link InterruptedException} (clearing the interrupt status) and the caller holds none of the permits it asked
 * for. If a grant races with the interrupt and wins, the granted permits are released again (which may grant other
 * waiters) before the exception is thrown. An interrupt that arrives after the waiting thread has seen its grant is
 * left pending in the thread's interrupt status and the call returns normally. A timed wait whose grant races with
 * its timeout and wins returns {@code true}. {@link #acquireAsync(long)} never blocks.
 *
 * <h2>Changing the size</h2>
 * {@link #resize(long)} changes the size at run time. Growing grants at once, in FIFO order, the waiting requests that
 * now fit. Shrinking takes nothing back: if more permits are in use than the new size, {@link #available()} is
 * negative and new grants wait until enough permits have been released. Waiting requests larger than the new size are
 * refused ({@link IllegalArgumentException}), as they could never be granted; the line behind them moves on as if
 * they had withdrawn. FIFO order and the no-barging rule hold throughout.
 *
 * <h2>Listener</h2>
 * A {@link SemaphoreListener} given at construction hears once of every settled request (granted, timed out,
 * interrupted, cancelled, refused), with the time it waited; a semaphore without one does not read the clock on its
 * fast paths.
 *
 * <p>Thread-safe. When nobody waits, {@code acquire}, both {@code tryAcquire} forms and {@code release} take no lock
 * and allocate nothing: one CAS each, as in {@link java.util.concurrent.Semaphore}. A thread that must wait allocates
 * one small queue node. After the size has been lowered below the largest size it ever had, every operation takes the
 * internal lock (briefly: uncontended, a few nanoseconds more) until the size is raised back to that high mark.
 */
public final class WeightedSemaphore implements PermitSemaphore {

    /*
     * Implementation overview.
     *
     * State. One long word, 'state' = used | (LOCKED if the lock must be taken), where LOCKED is the sign bit and used
     * (bits 0..62) is the number of permits in use. LOCKED is raised while anybody may be queued, and also while the
     * size is below its high mark 'cap' (after a shrink) and while a resize runs. Keeping the flag in the same word as
     * 'used' is what makes the lock-free fast paths safe: a single CAS checks "lock not needed" and takes the permits
     * atomically, so it can never overtake a waiter.
     *
     * Size. 'size' is the current size; it changes only under the lock with LOCKED raised. 'cap' is the bound the
     * lock-free fast paths check against: the highest size ever set, so it never decreases. The fast paths read
     * 'state' and then 'cap', and CAS 'state'; a resize may complete between those reads and the CAS and leave
     * 'state' exactly as the fast path read it (ABA), so the fast path's check must stay true for any later 'cap'.
     * It does because 'cap' only grows and, by I7, equals 'size' whenever the CAS can succeed.
     *
     * Lock. 'lock' guards 'queue' (the FIFO line of SemaphoreWaiters), every change of the LOCKED bit, of 'size' and
     * 'cap', and every change of 'state' while LOCKED is set. Waiters are allocated only on the slow path.
     *
     * Invariants:
     *  I1. 0 <= used; used <= size except after a shrink, until enough permits have been released.
     *  I2. LOCKED is raised and cleared only under the lock; the queue changes only under the lock. Whenever the lock
     *      is free, LOCKED is set iff the queue is non-empty or size < cap. (grantOrEnqueue raises LOCKED an instant
     *      before it appends, both under the lock; resize raises it for its whole critical section.)
     *  I3. While LOCKED is set, 'state' changes only under the lock: the fast paths CAS from a value with LOCKED
     *      clear and so cannot succeed. Hence lock holders may write 'state' with a plain volatile store while LOCKED
     *      is set; while it is clear, everybody (lock holders included) changes 'state' by CAS.
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
     * Waking happens after unlocking (wakeAll): a woken thread does not run into the lock we still hold, and future
     * callbacks never run under the lock. grantWaiters writes 'state' before marking waiters GRANTED, so a requester
     * that sees its grant also sees 'used' including its permits.
     *
     * Racy reads: used(), size() and waiting() read one volatile field each without the lock; available() combines
     * two under I8. They are snapshots, never torn. The fast paths' reads are validated by their CAS (and I7). A
     * requester polls its waiter's volatile status without the lock and re-checks under the lock before acting on
     * WAITING (withdraw).
     *
     * Listener. Every public acquiring method reports exactly one outcome per call that got past argument checks
     * (settle). The clock is read only when a listener is set.
     */

    private static final System.Logger LOG = System.getLogger("io.github.poolkit");

    private static final long LOCKED = Long.MIN_VALUE;
    private static final long USED = Long.MAX_VALUE;

    /** Spins before parking to wait (see Spin for when they are allowed): a grant often comes within that time. */
    private static final int SPINS = 256;

    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(WeightedSemaphore.class, "state", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final SemaphoreWaitQueue queue = new SemaphoreWaitQueue();
    private final SemaphoreListener listener;
    private volatile long state;
    private volatile long size;
    private volatile long cap;
    private volatile int resizes;

    /**
     * Creates a semaphore with {@code size} permits, all free.
     *
     * @param size the total weight that may be held at once, {@code >= 0}
     * @throws IllegalArgumentException if {@code size < 0}
     */
    public WeightedSemaphore(long size) {
        this(size, null);
    }

    /**
     * Creates a semaphore with {@code size} permits, all free, that reports every settled request to
     * {@code listener} (see {@link SemaphoreListener}).
     *
     * @param size     the total weight that may be held at once, {@code >= 0}
     * @param listener receives each settled request, or {@code null} for none
     * @throws IllegalArgumentException if {@code size < 0}
     */
    public WeightedSemaphore(long size, SemaphoreListener listener) {
        checkSize(size);
        this.size = size;
        this.cap = size;
        this.listener = listener;
    }

    /**
     * Acquires {@code n} permits, blocking until they are granted in FIFO order (see the class documentation).
     *
     * @param n the number of permits, {@code 0 <= n <= size()}
     * @throws IllegalArgumentException if {@code n < 0} or {@code n > size()} (such a request could never be granted),
     *     also when the semaphore shrinks below {@code n} while the request waits
     * @throws InterruptedException if the thread is interrupted on entry or while waiting; the caller then holds none
     *     of the {@code n} permits and the semaphore is as if the call had not been made (except for waiters granted
     *     because this one left the head of the line)
     */
    @Override
    public void acquire(long n) throws InterruptedException {
        // The uncontended path, kept small so that it inlines: a fast-path grant implies 0 <= n <= size() (I7); every
        // other case (bad argument, interrupt, contention) goes to acquireSlowly, which checks in the documented order.
        if (n >= 0 && !Thread.currentThread().isInterrupted() && tryAcquireFast(n)) {
            settleAtOnce(n, AcquireOutcome.ACQUIRED);
            return;
        }
        acquireSlowly(n);
    }

    /** acquire(n) when the fast path did not grant: argument checks, then the interrupt, then the line. */
    private void acquireSlowly(long n) throws InterruptedException {
        checkGrantable(n);
        if (Thread.interrupted()) {
            settle(n, 0L, AcquireOutcome.INTERRUPTED);
            throw new InterruptedException();
        }
        if (tryAcquireFast(n)) {
            settleAtOnce(n, AcquireOutcome.ACQUIRED);
        } else {
            awaitGrant(n, false, 0L);
        }
    }

    /**
     * Acquires {@code n} permits like {@link #acquire(long)} and returns them as a {@link Permit} to close in
     * try-with-resources.
     *
     * @param n the number of permits, {@code 0 <= n <= size()}
     * @return the granted permits; {@link Permit#close()} releases them once
     * @throws IllegalArgumentException if {@code n < 0} or {@code n > size()}, also when the semaphore shrinks below
     *     {@code n} while the request waits
     * @throws InterruptedException as for {@link #acquire(long)}
     */
    @Override
    public Permit acquirePermit(long n) throws InterruptedException {
        acquire(n);
        return new Permit(this, n);
    }

    /**
     * Requests {@code n} permits without blocking a thread. The returned future completes with a {@link Permit} when
     * the request is granted, in FIFO order with all other requests (at once if nobody waits and {@code n} permits
     * are free).
     *
     * <p>Giving up: cancelling the future (or completing it in any other way, e.g. through
     * {@link CompletableFuture#orTimeout}) before the grant withdraws the request and leaves the permits in use
     * unchanged; if it was first in line, the requests behind it that now fit are granted at once. If the grant and
     * the cancellation race and the cancellation wins, the granted permits are released again, so none leak. If the
     * grant wins, the future holds a {@link Permit} the caller must close. Cancelling a stage derived from the future
     * (e.g. via {@code thenApply}) does not withdraw the request. If the semaphore shrinks below {@code n} while the
     * request waits, the future completes exceptionally with {@link IllegalArgumentException}.
     *
     * <p>Dependent stages registered without an {@code Async} suffix may run in the thread whose release granted the
     * request, or in the calling thread if it is granted at once.
     *
     * @param n the number of permits, {@code 0 <= n <= size()}
     * @return a future completed with the granted permits
     * @throws IllegalArgumentException if {@code n < 0} or {@code n > size()}, thrown at once (rather than returned as
     *     a failed future) to match {@link #acquire(long)}: it is a programming error, not an outcome
     */
    @Override
    public CompletableFuture<Permit> acquireAsync(long n) {
        checkGrantable(n);
        if (tryAcquireFast(n)) {
            settleAtOnce(n, AcquireOutcome.ACQUIRED);
            return CompletableFuture.completedFuture(new Permit(this, n));
        }
        AsyncWaiter waiter = new AsyncWaiter(n, clock());
        if (grantOrEnqueue(waiter, waiter.since)) {
            settle(n, waiter.since, AcquireOutcome.ACQUIRED);
            return CompletableFuture.completedFuture(new Permit(this, n));
        }
        // Any completion other than our grant (cancel, orTimeout, complete by the caller) withdraws the request.
        // If the grant or a refusal completed it, the waiter is no longer WAITING and this is a no-op.
        waiter.future.whenComplete((permit, failure) -> {
            if (waiter.isWaiting() && withdraw(waiter)) {
                settle(n, waiter.since, AcquireOutcome.CANCELLED);
            }
        });
        return waiter.future;
    }

    /**
     * Acquires {@code n} permits only if they are free and nobody is waiting; never blocks and never overtakes a
     * waiting request.
     *
     * @param n the number of permits, {@code >= 0}
     * @return {@code true} if the permits were acquired; {@code false} if not, and always if {@code n > size()}
     * @throws IllegalArgumentException if {@code n < 0}
     */
    @Override
    public boolean tryAcquire(long n) {
        checkNotNegative(n, "tryAcquire");
        boolean acquired = tryAcquireFast(n) || tryAcquireLocked(n);
        settleAtOnce(n, acquired ? AcquireOutcome.ACQUIRED : AcquireOutcome.REJECTED);
        return acquired;
    }

    /**
     * Acquires {@code n} permits, waiting in FIFO order for at most {@code timeout}. A zero or negative timeout makes
     * this {@link #tryAcquire(long)}.
     *
     * <p>On timeout the request leaves the line and the permits in use are unchanged; if it was first in line, the
     * requests behind it that now fit are granted at once. A grant that races with the timeout and wins is kept: the
     * method then returns {@code true}.
     *
     * @param n the number of permits, {@code >= 0}
     * @param timeout how long to wait at most
     * @return {@code true} if the permits were acquired; {@code false} on timeout, and at once if {@code n > size()}
     * @throws IllegalArgumentException if {@code n < 0}, or if the semaphore shrinks below {@code n} while the request
     *     waits (it could then never be granted)
     * @throws NullPointerException if {@code timeout} is null
     * @throws InterruptedException if the thread is interrupted on entry or while waiting; the caller then holds none
     *     of the permits (see {@link #acquire(long)})
     */
    @Override
    public boolean tryAcquire(long n, Duration timeout) throws InterruptedException {
        checkNotNegative(n, "tryAcquire");
        Objects.requireNonNull(timeout, "timeout must not be null; use Duration.ZERO not to wait");
        if (n > size) {
            settleAtOnce(n, AcquireOutcome.REJECTED);
            return false;
        }
        if (Thread.interrupted()) {
            settle(n, 0L, AcquireOutcome.INTERRUPTED);
            throw new InterruptedException();
        }
        if (tryAcquireFast(n)) {
            settleAtOnce(n, AcquireOutcome.ACQUIRED);
            return true;
        }
        long nanos = Durations.toNanosSaturated(timeout);
        if (nanos <= 0) {
            boolean acquired = tryAcquireLocked(n);
            settleAtOnce(n, acquired ? AcquireOutcome.ACQUIRED : AcquireOutcome.REJECTED);
            return acquired;
        }
        return awaitGrant(n, true, nanos);
    }

    /**
     * Releases {@code n} permits, then grants waiting requests from the head of the line, in order, while they fit
     * (stopping at the first that does not). Never blocks for long (it may briefly take the internal lock when
     * somebody waits). Any thread may release.
     *
     * @param n the number of permits, {@code >= 0}
     * @throws IllegalArgumentException if {@code n < 0}
     * @throws IllegalStateException if {@code n > used()} ("released more than held"); the semaphore is then
     *     unchanged
     */
    @Override
    public void release(long n) {
        checkNotNegative(n, "release");
        for (;;) {
            long s = state;
            if (s < 0) { // LOCKED: only under the lock (I3), and waiters may now fit (I4)
                releaseLocked(n);
                return;
            }
            if (n > s) {
                throw releasedMoreThanHeld(n, s);
            }
            if (STATE.compareAndSet(this, s, s - n)) {
                return;
            }
        }
    }

    /**
     * Changes the size. Growing grants at once, in FIFO order, the waiting requests that now fit. Shrinking takes no
     * permit back: while more permits are in use than the new size, {@link #available()} is negative and no request
     * is granted (not even one for zero permits) until enough have been released. Waiting requests for more than the
     * new size are refused: their callers get {@link IllegalArgumentException} (an {@link #acquireAsync} future
     * completes exceptionally with it), and the line behind them moves on as if they had withdrawn. FIFO order and the
     * no-barging rule hold throughout; resizing to the current size changes nothing.
     *
     * @param newSize the new total weight that may be held at once, {@code >= 0}
     * @throws IllegalArgumentException if {@code newSize < 0}
     */
    @Override
    public void resize(long newSize) {
        checkSize(newSize);
        SemaphoreWaiter refused;
        SemaphoreWaiter granted;
        lock.lock();
        try {
            long s = raiseLocked();
            resizes++; // odd: size and state may disagree until the matching increment (I8)
            if (newSize > cap) {
                cap = newSize; // cap only grows (I7)
            }
            size = newSize;
            refused = queue.takeLargerThan(newSize);
            for (SemaphoreWaiter w = refused; w != null; w = w.nextInBatch()) {
                w.markRefused();
            }
            state = s; // LOCKED stays raised; grantWaiters drops it if the queue is empty and size == cap (I2, I7)
            granted = grantWaiters();
            resizes++;
        } finally {
            lock.unlock();
        }
        wakeAll(refused);
        wakeAll(granted);
    }

    /**
     * Returns the number of permits this semaphore holds in all: the size given at construction or to the last
     * {@link #resize(long)}.
     *
     * @return the current size, {@code >= 0}
     */
    @Override
    public long size() {
        return size;
    }

    /**
     * Returns the number of permits in use (acquired and not yet released). A snapshot when others are acquiring or
     * releasing.
     *
     * @return a value {@code >= 0}; at most {@link #size()}, unless the size was lowered below what was in use and not
     *     enough has been released since
     */
    @Override
    public long used() {
        return state & USED;
    }

    /**
     * Returns {@code size() - used()}, from one consistent snapshot of both. Free permits may still be unavailable to
     * a new request if somebody waits (see the class documentation).
     *
     * @return a value between {@code -used()} and {@link #size()}: negative after the size was lowered below what is
     *     in use, until enough permits have been released
     */
    @Override
    public long available() {
        for (;;) {
            int before = resizes;
            long s = state;
            long z = size;
            if ((before & 1) == 0 && resizes == before) { // no resize overlapped the two reads (I8)
                return z - (s & USED);
            }
            lock.lock(); // a resize is running: wait for it rather than spin
            lock.unlock();
        }
    }

    /**
     * Returns the number of requests waiting in line (blocked threads plus pending {@link #acquireAsync} futures).
     * A snapshot when others are acquiring or releasing.
     *
     * @return the number of queued requests, {@code >= 0}
     */
    @Override
    public int waiting() {
        return queue.size();
    }

    /**
     * Describes this semaphore for logs, from racy snapshots.
     *
     * @return for example {@code WeightedSemaphore[size=10, used=4, waiting=2]}
     */
    @Override
    public String toString() {
        return "WeightedSemaphore[size=" + size + ", used=" + used() + ", waiting=" + waiting() + "]";
    }

    // ---- fast paths (no lock, no allocation) ----

    /** Takes n permits by CAS if the lock is not needed and they fit (I5a, I7); false otherwise. */
    private boolean tryAcquireFast(long n) {
        for (;;) {
            long s = state;
            if (s < 0 || n > cap - s) { // lock needed, or not enough free (s == used and cap == size here)
                return false;
            }
            if (STATE.compareAndSet(this, s, s + n)) {
                return true;
            }
        }
    }

    // ---- slow paths (under the lock) ----

    /**
     * tryAcquire(n) after the fast path failed: false if the permits are taken or somebody waits, else decided under
     * the lock (the fast path may have failed only because a resize, or a size below the high mark, raised LOCKED).
     */
    private boolean tryAcquireLocked(long n) {
        for (;;) {
            long s = state;
            if (s >= 0) { // as the fast path (I7)
                if (n > cap - s) {
                    return false;
                }
                if (STATE.compareAndSet(this, s, s + n)) {
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
            long s = state;
            long used = s & USED;
            if (n > size - used) {
                return false;
            }
            if (s < 0) {
                state = s + n; // LOCKED: nobody else writes (I3)
                return true;
            }
            if (STATE.compareAndSet(this, s, s + n)) { // LOCKED clear: fast paths may race (I3)
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
    private boolean grantOrEnqueue(SemaphoreWaiter waiter, long since) {
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
        settle(n, since, AcquireOutcome.REJECTED);
        throw tooLarge(n, current);
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
            long s = state;
            if (s < 0 || STATE.compareAndSet(this, s, s | LOCKED)) {
                return s | LOCKED;
            }
        }
    }

    /** release(n) when the lock is needed (or was when release looked). */
    private void releaseLocked(long n) {
        SemaphoreWaiter granted;
        lock.lock();
        try {
            long s;
            do { // a CAS loop because LOCKED may have been cleared before we got the lock (I3)
                s = state;
                long used = s & USED;
                if (n > used) {
                    throw releasedMoreThanHeld(n, used);
                }
            } while (!STATE.compareAndSet(this, s, s - n));
            granted = s < 0 ? grantWaiters() : null;
        } finally {
            lock.unlock();
        }
        wakeAll(granted);
    }

    /**
     * Lock held, LOCKED set: grants the waiters at the head that fit, in order (I4, I5c), and clears LOCKED if the
     * queue is empty and the size is at its high mark (I2, I7). Returns the granted batch, to be woken after
     * unlocking.
     */
    private SemaphoreWaiter grantWaiters() {
        long used = state & USED;
        SemaphoreWaiter batch = queue.takeFitting(size - used); // negative after a shrink: nobody fits
        for (SemaphoreWaiter w = batch; w != null; w = w.nextInBatch()) {
            used += w.permits();
        }
        state = queue.isEmpty() && size == cap ? used : used | LOCKED; // plain store: LOCKED is set (I3)
        for (SemaphoreWaiter w = batch; w != null; w = w.nextInBatch()) {
            w.markGranted(); // after the store above, so a granted requester sees its permits in used()
        }
        return batch;
    }

    /**
     * Takes a still-waiting request out of the line, leaving 'used' unchanged; if it was the head, grants the
     * followers that now fit. Returns false if the request had already been granted or refused (I6).
     */
    private boolean withdraw(SemaphoreWaiter waiter) {
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
        wakeAll(granted);
        return true;
    }

    private static void wakeAll(SemaphoreWaiter batch) {
        for (SemaphoreWaiter w = batch; w != null; ) {
            SemaphoreWaiter next = w.nextInBatch();
            w.wake();
            w = next;
        }
    }

    /**
     * Blocks the current thread until its request for n permits is granted (true), the timeout elapses (false), it
     * is interrupted (InterruptedException) or refused by a shrink (IllegalArgumentException). See the class
     * documentation for the race rules (I6).
     */
    private boolean awaitGrant(long n, boolean timed, long nanos) throws InterruptedException {
        long since = clock();
        long deadline = timed ? System.nanoTime() + nanos : 0L;
        ThreadWaiter waiter = new ThreadWaiter(n);
        if (grantOrEnqueue(waiter, since)) {
            settle(n, since, AcquireOutcome.ACQUIRED);
            return true;
        }
        boolean interrupted = false;
        boolean timedOut = false;
        // Spin briefly first: under contention a grant often comes within a short critical section, and a waiter
        // that sees it without parking saves the unpark/wake-up round trip (AQS does the same).
        int spins = Spin.budget(SPINS);
        while (waiter.isWaiting()) {
            if (Thread.interrupted()) {
                interrupted = true;
                break;
            }
            long remaining = timed ? deadline - System.nanoTime() : 0L;
            if (timed && remaining <= 0) {
                timedOut = true;
                break;
            }
            if (spins > 0) {
                spins--;
                Thread.onSpinWait();
            } else if (!timed) {
                LockSupport.park(this);
            } else {
                LockSupport.parkNanos(this, remaining);
            }
        }
        if ((interrupted || timedOut) && withdraw(waiter)) { // left the line before any grant: as before
            settle(n, since, interrupted ? AcquireOutcome.INTERRUPTED : AcquireOutcome.TIMEOUT);
            if (interrupted) {
                throw new InterruptedException();
            }
            return false;
        }
        // Settled by somebody else (only this thread withdraws a ThreadWaiter): granted or refused, maybe racing
        // with our giving up.
        if (waiter.isRefused()) {
            settle(n, since, AcquireOutcome.REJECTED);
            if (interrupted) {
                Thread.currentThread().interrupt(); // not ours to swallow: the refusal is what we report
            }
            throw tooLarge(n, size);
        }
        if (interrupted) { // the grant won the race with the interrupt: give the permits back
            release(n);
            settle(n, since, AcquireOutcome.INTERRUPTED);
            throw new InterruptedException();
        }
        settle(n, since, AcquireOutcome.ACQUIRED);
        return true;
    }

    // ---- listener ----

    /** The start of a wait for the listener, or 0 when there is no listener (no clock read then). */
    private long clock() {
        return listener == null ? 0L : System.nanoTime();
    }

    /** Reports a request settled without waiting; costs one field read when there is no listener. */
    private void settleAtOnce(long n, AcquireOutcome outcome) {
        if (listener != null) {
            notifyListener(n, 0L, outcome);
        }
    }

    /** Reports a request that started waiting at {@code since} (from {@link #clock()}). */
    private void settle(long n, long since, AcquireOutcome outcome) {
        if (listener != null) {
            notifyListener(n, since == 0L ? 0L : Math.max(0L, System.nanoTime() - since), outcome);
        }
    }

    private void notifyListener(long n, long waitedNanos, AcquireOutcome outcome) {
        try {
            listener.requestSettled(n, waitedNanos, outcome);
        } catch (RuntimeException | Error e) {
            if (e instanceof VirtualMachineError fatal) {
                throw fatal;
            }
            LOG.log(System.Logger.Level.WARNING, "the listener of " + this + " threw; ignored", e);
        }
    }

    // ---- helpers ----

    private void checkGrantable(long n) {
        checkNotNegative(n, "acquire");
        long current = size;
        if (n > current) {
            settleAtOnce(n, AcquireOutcome.REJECTED);
            throw tooLarge(n, current);
        }
    }

    private static IllegalArgumentException tooLarge(long n, long size) {
        return new IllegalArgumentException("cannot acquire " + n + " permits from a semaphore of size " + size
                + ": the request could never be granted; ask for at most size() permits");
    }

    private static void checkSize(long size) {
        if (size < 0) {
            throw new IllegalArgumentException(
                    "size must be >= 0 but was " + size + "; pass the total number of permits the semaphore holds");
        }
    }

    private static void checkNotNegative(long n, String operation) {
        if (n < 0) {
            throw new IllegalArgumentException(
                    operation + ": the number of permits must be >= 0 but was " + n + "; pass a non-negative weight");
        }
    }

    private IllegalStateException releasedMoreThanHeld(long n, long used) {
        return new IllegalStateException("released more than held: release(" + n + ") with only " + used
                + " of " + size + " permits in use; release only permits that were acquired");
    }

    /** A thread blocked in awaitGrant; woken by unparking it. */
    private static final class ThreadWaiter extends SemaphoreWaiter {
        private final Thread thread = Thread.currentThread();

        ThreadWaiter(long permits) {
            super(permits);
        }

        @Override
        public void wake() {
            LockSupport.unpark(thread);
        }
    }

    /** A request from acquireAsync; woken by completing its future. */
    private final class AsyncWaiter extends SemaphoreWaiter {
        private final CompletableFuture<Permit> future = new CompletableFuture<>();
        private final long since;

        AsyncWaiter(long permits, long since) {
            super(permits);
            this.since = since;
        }

        @Override
        public void wake() {
            long n = permits();
            if (isRefused()) {
                settle(n, since, AcquireOutcome.REJECTED);
                future.completeExceptionally(tooLarge(n, size));
            } else if (future.complete(new Permit(WeightedSemaphore.this, n))) {
                settle(n, since, AcquireOutcome.ACQUIRED);
            } else {
                release(n); // the future was cancelled or completed first: give the grant back (I6)
                settle(n, since, AcquireOutcome.CANCELLED);
            }
        }
    }
}
