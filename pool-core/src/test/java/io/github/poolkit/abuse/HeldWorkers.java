package io.github.poolkit.abuse;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * Keeps some of a pool's workers busy until {@link #let()} is called, so that a test can fill a pool deterministically:
 * {@link #hold} returns only once every holding task is running.
 */
final class HeldWorkers {

    private final CountDownLatch running;
    private final CountDownLatch gate = new CountDownLatch(1);

    private HeldWorkers(int count) {
        this.running = new CountDownLatch(count);
    }

    /**
     * Submits {@code count} tasks that each hold a worker, and waits until all of them run.
     *
     * @param pool  where to run them
     * @param count how many workers to hold
     * @return the handle that lets them go
     */
    static HeldWorkers hold(Executor pool, int count) throws InterruptedException {
        HeldWorkers held = new HeldWorkers(count);
        for (int i = 0; i < count; i++) {
            pool.execute(held::holdUntilLet);
        }
        if (!held.running.await(10, TimeUnit.SECONDS)) {
            throw new AssertionError("the holding tasks did not start");
        }
        return held;
    }

    private void holdUntilLet() {
        running.countDown();
        try {
            gate.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Lets the held workers go. */
    void let() {
        gate.countDown();
    }
}
