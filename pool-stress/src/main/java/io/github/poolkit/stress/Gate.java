package io.github.poolkit.stress;

import java.util.concurrent.CountDownLatch;

/**
 * A one-shot gate that tasks wait at: a test hands its pool {@code gate::hold}, a task that holds a worker busy until
 * an actor or the arbiter {@link #open() opens} the gate.
 *
 * <p>Guarantees: once {@link #open()} has returned, every {@link #hold() wait} at the gate returns, and so does every
 * later one; a waiting thread that is interrupted (as {@code shutdownNow} interrupts workers) stops waiting at once and
 * keeps its interrupt status. Opening twice is harmless.
 */
final class Gate {

    private final CountDownLatch latch = new CountDownLatch(1);

    /** Lets every task that waits at this gate, and every later one, go on. */
    void open() {
        latch.countDown();
    }

    /** Waits until the gate is open, or until this thread is interrupted (its interrupt status is then set again). */
    void hold() {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * A task that holds its worker after it has done something, e.g. counted itself or told the test it started.
     *
     * @param first what the task does before it waits at the gate
     * @return a task that runs {@code first}, then waits at this gate
     */
    Runnable holdAfter(Runnable first) {
        return () -> {
            first.run();
            hold();
        };
    }
}
