package io.github.poolkit.sample.jobs;

import java.time.Duration;

/**
 * Stands in for real I/O (a database query, a call to another service): the calling thread sleeps for the given
 * time. A worker interrupted while sleeping (the application is shutting down) stops early and keeps its interrupt
 * status, as well-behaved tasks do.
 */
public final class SimulatedWork {

    private SimulatedWork() {
    }

    /**
     * Sleeps for {@code duration}, or until interrupted.
     *
     * @param duration how long the simulated I/O takes
     * @return {@code true} if the work ran to the end, {@code false} if it was interrupted
     */
    public static boolean perform(Duration duration) {
        try {
            Thread.sleep(duration);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
