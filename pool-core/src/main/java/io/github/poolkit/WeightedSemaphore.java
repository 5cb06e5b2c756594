package io.github.poolkit;

import static io.github.poolkit.internal.semaphore.SemaphoreErrors.checkNotNegative;
import static io.github.poolkit.internal.semaphore.SemaphoreErrors.checkSize;
import static io.github.poolkit.internal.semaphore.SemaphoreLine.USED;

import io.github.poolkit.SemaphoreListener.AcquireOutcome;
import io.github.poolkit.internal.Durations;
import io.github.poolkit.internal.PaddedLong;
import io.github.poolkit.internal.semaphore.AdaptiveSize;
import io.github.poolkit.internal.semaphore.AsyncWaiter;
import io.github.poolkit.internal.semaphore.SemaphoreErrors;
import io.github.poolkit.internal.semaphore.SemaphoreLine;
import io.github.poolkit.internal.semaphore.SemaphoreReporter;
import io.github.poolkit.internal.semaphore.ThreadWaiter;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

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
 *   <li>{@code acquire(0)} is a request like any other: it returns at once when nobody waits and no more permits are
 *       in use than the size, and otherwise waits for its turn.</li>
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
 * <h2>Adaptive size</h2>
 * A semaphore made by {@link #adaptive(AdaptiveLimit)} sizes itself: each {@link Permit} closed reports how long its
 * permits were held (and how many permits were in use) to an {@link AdaptiveLimit}, and the semaphore is
 * {@linkplain #resize(long) resized} to the limit whenever, after a sample, the two differ (so a size set by hand
 * lasts until the next permit is closed). The resize runs in the closing thread: like a
 * release, it may complete {@link #acquireAsync(long)} futures there (and run their dependent stages); closes on other
 * threads never wait for it, and once concurrent closes are done the size is the limit's latest value. Permits given
 * back with {@link #release(long)} report nothing. As with any shrink, a waiting request larger than the new size is
 * refused: keep requests within the limit's minimum. Only such a semaphore reads the clock when a permit is made and
 * closed; the others pay nothing.
 *
 * <h2>Listener</h2>
 * A {@link SemaphoreListener}, given at construction or {@linkplain #addListener added} later, hears once of every
 * settled request (granted, timed out, interrupted, cancelled, refused), with the time it waited; without one, the
 * fast paths do not read the clock.
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
     * This class keeps the state word and runs the lock-free fast paths on it. Everything that needs the lock is in
     * io.github.poolkit.internal.semaphore: SemaphoreLine (the lock, the FIFO line, grants, withdrawals, releases to
     * waiters and resizes; the word's layout; invariants I1, I2 and I4..I8), ThreadWaiter (the slow paths of acquire
     * and timed tryAcquire, and a blocked one), AsyncWaiter (a queued acquireAsync), SemaphoreReporter (the listener)
     * and SemaphoreErrors (argument checks and their messages). 'state' (used | LOCKED) and 'cap' (the highest size
     * ever set) live here; Line, below, gives SemaphoreLine access to them. 'state' sits in a PaddedLong, on cache
     * lines of its own: every acquire and release writes it, and under contention the line moves from processor to
     * processor; this object's own fields ('cap', 'line') are then read from a line that no fast path
     * writes, so that reading them costs no miss, and neither does a read of whatever was allocated next to it.
     *
     * Fast paths. acquire and both tryAcquire forms read 'state' and then 'cap', and CAS 'state'; release reads and
     * CASes 'state' only. A resize may complete between those reads and the CAS and leave 'state' exactly as the fast
     * path read it (ABA), so the fast path's check must stay true for any later 'cap'. It does because 'cap' only
     * grows and, by I7, equals 'size' whenever the CAS can succeed.
     *
     * Invariant kept here (numbered with SemaphoreLine's):
     *  I3. While LOCKED is set, 'state' changes only under the lock: the fast paths CAS from a value with LOCKED
     *      clear and so cannot succeed. Hence lock holders may write 'state' with a plain volatile store while LOCKED
     *      is set; while it is clear, everybody (lock holders included) changes 'state' by CAS.
     *
     * Racy reads: used() reads 'state' without the lock: a snapshot, never torn. The fast paths' reads are validated
     * by their CAS (and I7).
     */

    private final Line line;
    private final AdaptiveSize adaptive; // null unless made by adaptive(): one field read per Permit
    private final PaddedLong state = new PaddedLong();
    private volatile long cap;

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
        this(size, listener, null);
    }

    private WeightedSemaphore(long size, SemaphoreListener listener, AdaptiveLimit limit) {
        this.adaptive = limit == null ? null : new AdaptiveSize(limit, this);
        long initial = adaptive == null ? size : adaptive.initial();
        checkSize(initial);
        this.cap = initial;
        this.line = new Line(initial, SemaphoreReporter.of(listener, this));
    }

    /**
     * Creates a semaphore whose size follows {@code limit} (see "Adaptive size" above): it starts at
     * {@code limit.limit()} permits (at least 1), all free; each {@link Permit} of at least one permit closed feeds
     * the limit a sample (the time the permits were held, the permits in use before the release, {@code dropped =
     * false}), after which the semaphore is resized when the limit differs from the size, never below 1 (at 0 no
     * permit would ever close again to move it). Cost: the clock is read when a permit is made and closed, the
     * built-in limits take a small lock per sample, {@code resize} runs only when the limit differs from the size,
     * and once the limit has lowered the size below its highest, every operation takes the internal lock (above).
     *
     * @param limit the limit to follow, for example {@code AdaptiveLimit.gradient(1, 64)}
     * @return a new semaphore
     * @throws NullPointerException if {@code limit} is null
     */
    public static WeightedSemaphore adaptive(AdaptiveLimit limit) {
        return adaptive(limit, null);
    }

    /**
     * Creates a semaphore whose size follows {@code limit}, as {@link #adaptive(AdaptiveLimit)}, that reports every
     * settled request to {@code listener}.
     *
     * @param limit    the limit to follow
     * @param listener receives each settled request, or {@code null} for none
     * @return a new semaphore
     * @throws NullPointerException if {@code limit} is null
     */
    public static WeightedSemaphore adaptive(AdaptiveLimit limit, SemaphoreListener listener) {
        return new WeightedSemaphore(0, listener, Objects.requireNonNull(limit, "limit"));
    }

    /**
     * {@return whether the size follows an {@link AdaptiveLimit} (made by {@link #adaptive}): {@link #resize(long)}
     * then sets it only until the next {@link Permit} is closed, so a tool that sizes by hand (the starter's
     * {@code pools} endpoint) refuses to}
     */
    public boolean isAdaptive() {
        return adaptive != null;
    }

    /**
     * Adds a listener, told of every request settled from now on after the listeners before it: for a tool that meters
     * a semaphore made elsewhere (the starter's {@code poolkit.semaphore.acquire} timer). A request under way as it is
     * added may not be told to it, or be told with a wait of 0.
     *
     * @param listener the listener; fast, and must not throw (anything thrown is logged and ignored)
     * @throws NullPointerException if {@code listener} is null
     */
    public void addListener(SemaphoreListener listener) {
        line.addListener(Objects.requireNonNull(listener, "listener"));
    }

    /** Gives back a {@link Permit}'s {@code n} permits, held since {@code acquiredNanos}; a sample unless 0 permits. */
    void releasePermit(long n, long acquiredNanos) {
        if (adaptive == null || n == 0) {
            release(n);
            return;
        }
        long inUse = used();
        release(n);
        adaptive.released(System.nanoTime() - acquiredNanos, inUse, n);
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
        // other case (bad argument, interrupt, contention) goes to the slow path, which checks in the documented order.
        if (n >= 0 && !Thread.currentThread().isInterrupted() && tryAcquireFast(n)) {
            settleAtOnce(n, AcquireOutcome.ACQUIRED);
            return;
        }
        ThreadWaiter.acquire(line, n);
    }

    /**
     * {@inheritDoc} As {@link #acquire(long)}, it also throws {@link IllegalArgumentException} if the semaphore shrinks
     * below {@code n} while the request waits.
     */
    @Override
    public Permit acquirePermit(long n) throws InterruptedException {
        checkNotNegative(n, "acquirePermit"); // here, so that the message names this method rather than acquire
        acquire(n);
        return new Permit(this, n);
    }

    /**
     * Requests {@code n} permits without blocking a thread. The returned future completes with a {@link Permit} when
     * the request is granted, in FIFO order with all other requests (at once if nobody waits and {@code n} permits
     * are free).
     *
     * <p>Giving up: cancelling the future (or completing it in any other way, e.g. through {@link
     * CompletableFuture#orTimeout}) before the grant withdraws the request and leaves the permits in use unchanged; if
     * it was first in line, the requests behind it that now fit are granted at once. If the grant and the cancellation
     * race and the cancellation wins, the granted permits are released again, so none leak. If the grant wins, the
     * future holds a {@link Permit} the caller must close. Cancelling a stage derived from the future (e.g. via {@code
     * thenApply}) does not withdraw the request. If the semaphore shrinks below {@code n} while the request waits, the
     * future completes exceptionally with {@link IllegalArgumentException}.
     *
     * <p>Stages registered without an {@code Async} suffix run in the thread whose release granted the request (after
     * the releasing stage, once such grants nest 32 deep), in the caller's if granted at once, or on a virtual thread
     * of their own when a caller ahead gave up on its own time (a blocked caller whose timed wait ran out, or that
     * was interrupted before a grant; an asynchronous request ended by {@code orTimeout}, {@code completeOnTimeout}
     * or {@code complete}: the first two run on the JDK's one delay thread for all timeouts).
     *
     * @param n the number of permits, {@code 0 <= n <= size()}
     * @return a future completed with the granted permits
     * @throws IllegalArgumentException if {@code n < 0} or {@code n > size()}, thrown at once (rather than returned as
     *     a failed future) to match {@link #acquire(long)}: it is a programming error, not an outcome
     */
    @Override
    public CompletableFuture<Permit> acquireAsync(long n) {
        line.checkGrantable(n, "acquireAsync");
        if (tryAcquireFast(n)) {
            settleAtOnce(n, AcquireOutcome.ACQUIRED);
            return CompletableFuture.completedFuture(new Permit(this, n));
        }
        return AsyncWaiter.request(line, n);
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
        boolean acquired = tryAcquireFast(n) || line.tryAcquireLocked(n);
        settleAtOnce(n, acquired ? AcquireOutcome.ACQUIRED : AcquireOutcome.REJECTED);
        return acquired;
    }

    /**
     * Acquires {@code n} permits, waiting in FIFO order for at most {@code timeout}. A zero or negative timeout makes
     * this one try, as {@link #tryAcquire(long)}, yet interruptible (an interrupt on entry throws, unless
     * {@code n > size()}).
     *
     * <p>On timeout the request leaves the line and the permits in use are unchanged; if it was first in line, the
     * requests behind it that now fit are granted at once. A grant that races with the timeout and wins is kept: the
     * method then returns {@code true}.
     *
     * @param n the number of permits, {@code >= 0}
     * @param timeout how long to wait at most
     * @return {@code true} if the permits were acquired; {@code false} on timeout, and at once if {@code n > size()}
     * @throws IllegalArgumentException if {@code n < 0}, or if the semaphore shrinks below {@code n} during the call
     *     (after its check of the size: the request could then never be granted)
     * @throws NullPointerException if {@code timeout} is null
     * @throws InterruptedException if the thread is interrupted on entry or while waiting; the caller then holds none
     *     of the permits (see {@link #acquire(long)})
     */
    @Override
    public boolean tryAcquire(long n, Duration timeout) throws InterruptedException {
        checkNotNegative(n, "tryAcquire");
        Objects.requireNonNull(timeout, "timeout must not be null; use Duration.ZERO not to wait");
        return ThreadWaiter.tryAcquire(line, n, Durations.toNanosSaturated(timeout));
    }

    /** {@inheritDoc} Here the permit is the semaphore's own: on an adaptive one, closing it reports the hold time. */
    @Override
    public Permit tryAcquirePermit(long n) {
        return tryAcquire(n) ? new Permit(this, n) : null;
    }

    /** {@inheritDoc} Here the permit is the semaphore's own: on an adaptive one, closing it reports the hold time. */
    @Override
    public Permit tryAcquirePermit(long n, Duration timeout) throws InterruptedException {
        return tryAcquire(n, timeout) ? new Permit(this, n) : null;
    }

    /**
     * Releases {@code n} permits, then grants waiting requests from the head of the line, in order, while they fit
     * (stopping at the first that does not). Never waits for long (it may briefly take the internal lock when
     * somebody waits), but completes the futures of the {@code acquireAsync} requests it grants, running their
     * dependent stages here. Any thread may release.
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
            long s = state.get();
            if (s < 0) { // LOCKED: only under the lock (I3), and waiters may now fit (I4)
                line.releaseLocked(n);
                return;
            }
            if (n > s) {
                throw SemaphoreErrors.releasedMoreThanHeld(n, s, line.size());
            }
            if (state.compareAndSet(s, s - n)) {
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
        line.resize(newSize);
    }

    /** {@return the permits this semaphore holds in all, {@code >= 0}: the size given last, or at construction} */
    @Override
    public long size() {
        return line.size();
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
        return state.get() & USED;
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
        return line.available();
    }

    /**
     * {@return the requests waiting in line (blocked threads and pending {@link #acquireAsync} futures), a snapshot}
     */
    @Override
    public int waiting() {
        return line.waiting();
    }

    /** {@return size, used and waiting as of one instant: read under the lock, the permits in use read once} */
    @Override
    public SemaphoreStats stats() {
        return line.stats();
    }

    /** {@return this semaphore for logs, from racy snapshots: {@code WeightedSemaphore[size=10, used=4, waiting=2]}} */
    @Override
    public String toString() {
        return "WeightedSemaphore[size=" + line.size() + ", used=" + used() + ", waiting=" + waiting() + "]";
    }

    // ---- fast paths (no lock, no allocation) ----

    /** Takes n permits by CAS if the lock is not needed and they fit (I5a, I7); false otherwise. */
    private boolean tryAcquireFast(long n) {
        for (;;) {
            long s = state.get();
            if (s < 0 || n > cap - s) { // lock needed, or not enough free (s == used and cap == size here)
                return false;
            }
            if (state.compareAndSet(s, s + n)) {
                return true;
            }
        }
    }

    // ---- listener ----

    /** Reports a request settled without waiting; costs one field read when there is no listener. */
    private void settleAtOnce(long n, AcquireOutcome outcome) {
        SemaphoreReporter.settle(line.reporter(), n, 0L, outcome);
    }


    /** This semaphore's SemaphoreLine, with access to its state word and high mark. */
    private final class Line extends SemaphoreLine {

        Line(long size, SemaphoreReporter reporter) {
            super(size, WeightedSemaphore.this, reporter);
        }

        @Override
        protected long getState() {
            return state.get();
        }

        @Override
        protected void setState(long next) {
            state.set(next);
        }

        @Override
        protected boolean compareAndSetState(long expected, long next) {
            return state.compareAndSet(expected, next);
        }

        @Override
        protected long getCap() {
            return cap;
        }

        @Override
        protected void setCap(long next) {
            cap = next;
        }

        @Override
        protected boolean tryAcquireFast(long n) {
            return WeightedSemaphore.this.tryAcquireFast(n);
        }

        @Override
        protected void giveBack(long n) {
            release(n);
        }

        @Override
        protected Permit permit(long n) {
            return new Permit(WeightedSemaphore.this, n);
        }
    }
}
