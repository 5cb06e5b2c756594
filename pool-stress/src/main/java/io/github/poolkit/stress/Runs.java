package io.github.poolkit.stress;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts the runs of a test's task: the task is this object itself (or calls its {@link #run()}), so an arbiter can
 * tell a task that never ran from one that ran once or twice.
 *
 * <p>Guarantees: {@link #count()} is the number of {@link #run()} calls that have returned before it (every one, once
 * the pool has terminated); {@link #awaitExpected()} waits, at most {@link Quiesce#TIMEOUT_SECONDS}, for the number
 * of runs given to the constructor, so a lost task shows as a short count instead of a hung arbiter.
 */
final class Runs implements Runnable {

    // Invariant: a run is counted before it counts the latch down, so once the latch has reached zero, count() is at
    // least the number expected.
    private final AtomicInteger count = new AtomicInteger();
    private final CountDownLatch expected;

    /** Runs of a task that is expected to run once. */
    Runs() {
        this(1);
    }

    /**
     * Runs of tasks that are expected to run {@code expected} times in all.
     *
     * @param expected how many runs {@link #awaitExpected()} waits for
     */
    Runs(int expected) {
        this.expected = new CountDownLatch(expected);
    }

    /** Counts one run. */
    @Override
    public void run() {
        count.incrementAndGet();
        expected.countDown();
    }

    /** @return the runs counted so far */
    int count() {
        return count.get();
    }

    /**
     * Waits until the expected number of runs have been counted, or {@link Quiesce#TIMEOUT_SECONDS} have passed.
     *
     * @return the runs counted by then (more than expected if a task ran twice)
     */
    int awaitExpected() {
        try {
            expected.await(Quiesce.TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return count.get();
    }
}
