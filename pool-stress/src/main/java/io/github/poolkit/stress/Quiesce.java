package io.github.poolkit.stress;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Waits, in a jcstress arbiter, for the background threads of a test's pool to be done, so that the arbiter reads
 * final counts rather than a snapshot of work in flight.
 *
 * <p>The wait is bounded: a pool that does not terminate within {@link #TIMEOUT_SECONDS} is reported as
 * {@link #STUCK}, which every test lists as a forbidden outcome, so a lost wake-up fails the run instead of hanging it.
 */
final class Quiesce {

    /** The outcome value an arbiter records when the pool did not terminate in time. */
    static final int STUCK = -1;

    static final long TIMEOUT_SECONDS = 30;

    private Quiesce() {
    }

    /**
     * Releases {@code pool} (a no-op if an actor already did) and waits until all its workers have left.
     *
     * @param pool the pool of one test state
     * @return whether it terminated in time
     */
    static boolean terminate(ExecutorService pool) {
        pool.shutdown();
        try {
            return pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Opens {@code gate} so that the tasks waiting on it finish, then {@link #terminate terminates} {@code pool}.
     *
     * @param gate the latch the test's tasks wait on
     * @param pool the pool of one test state
     * @return whether it terminated in time
     */
    static boolean openAndTerminate(CountDownLatch gate, ExecutorService pool) {
        gate.countDown();
        return terminate(pool);
    }

    /**
     * Waits for {@code gate}, interruptibly: the body of a task that occupies a worker until the arbiter opens it (or
     * {@code shutdownNow} interrupts it).
     *
     * @param gate the latch to wait on
     */
    static void hold(CountDownLatch gate) {
        try {
            gate.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
