package io.github.poolkit.internal.schedule;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The end of a {@link JobTimer}: once nothing can reach its executor through the timer any more, the executor is shut
 * down (its queued jobs still run unless {@code shutdownNow} took them) and the timer is marked done.
 *
 * <p>Invariant: {@code done} reaches zero once, after the executor's {@code shutdown} was called, and never goes back;
 * the timer is terminated exactly when it is done and the executor has terminated. The latch's count-down
 * happens-before a successful wait, so a thread that sees the timer done sees the executor shut down.
 */
final class TimerEnd {

    private final ExecutorService executor;
    private final CountDownLatch done = new CountDownLatch(1);

    TimerEnd(ExecutorService executor) {
        this.executor = executor;
    }

    /**
     * Shuts the executor down and marks the timer done. Called once the heap is empty for good and the timer thread
     * hands nothing more to the executor: by the timer thread as it exits, or earlier by a shutdown, and by each later
     * shutdown that finds nothing left to hand over (the first to finish it, or again: the executor, shut down again,
     * retires a worker that ran a job since and holds no task now, so that a caller who saw that job done finds the
     * scheduler terminated). Idempotent: both steps are.
     */
    void finish() {
        try {
            executor.shutdown();
        } finally {
            done.countDown();
        }
    }

    /** {@return whether the timer is done and the executor has terminated} */
    boolean isTerminated() {
        return done.getCount() == 0 && executor.isTerminated();
    }

    /**
     * Waits until {@link #isTerminated()}, or the timeout elapses.
     *
     * @param timeout the longest wait
     * @param unit    its unit
     * @return whether terminated
     * @throws InterruptedException if interrupted while waiting (not when terminated, or with no time to wait, as
     *                              {@code ThreadPoolExecutor}: an interrupt status on entry is then kept)
     */
    boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        long nanos = Math.max(0, unit.toNanos(timeout)); // a negative timeout is spent: no deadline that wraps round
        if (isTerminated()) { // before the latch, whose await throws on an interrupt status before it looks
            return true;
        }
        if (nanos == 0) {
            return false;
        }
        long deadline = System.nanoTime() + nanos;
        return done.await(nanos, TimeUnit.NANOSECONDS)
                && executor.awaitTermination(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
    }
}
