package io.github.poolkit;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Waiting on a latch inside a task or a test, bounded so that a lost wake-up fails the test instead of hanging it. */
final class Latches {

    /** How long a test waits for something that should happen at once. */
    static final long PATIENCE_SECONDS = 10;

    private Latches() {
    }

    /**
     * Waits for {@code latch}, at most {@link #PATIENCE_SECONDS}.
     *
     * @param latch the latch
     * @throws AssertionError if it is not released in time, or the wait is interrupted (the interrupt status is kept)
     */
    static void await(CountDownLatch latch) {
        try {
            if (!latch.await(PATIENCE_SECONDS, TimeUnit.SECONDS)) {
                throw new AssertionError("latch not released in time");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /**
     * Waits for {@code latch}, at most {@link #PATIENCE_SECONDS}, through interrupts (restoring the status after).
     *
     * @param latch the latch
     * @throws AssertionError if it is not released in time
     */
    static void awaitUninterruptibly(CountDownLatch latch) {
        boolean interrupted = false;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(PATIENCE_SECONDS);
        try {
            while (latch.getCount() > 0) {
                try {
                    if (latch.await(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                        return;
                    }
                    throw new AssertionError("latch not released in time");
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
