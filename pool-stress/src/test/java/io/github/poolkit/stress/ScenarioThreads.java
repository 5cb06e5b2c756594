package io.github.poolkit.stress;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The threads of a Lincheck {@code runConcurrentTest} scenario, and waiting helpers for its body, which may not throw
 * checked exceptions: an interrupt there is a broken test, so it becomes an {@link AssertionError}. Lincheck only logs
 * what a thread the scenario started throws, so {@link #start} keeps it, and {@link #join} throws it in the scenario.
 */
final class ScenarioThreads {

    private ScenarioThreads() {
    }

    /** A scenario thread (a plain {@link Thread}, as Lincheck tracks them), with what its body threw. */
    record ScenarioThread(Thread thread, AtomicReference<Throwable> failure) {
    }

    /**
     * Starts a scenario thread.
     *
     * @param body what it runs; what that throws (a failed check, an exception the pool must not throw) fails the
     *             scenario at {@link #join}
     * @return the thread, started
     */
    static ScenarioThread start(Runnable body) {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                body.run();
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        t.start();
        return new ScenarioThread(t, failure);
    }

    /**
     * Waits for a scenario thread to end, and fails the scenario with what it threw, if anything.
     *
     * @param t the thread
     */
    static void join(ScenarioThread t) {
        try {
            t.thread().join(); // untimed: under Lincheck's model checker a timed join returns at once (tried)
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        Throwable failure = t.failure().get();
        if (failure != null) {
            throw new AssertionError("a scenario thread failed: " + failure, failure);
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
