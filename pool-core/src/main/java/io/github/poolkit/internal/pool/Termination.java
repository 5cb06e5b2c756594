package io.github.poolkit.internal.pool;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * Whether a pool has terminated, and waiting for it to: a flag latched, and a condition of the pool's lock signalled,
 * when the pool is found terminated ({@link #signalIfTerminated}, called under the lock wherever the pool may have
 * become so).
 *
 * <p>Invariant: once latched, {@link #reached} stays true until {@link #reopened} (a reboot), so the pool is seen
 * terminated monotonically, as {@code ExecutorService} requires, even when the condition itself is false again for an
 * instant: an appender that saw the pool open before it closed may append after it terminated, then sees it closed
 * and withdraws its task (the queue is not empty meanwhile). Every step that can make the pool terminated is under the
 * lock and calls {@link #signalIfTerminated} (retiring a worker, closing the pool, a withdrawn append, an unpooled
 * worker giving back its place in a closed pool), so the flag is latched as soon as the condition holds.
 */
final class Termination {

    private final ReentrantLock lock;
    private final Condition done;
    private final BooleanSupplier terminated;
    /** Whether the pool has terminated (and not been reopened since); written under the lock, read anywhere. */
    private volatile boolean reached;

    /**
     * @param lock       the pool's lock
     * @param terminated whether the pool is terminated now (read with the lock held)
     */
    Termination(ReentrantLock lock, BooleanSupplier terminated) {
        this.lock = lock;
        this.done = lock.newCondition();
        this.terminated = terminated;
    }

    /** Latches termination and wakes every waiter if the pool is terminated now. Lock held. */
    void signalIfTerminated() {
        if (!reached && terminated.getAsBoolean()) {
            reached = true;
            done.signalAll();
        }
    }

    /** The pool was reopened: it is not terminated any more. Lock held. */
    void reopened() {
        reached = false;
    }

    /** {@return whether the pool has terminated (and not been reopened since); any thread} */
    boolean reached() {
        return reached;
    }

    /**
     * Waits until the pool is terminated.
     *
     * @return whether it terminated in time
     * @throws InterruptedException if interrupted while waiting
     */
    boolean await(long timeout, TimeUnit unit) throws InterruptedException {
        long nanos = unit.toNanos(timeout);
        lock.lock();
        try {
            while (!reached) {
                if (nanos <= 0) {
                    return false;
                }
                nanos = done.awaitNanos(nanos);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }
}
