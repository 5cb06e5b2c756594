package io.github.poolkit.stress;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Waiting helpers for the body of a Lincheck {@code runConcurrentTest} scenario, which may not throw checked
 * exceptions: an interrupt there is a broken test, so it becomes an {@link AssertionError}.
 */
final class ScenarioThreads {

    private ScenarioThreads() {
    }

    /**
     * Waits for a scenario thread to end.
     *
     * @param t the thread
     */
    static void join(Thread t) {
        try {
            t.join();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * Waits up to 10 seconds for a released pool to terminate.
     *
     * @param pool the pool
     * @return whether it terminated in time
     */
    static boolean awaitTermination(ExecutorService pool) {
        try {
            return pool.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}
