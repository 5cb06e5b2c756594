package io.github.poolkit.internal.schedule;

import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * The threads waiting in a {@link ScheduledJob}'s {@code get}: a lock and a condition, made when the first one comes
 * (most jobs never have a waiter). Invariant: the job leaves its pending state before it calls {@link #signalAll}, and
 * a waiter reads that state under the lock before it waits, so no signal is missed.
 */
final class JobWaiters {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition done = lock.newCondition();

    /** Wakes every waiter; called once the job is done. */
    void signalAll() {
        lock.lock();
        try {
            done.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits while {@code pending} holds.
     *
     * @param pending whether the job is not done yet (read under the lock)
     * @param timed   whether {@code nanos} bounds the wait
     * @param nanos   the longest wait, if timed
     * @throws InterruptedException if interrupted while waiting
     * @throws TimeoutException     if timed and the job was still pending after {@code nanos}
     */
    void await(BooleanSupplier pending, boolean timed, long nanos) throws InterruptedException, TimeoutException {
        long deadlineNanos = timed ? System.nanoTime() + nanos : 0L;
        lock.lockInterruptibly();
        try {
            while (pending.getAsBoolean()) {
                if (!timed) {
                    done.await();
                } else {
                    long left = deadlineNanos - System.nanoTime();
                    if (left <= 0L) {
                        throw new TimeoutException("job not done within " + nanos + "ns");
                    }
                    done.awaitNanos(left);
                }
            }
        } finally {
            lock.unlock();
        }
    }
}
