package io.github.poolkit;

import io.github.poolkit.internal.Durations;
import io.github.poolkit.internal.SemaphoreWaitQueue;
import io.github.poolkit.internal.SemaphoreWaiter;
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
 *       {@code tryAcquire} forms return {@code false} at once.</li>
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
 * <p>Thread-safe. When nobody waits, {@code acquire}, both {@code tryAcquire} forms and {@code release} take no lock
 * and allocate nothing: one CAS each, as in {@link java.util.concurrent.Semaphore}. A thread that must wait allocates
 * one small queue node.
 */
public class WeightedSemaphore implements PermitSemaphore {

    /*
     * Implementation overview.
     *
     * State. One long word, 'state' = used | (WAITERS if anybody may be queued), where WAITERS is the sign bit and
     * used (bits 0..62) is the number of permits in use. Keeping the "somebody waits" flag in the same word as 'used'
     * is what makes the lock-free fast paths safe: a single CAS checks "nobody waits" and takes the permits
     * atomically, so it can never overtake a waiter.
     *
     * Lock. 'lock' guards 'queue' (the FIFO line of SemaphoreWaiters) and every change of the WAITERS bit, and every
     * change of 'state' while WAITERS is set. Waiters are allocated only on the slow path.
     *
     * Invariants:
     *  I1. 0 <= used <= size.
     *  I2. WAITERS is raised and cleared only under the lock; the queue changes only under the lock. Whenever the
     *      lock is free, WAITERS is set iff the queue is non-empty. (grantOrEnqueue raises WAITERS an instant before
     *      it appends, both under the lock.)
     *  I3. While WAITERS is set, 'state' changes only under the lock: the fast paths CAS from a value with WAITERS
     *      clear and so cannot succeed. Hence lock holders may write 'state' with a plain volatile store while WAITERS
     *      is set; while it is clear, everybody (lock holders included) changes 'state' by CAS.
     *  I4. Whenever the lock is free, the head waiter does not fit: used + head.permits > size. Every lock holder
     *      that lowers 'used' or removes the head calls grantWaiters before unlocking. So a fast-path release (only
     *      possible with WAITERS clear, i.e. nobody queued) never has anybody to grant.
     *  I5. FIFO: permits are taken only (a) by a CAS that saw WAITERS clear, i.e. with an empty queue, or (b) by
     *      grantWaiters, from the head of the queue, stopping at the first waiter that does not fit. Nobody overtakes
     *      a queued waiter.
     *  I6. No permit is lost: a waiter's status moves once, under the lock, from WAITING to GRANTED (its permits are
     *      then counted in 'used') or to CANCELLED (removed, 'used' untouched). A requester that gives up calls
     *      withdraw, which succeeds only while WAITING; if the grant won, the requester either keeps the permits
     *      (timeout: returns true) or releases them (interrupt; a future that was cancelled or completed by someone
     *      else first).
     *
     * Waking happens after unlocking (wakeAll): a woken thread does not run into the lock we still hold, and future
     * callbacks never run under the lock. grantWaiters writes 'state' before marking waiters GRANTED, so a requester
     * that sees its grant also sees 'used' including its permits.
     *
     * Racy reads: used(), available() and waiting() read volatile fields without the lock; they are snapshots,
     * never torn ('used' and WAITERS come from one read). The fast paths' reads are validated by their CAS. A
     * requester polls its waiter's volatile status without the lock and re-checks under the lock before acting on
     * WAITING (withdraw).
     */

    private static final long WAITERS = Long.MIN_VALUE;
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

    private final long size;
    private final ReentrantLock lock = new ReentrantLock();
    private final SemaphoreWaitQueue queue = new SemaphoreWaitQueue();
    private volatile long state;

    /**
     * Creates a semaphore with {@code size} permits, all free.
     *
     * @param size the total weight that may be held at once, {@code >= 0}
     * @throws IllegalArgumentException if {@code size < 0}
     */
    public WeightedSemaphore(long size) {
        if (size < 0) {
            throw new IllegalArgumentException(
                    "size must be >= 0 but was " + size + "; pass the total number of permits the semaphore holds");
        }
        this.size = size;
    }

    /**
     * Creates a semaphore with {@code size} permits, all free, that reports every settled request to
     * {@code listener}. (Not yet wired: the listener is not called yet.)
     *
     * @param size     the total weight that may be held at once, {@code >= 0}
     * @param listener receives each settled request, or {@code null} for none
     * @throws IllegalArgumentException if {@code size < 0}
     */
    public WeightedSemaphore(long size, SemaphoreListener listener) {
        this(size);
    }

    /**
     * Acquires {@code n} permits, blocking until they are granted in FIFO order (see the class documentation).
     *
     * @param n the number of permits, {@code 0 <= n <= size()}
     * @throws IllegalArgumentException if {@code n < 0} or {@code n > size()} (such a request could never be granted)
     * @throws InterruptedException if the thread is interrupted on entry or while waiting; the caller then holds none
     *     of the {@code n} permits and the semaphore is as if the call had not been made (except for waiters granted
     *     because this one left the head of the line)
     */
    @Override
    public void acquire(long n) throws InterruptedException {
        checkGrantable(n);
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        if (!tryAcquireFast(n)) {
            awaitGrant(n, false, 0L);
        }
    }

    /**
     * Acquires {@code n} permits like {@link #acquire(long)} and returns them as a {@link Permit} to close in
     * try-with-resources.
     *
     * @param n the number of permits, {@code 0 <= n <= size()}
     * @return the granted permits; {@link Permit#close()} releases them once
     * @throws IllegalArgumentException if {@code n < 0} or {@code n > size()}
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
     * (e.g. via {@code thenApply}) does not withdraw the request.
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
            return CompletableFuture.completedFuture(new Permit(this, n));
        }
        AsyncWaiter waiter = new AsyncWaiter(n);
        if (grantOrEnqueue(waiter)) {
            return CompletableFuture.completedFuture(new Permit(this, n));
        }
        // Any completion other than our grant (cancel, orTimeout, complete by the caller) withdraws the request.
        // If the grant completed it, the waiter is no longer WAITING and this is a no-op.
        waiter.future.whenComplete((permit, failure) -> {
            if (waiter.isWaiting()) {
                withdraw(waiter);
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
        return n <= size && tryAcquireFast(n);
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
     * @throws IllegalArgumentException if {@code n < 0}
     * @throws NullPointerException if {@code timeout} is null
     * @throws InterruptedException if the thread is interrupted on entry or while waiting; the caller then holds none
     *     of the permits (see {@link #acquire(long)})
     */
    @Override
    public boolean tryAcquire(long n, Duration timeout) throws InterruptedException {
        checkNotNegative(n, "tryAcquire");
        Objects.requireNonNull(timeout, "timeout must not be null; use Duration.ZERO not to wait");
        if (n > size) {
            return false;
        }
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        if (tryAcquireFast(n)) {
            return true;
        }
        long nanos = Durations.toNanosSaturated(timeout);
        return nanos > 0 && awaitGrant(n, true, nanos);
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
            if (s < 0) { // WAITERS: only under the lock (I3), and waiters may now fit (I4)
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
     * Returns the number of permits this semaphore holds in all; it never changes.
     *
     * @return the size given at construction
     */
    /** Not yet supported: throws {@link UnsupportedOperationException}. */
    @Override
    public void resize(long size) {
        throw new UnsupportedOperationException("resize is not implemented yet");
    }

    @Override
    public long size() {
        return size;
    }

    /**
     * Returns the number of permits in use (acquired and not yet released). A snapshot when others are acquiring or
     * releasing.
     *
     * @return a value between 0 and {@link #size()}
     */
    @Override
    public long used() {
        return state & USED;
    }

    /**
     * Returns {@code size() - used()}, from one snapshot of {@code used()}. Free permits may still be unavailable to
     * a new request if somebody waits (see the class documentation).
     *
     * @return a value between 0 and {@link #size()}
     */
    @Override
    public long available() {
        return size - used();
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

    /** Takes n permits by CAS if nobody waits and they fit (I5a); false otherwise. */
    private boolean tryAcquireFast(long n) {
        for (;;) {
            long s = state;
            if (s < 0 || n > size - s) { // somebody waits, or not enough free (s == used here)
                return false;
            }
            if (STATE.compareAndSet(this, s, s + n)) {
                return true;
            }
        }
    }

    // ---- slow paths (under the lock) ----

    /**
     * Grants the waiter's permits at once if nobody waits and they fit, else raises WAITERS and appends the waiter.
     * Returns true if granted (the waiter is then not queued and stays WAITING, unused).
     */
    private boolean grantOrEnqueue(SemaphoreWaiter waiter) {
        long n = waiter.permits();
        lock.lock();
        try {
            for (;;) {
                long s = state;
                if (s < 0) {
                    break; // somebody waits: join the line (I5)
                }
                if (n <= size - s) {
                    if (STATE.compareAndSet(this, s, s + n)) {
                        waiter.markGranted(); // never queued, but never left looking like a waiter either
                        return true;
                    }
                } else if (STATE.compareAndSet(this, s, s | WAITERS)) {
                    break; // from now on 'state' changes only under the lock (I3), so "does not fit" stays true (I4)
                }
            }
            queue.add(waiter);
            return false;
        } finally {
            lock.unlock();
        }
    }

    /** release(n) when somebody waits (or did when release looked). */
    private void releaseLocked(long n) {
        SemaphoreWaiter granted;
        lock.lock();
        try {
            long s;
            do { // a CAS loop because WAITERS may have been cleared before we got the lock (I3)
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
     * Lock held, WAITERS set: grants the waiters at the head that fit, in order (I4, I5b), and clears WAITERS if the
     * queue empties. Returns the granted batch, to be woken after unlocking.
     */
    private SemaphoreWaiter grantWaiters() {
        long used = state & USED;
        SemaphoreWaiter batch = queue.takeFitting(size - used);
        for (SemaphoreWaiter w = batch; w != null; w = w.nextInBatch()) {
            used += w.permits();
        }
        state = queue.isEmpty() ? used : used | WAITERS; // plain store: WAITERS is set, nobody else writes (I3)
        for (SemaphoreWaiter w = batch; w != null; w = w.nextInBatch()) {
            w.markGranted(); // after the store above, so a granted requester sees its permits in used()
        }
        return batch;
    }

    /**
     * Takes a still-waiting request out of the line, leaving 'used' unchanged; if it was the head, grants the
     * followers that now fit. Returns false if the request had already been granted (I6).
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
            if (wasHead) { // the new head may fit; and if the queue is now empty, this clears WAITERS (I2)
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
     * Blocks the current thread until its request for n permits is granted (true), the timeout elapses (false), or
     * it is interrupted (InterruptedException). See the class documentation for the race rules (I6).
     */
    private boolean awaitGrant(long n, boolean timed, long nanos) throws InterruptedException {
        long deadline = timed ? System.nanoTime() + nanos : 0L;
        ThreadWaiter waiter = new ThreadWaiter(n);
        if (grantOrEnqueue(waiter)) {
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
        if (!interrupted && !timedOut) {
            return true; // only this thread withdraws a ThreadWaiter, so "not waiting" here means granted
        }
        if (withdraw(waiter)) { // left the line before any grant: the semaphore is as before
            if (interrupted) {
                throw new InterruptedException();
            }
            return false;
        }
        // The grant won the race with our giving up.
        if (interrupted) {
            release(n);
            throw new InterruptedException();
        }
        return true;
    }

    // ---- helpers ----

    private void checkGrantable(long n) {
        checkNotNegative(n, "acquire");
        if (n > size) {
            throw new IllegalArgumentException("cannot acquire " + n + " permits from a semaphore of size " + size
                    + ": the request could never be granted; ask for at most size() permits");
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

        AsyncWaiter(long permits) {
            super(permits);
        }

        @Override
        public void wake() {
            if (!future.complete(new Permit(WeightedSemaphore.this, permits()))) {
                release(permits()); // the future was cancelled or completed first: give the grant back (I6)
            }
        }
    }
}
