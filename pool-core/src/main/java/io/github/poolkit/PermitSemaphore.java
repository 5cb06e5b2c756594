package io.github.poolkit;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * A weighted semaphore with strict FIFO grants, whether it lives in this JVM ({@link WeightedSemaphore}) or is shared
 * by several instances of a service. Code that injects a semaphore by this type does not change when the semaphore
 * behind it moves from one JVM to a cluster.
 *
 * <p>Every implementation keeps the same rules: a request for {@code n} permits is granted when {@code n} permits are
 * free and every earlier request has been granted or has given up (a large request is never starved); the
 * {@code tryAcquire} forms never barge past a waiter; a request that gives up (timeout, interrupt, cancelled future)
 * leaves the permits in use unchanged and lets the requests behind it that now fit go ahead; a request for more than
 * {@link #size()} fails at once; releasing more than is held is detected and changes nothing.
 *
 * <p>Memory consistency: actions in a thread before a {@link #release(long)} (or {@link Permit#close()}) happen-before
 * actions following a later successful acquire, in any form, that is granted the permits that release freed.
 */
public interface PermitSemaphore {

    /**
     * Acquires {@code n} permits, blocking until they are granted in FIFO order.
     *
     * @param n the number of permits, {@code 0 <= n <= size()}
     * @throws IllegalArgumentException if {@code n < 0} or {@code n > size()}
     * @throws InterruptedException     if interrupted on entry or while waiting; nothing is then held
     */
    void acquire(long n) throws InterruptedException;

    /**
     * Acquires {@code n} permits as {@link #acquire(long)} does and returns them as a {@link Permit} that releases
     * them once when closed (try-with-resources).
     *
     * @param n the number of permits, {@code 0 <= n <= size()}
     * @return the permit holding the {@code n} permits
     * @throws IllegalArgumentException if {@code n < 0} or {@code n > size()}
     * @throws InterruptedException     if interrupted on entry or while waiting; nothing is then held
     */
    Permit acquirePermit(long n) throws InterruptedException;

    /**
     * Requests {@code n} permits without blocking a thread while they are not free.
     *
     * @param n the number of permits, {@code 0 <= n <= size()}
     * @return a future completed with the permit when granted; cancelling it (or completing it otherwise) while the
     *         request waits withdraws the request
     * @throws IllegalArgumentException if {@code n < 0} or {@code n > size()}; a semaphore whose size lives in a
     *                                  shared store (a cluster semaphore) learns that {@code n > size()} only from the
     *                                  store's answer, and fails the future with it instead
     */
    CompletableFuture<Permit> acquireAsync(long n);

    /**
     * Acquires {@code n} permits only if they are free and nobody waits (no barging).
     *
     * @param n the number of permits, {@code >= 0}
     * @return whether the permits were acquired; {@code false} at once when {@code n > size()}
     * @throws IllegalArgumentException if {@code n < 0}
     */
    boolean tryAcquire(long n);

    /**
     * Acquires {@code n} permits, waiting at most {@code timeout} for them in FIFO order.
     *
     * @param n       the number of permits, {@code >= 0}
     * @param timeout the longest wait; zero or negative: do not wait
     * @return whether the permits were acquired; on {@code false} nothing is held and the semaphore is as before
     * @throws IllegalArgumentException if {@code n < 0}
     * @throws InterruptedException     if interrupted on entry or while waiting; nothing is then held
     */
    boolean tryAcquire(long n, Duration timeout) throws InterruptedException;

    /**
     * Acquires {@code n} permits as {@link #tryAcquire(long)} does (only if they are free and nobody waits) and returns
     * them as a {@link Permit} that releases them once when closed. Prefer it to {@code tryAcquire} and
     * {@code release}: only a {@link Permit} closed tells an adaptive semaphore how long its permits were held. The
     * default wraps {@link #tryAcquire(long)} and {@link #release(long)}.
     *
     * @param n the number of permits, {@code >= 0}
     * @return the permit holding the {@code n} permits, or {@code null} when they were not acquired (always when
     *         {@code n > size()})
     * @throws IllegalArgumentException if {@code n < 0}
     */
    default Permit tryAcquirePermit(long n) {
        return tryAcquire(n) ? Permit.of(n, Permit.NO_FENCING_TOKEN, () -> release(n)) : null;
    }

    /**
     * Acquires {@code n} permits as {@link #tryAcquirePermit(long)} does (only if they are free and nobody waits),
     * without blocking the calling thread while the answer comes: for reactive code, which must not block. The default
     * completes at once with {@code tryAcquirePermit(n)}'s answer, which never blocks for a semaphore in this JVM; a
     * semaphore shared through a store overrides it to ask the store without waiting for the reply (and says so with
     * its {@link #scope()}, so that callers such as the starter's reactive {@code @Permits} also read its figures
     * and close its permits off threads that must not block).
     *
     * @param n the number of permits, {@code >= 0}
     * @return a future completed with the permit holding the {@code n} permits, or with {@code null} when they were
     *         not acquired (always when {@code n > size()}); completed exceptionally when the semaphore could not
     *         tell (for example when a shared store does not answer in time)
     * @throws IllegalArgumentException if {@code n < 0}
     */
    default CompletableFuture<Permit> tryAcquireAsync(long n) {
        Permit permit;
        try {
            permit = tryAcquirePermit(n);
        } catch (IllegalArgumentException e) {
            throw e;
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        return CompletableFuture.completedFuture(permit);
    }

    /**
     * Acquires {@code n} permits as {@link #tryAcquire(long, Duration)} does (waiting at most {@code timeout} in FIFO
     * order) and returns them as a {@link Permit} that releases them once when closed. The default wraps
     * {@link #tryAcquire(long, Duration)} and {@link #release(long)}.
     *
     * @param n       the number of permits, {@code >= 0}
     * @param timeout the longest wait; zero or negative: do not wait
     * @return the permit holding the {@code n} permits, or {@code null} when they did not come in time (nothing is
     *         then held and the semaphore is as before)
     * @throws IllegalArgumentException if {@code n < 0}
     * @throws InterruptedException     if interrupted on entry or while waiting; nothing is then held
     */
    default Permit tryAcquirePermit(long n, Duration timeout) throws InterruptedException {
        return tryAcquire(n, timeout) ? Permit.of(n, Permit.NO_FENCING_TOKEN, () -> release(n)) : null;
    }

    /**
     * Gives back {@code n} permits, which may grant waiting requests.
     *
     * @param n the number of permits, {@code >= 0}
     * @throws IllegalArgumentException if {@code n < 0}
     * @throws IllegalStateException    if that is more than is held ("released more than held"); nothing changes
     */
    void release(long n);

    /**
     * Changes the total weight at run time. Growing grants, in FIFO order, the waiting requests that now fit;
     * shrinking below what is in use takes nothing back: new grants wait until {@code used()} fits the new size.
     * FIFO order and the no-barging rule hold throughout. A waiting request larger than the new size fails
     * with {@link IllegalArgumentException} in its caller, as it could never be granted.
     *
     * @param size the new total, {@code >= 0}
     * @throws IllegalArgumentException if {@code size < 0}
     */
    void resize(long size);

    /** {@return the total weight that may be held at once} */
    long size();

    /** {@return the permits in use; more than {@code size()} after a shrink below what was in use} */
    long used();

    /**
     * Returns the permits free now.
     *
     * @return {@code size() - used()}; negative after the size shrank below what is in use, until enough permits have
     *         been released
     */
    long available();

    /** {@return the requests waiting for their turn} */
    int waiting();

    /**
     * Reads {@link #size()}, {@link #used()} and {@link #waiting()} as of one instant, so that figures shown together
     * agree with each other; a semaphore shared through a store reads them in one round trip. The default reads them
     * one by one (not atomically); {@link WeightedSemaphore} and the cluster semaphore override it.
     *
     * @return the snapshot
     */
    default SemaphoreStats stats() {
        return new SemaphoreStats(size(), used(), waiting());
    }

    /**
     * Tells where the permits live, without reading them (so it answers even when a shared store does not).
     *
     * @return {@code "local"} (the default) when the permits live in this JVM, as a {@link WeightedSemaphore}'s;
     *         {@code "cluster"} when every instance of a service that uses the semaphore's name shares them
     */
    default String scope() {
        return "local";
    }
}
