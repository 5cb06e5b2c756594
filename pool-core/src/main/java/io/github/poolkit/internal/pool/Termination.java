package io.github.poolkit.internal.pool;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * Waiting for a pool to terminate: a condition of the pool's lock, signalled when the pool becomes terminated.
 * {@link #signal} is called with the lock held; {@link #await} takes it.
 */
final class Termination {

    private final ReentrantLock lock;
    private final Condition done;
    private final BooleanSupplier terminated;

    /**
     * @param lock       the pool's lock
     * @param terminated whether the pool is terminated now (read with the lock held)
     */
    Termination(ReentrantLock lock, BooleanSupplier terminated) {
        this.lock = lock;
        this.done = lock.newCondition();
        this.terminated = terminated;
    }

    /** Wakes every waiter if the pool is terminated now. Lock held. */
    void signalIfTerminated() {
        if (terminated.getAsBoolean()) {
            done.signalAll();
        }
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
            while (!terminated.getAsBoolean()) {
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
