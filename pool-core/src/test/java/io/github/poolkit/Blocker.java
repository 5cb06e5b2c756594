package io.github.poolkit;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/** Occupies workers with tasks that wait for {@link #open()}, so tests can fill a pool deterministically. */
final class Blocker {

    private final CountDownLatch gate = new CountDownLatch(1);
    private final CountDownLatch started;
    private final CountDownLatch interrupted;

    private Blocker(int tasks) {
        this.started = new CountDownLatch(tasks);
        this.interrupted = new CountDownLatch(tasks);
    }

    /** Submits {@code tasks} blocking tasks and waits until all of them run. */
    static Blocker occupy(Executor pool, int tasks) throws InterruptedException {
        Blocker b = new Blocker(tasks);
        for (int i = 0; i < tasks; i++) {
            pool.execute(b::block);
        }
        if (!b.started.await(5, TimeUnit.SECONDS)) {
            throw new AssertionError("blocking tasks did not start");
        }
        return b;
    }

    /** A task that blocks until {@link #open()}; interruptible. */
    void block() {
        started.countDown();
        try {
            gate.await();
        } catch (InterruptedException e) {
            interrupted.countDown();
            Thread.currentThread().interrupt();
        }
    }

    /** {@return whether every blocking task was interrupted (as {@code shutdownNow} does) within the patience} */
    boolean awaitInterrupted() throws InterruptedException {
        return interrupted.await(Latches.PATIENCE_SECONDS, TimeUnit.SECONDS);
    }

    void open() {
        gate.countDown();
    }
}
