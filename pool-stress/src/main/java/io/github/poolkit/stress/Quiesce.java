package io.github.poolkit.stress;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Waits, in a jcstress arbiter, for the background threads of a test's pool to be done, so that the arbiter reads
 * final counts rather than a snapshot of work in flight; and the actor that shuts a pool down once its task is done.
 *
 * <p>The wait is bounded: a pool that does not terminate within {@link #TIMEOUT_SECONDS} is reported as
 * {@link #STUCK}, which every test lists as a forbidden outcome, so a lost wake-up fails the run instead of hanging it.
 */
final class Quiesce {

    /** The outcome value an arbiter records when the pool did not terminate in time. */
    static final int STUCK = -1;

    /** How long an arbiter waits for anything: termination, or a task that should run. */
    static final long TIMEOUT_SECONDS = 30;

    private Quiesce() {
    }

    /**
     * Waits for {@code task} to be done, then shuts {@code pool} down and reads, at once, whether it is terminated:
     * an actor that races the worker which completed the task and is still leaving.
     *
     * @param pool the pool of one test state
     * @param task its only task
     * @return 1 if terminated when {@code shutdown()} returned, 0 if not, {@link #STUCK} if the task did not end in
     *         time (the pool is then stopped with {@code shutdownNow})
     */
    static int shutDownWhenDone(ExecutorService pool, Future<?> task) {
        return shutDownWhenAllDone(pool, task);
    }

    /**
     * {@link #shutDownWhenDone(ExecutorService, Future)} once every one of {@code tasks} is done (all within
     * {@link #TIMEOUT_SECONDS}).
     *
     * @param pool  the pool of one test state
     * @param tasks all its tasks
     * @return as {@link #shutDownWhenDone(ExecutorService, Future)}
     */
    static int shutDownWhenAllDone(ExecutorService pool, Future<?>... tasks) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
        for (Future<?> task : tasks) {
            while (!task.isDone()) {
                if (System.nanoTime() - deadline > 0) {
                    pool.shutdownNow();
                    return STUCK;
                }
                Thread.onSpinWait();
            }
        }
        pool.shutdown();
        return pool.isTerminated() ? 1 : 0;
    }

    /**
     * Shuts {@code pool} down (a no-op if an actor already did) and waits until all its workers have left.
     *
     * @param pool the pool (or scheduler) of one test state
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
     * {@link #terminate Terminates} {@code pool}, then reads how many times the test's task ran: every run has ended
     * by then, so the count is final.
     *
     * @param pool the pool of one test state (its gates already open, or the tasks would hold it past the timeout)
     * @param runs the runs of the test's task
     * @return the runs, or {@link #STUCK} if the pool did not terminate in time
     */
    static int runsAfterTermination(ExecutorService pool, Runs runs) {
        return terminate(pool) ? runs.count() : STUCK;
    }
}
