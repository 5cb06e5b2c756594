package io.github.poolkit.internal.semaphore;

import io.github.poolkit.SemaphoreListener.AcquireOutcome;
import io.github.poolkit.internal.Spin;
import java.util.concurrent.locks.LockSupport;

/**
 * A thread blocked in a {@code WeightedSemaphore}'s {@code acquire} or timed {@code tryAcquire} until its request is
 * granted, times out, is interrupted or is refused by a shrink; woken by unparking it. Also the slow paths of those
 * two calls, which end here: what happens after their lock-free fast path did not grant. Internal; not part of
 * poolkit's API.
 */
public final class ThreadWaiter extends SemaphoreWaiter {

    /*
     * Implementation overview.
     * The requester polls its waiter's volatile status without the lock, and only withdraw (under the lock) acts on
     * WAITING. Only this thread withdraws a ThreadWaiter, so once withdraw fails, somebody else settled it: granted
     * (I6 in SemaphoreLine: then the permits are kept, or released again if the thread was interrupted) or refused.
     */

    /** Spins before parking to wait (see Spin for when they are allowed): a grant often comes within that time. */
    private static final int SPINS = 256;

    private final Thread thread = Thread.currentThread();

    private ThreadWaiter(long permits) {
        super(permits);
    }

    @Override
    public void wake() {
        LockSupport.unpark(thread);
    }

    @Override
    boolean wakeRunsCallersCode() {
        return false;
    }

    /**
     * A blocking acquire that the lock-free fast path did not grant: the argument checks, then the interrupt, then
     * one more fast try, then the line.
     *
     * @param line the semaphore's line
     * @param n    the permits requested
     * @throws IllegalArgumentException if {@code n < 0} or {@code n > size}, also when the semaphore shrinks below
     *                                  {@code n} while the request waits
     * @throws InterruptedException     if the thread is interrupted on entry or while waiting (it then holds none of
     *                                  the permits)
     */
    public static void acquire(SemaphoreLine line, long n) throws InterruptedException {
        line.checkGrantable(n, "acquire");
        if (Thread.interrupted()) {
            SemaphoreReporter.settle(line.reporter, n, 0L, AcquireOutcome.INTERRUPTED);
            throw new InterruptedException();
        }
        if (line.tryAcquireFast(n)) {
            SemaphoreReporter.settle(line.reporter, n, 0L, AcquireOutcome.ACQUIRED);
        } else {
            await(line, n);
        }
    }

    /**
     * A timed tryAcquire: refused at once if {@code n > size}; then the interrupt, a fast try, and the line for at
     * most {@code nanos} (a zero or negative wait tries once under the lock).
     *
     * @param line  the semaphore's line
     * @param n     the permits requested, {@code >= 0}
     * @param nanos how long to wait at most
     * @return {@code true} if granted, {@code false} if refused or timed out
     * @throws InterruptedException     if the thread is interrupted on entry or while waiting (it then holds none of
     *                                  the permits)
     * @throws IllegalArgumentException if the semaphore shrinks below {@code n} while the request waits
     */
    public static boolean tryAcquire(SemaphoreLine line, long n, long nanos) throws InterruptedException {
        if (n > line.size()) {
            SemaphoreReporter.settle(line.reporter, n, 0L, AcquireOutcome.REJECTED);
            return false;
        }
        if (Thread.interrupted()) {
            SemaphoreReporter.settle(line.reporter, n, 0L, AcquireOutcome.INTERRUPTED);
            throw new InterruptedException();
        }
        if (line.tryAcquireFast(n)) {
            SemaphoreReporter.settle(line.reporter, n, 0L, AcquireOutcome.ACQUIRED);
            return true;
        }
        if (nanos <= 0) {
            boolean acquired = line.tryAcquireLocked(n);
            SemaphoreReporter.settle(line.reporter, n, 0L,
                    acquired ? AcquireOutcome.ACQUIRED : AcquireOutcome.REJECTED);
            return acquired;
        }
        return awaitNanos(line, n, nanos);
    }

    /**
     * Blocks the current thread until its request for {@code n} permits is granted.
     *
     * @param line the semaphore's line
     * @param n    the permits requested, {@code 0 <= n <= size}
     * @throws InterruptedException     if the thread is interrupted while waiting (it then holds none of the permits)
     * @throws IllegalArgumentException if the semaphore shrinks below {@code n} meanwhile
     */
    public static void await(SemaphoreLine line, long n) throws InterruptedException {
        await(line, n, false, 0L);
    }

    /**
     * Blocks the current thread until its request for {@code n} permits is granted or {@code nanos} have elapsed. A
     * grant that races with the timeout and wins is kept.
     *
     * @param line  the semaphore's line
     * @param n     the permits requested, {@code 0 <= n <= size}
     * @param nanos how long to wait at most, {@code > 0}
     * @return {@code true} if granted, {@code false} on timeout
     * @throws InterruptedException     if the thread is interrupted while waiting (it then holds none of the permits)
     * @throws IllegalArgumentException if the semaphore shrinks below {@code n} meanwhile
     */
    public static boolean awaitNanos(SemaphoreLine line, long n, long nanos) throws InterruptedException {
        return await(line, n, true, nanos);
    }

    private static boolean await(SemaphoreLine line, long n, boolean timed, long nanos) throws InterruptedException {
        SemaphoreReporter reporter = line.reporter;
        long since = SemaphoreReporter.clock(reporter);
        long deadline = timed ? System.nanoTime() + nanos : 0L;
        ThreadWaiter waiter = new ThreadWaiter(n);
        if (line.grantOrEnqueue(waiter, since)) {
            SemaphoreReporter.settle(reporter, n, since, AcquireOutcome.ACQUIRED);
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
                LockSupport.park(line.semaphore);
            } else {
                LockSupport.parkNanos(line.semaphore, remaining);
            }
        }
        // left the line before any grant: as before; the stages of the requests that lets through run elsewhere, so
        // that they never delay this caller's return past its timeout
        if ((interrupted || timedOut) && line.withdraw(waiter, true)) {
            SemaphoreReporter.settle(reporter, n, since,
                    interrupted ? AcquireOutcome.INTERRUPTED : AcquireOutcome.TIMEOUT);
            if (interrupted) {
                throw new InterruptedException();
            }
            return false;
        }
        // Settled by somebody else: granted or refused, maybe racing with our giving up.
        if (waiter.isRefused()) {
            SemaphoreReporter.settle(reporter, n, since, AcquireOutcome.REJECTED);
            if (interrupted) {
                Thread.currentThread().interrupt(); // not ours to swallow: the refusal is what we report
            }
            throw SemaphoreErrors.tooLarge(n, line.size());
        }
        if (interrupted) { // the grant won the race with the interrupt: give the permits back
            line.giveBack(n);
            SemaphoreReporter.settle(reporter, n, since, AcquireOutcome.INTERRUPTED);
            throw new InterruptedException();
        }
        SemaphoreReporter.settle(reporter, n, since, AcquireOutcome.ACQUIRED);
        return true;
    }
}
