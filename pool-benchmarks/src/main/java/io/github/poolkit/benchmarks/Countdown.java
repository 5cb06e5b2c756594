package io.github.poolkit.benchmarks;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Counts the tasks of one batch as they finish and wakes the thread that waits for the batch. One instance serves one
 * waiting thread and is reused batch after batch, so counting costs no allocation per task.
 *
 * <p>Implementation overview: {@link #remaining} is the only shared state. The task that takes it to zero unparks the
 * waiter; the waiter re-reads it after every wake-up, so a stray unpark (left over from an earlier batch, or a task
 * run by the caller itself under {@code CallerRunsPolicy}) only costs one extra loop. The atomic decrement that
 * reaches zero happens-before the waiter's read of zero, so the waiter sees every finished task's effects.
 */
final class Countdown implements Runnable {

    private final AtomicInteger remaining = new AtomicInteger();
    private volatile Thread waiter;

    /**
     * Arms the countdown for a batch of {@code tasks}; call it before submitting any of them, on the thread that will
     * {@link #await()}.
     *
     * @param tasks how many tasks the batch has
     */
    void arm(int tasks) {
        waiter = Thread.currentThread();
        remaining.set(tasks);
    }

    /** The task body: counts one finished task. */
    @Override
    public void run() {
        if (remaining.decrementAndGet() == 0) {
            LockSupport.unpark(waiter);
        }
    }

    /** Blocks (parks, not interruptibly) until every task of the armed batch has run. */
    void await() {
        while (remaining.get() != 0) {
            LockSupport.park(this);
        }
    }
}
