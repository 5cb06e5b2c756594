package io.github.poolkit;

import io.github.poolkit.MultiPool.LoadBalancing;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A multi-pool's {@code release()} and {@code reboot()} racing each other leave it in one state: open with every
 * sub-pool open, or closed with every sub-pool closed.
 */
@Timeout(60)
class MultiPoolLifecycleRaceTest {

    @RepeatedTest(3)
    void releaseRacingRebootLeavesTheMultiPoolAndItsSubPoolsAgreeing() throws Exception {
        int size = 32;
        MultiPool pool = MultiPool.create(size, 1, LoadBalancing.ROUND_ROBIN,
                PoolOptions.builder().name("mpr").disablePurge(true).build());
        try {
            for (int round = 0; round < 200; round++) {
                CyclicBarrier start = new CyclicBarrier(2);
                Thread releaser = new Thread(() -> {
                    await(start);
                    pool.release();
                });
                Thread rebooter = new Thread(() -> {
                    await(start);
                    pool.reboot();
                });
                releaser.start();
                rebooter.start();
                releaser.join();
                rebooter.join();
                assertAgreeing(pool, size);
                pool.reboot();
            }
        } finally {
            pool.close();
        }
    }

    /** Open: a task on every sub-pool is accepted; closed: every sub-pool terminates (none is left open). */
    private static void assertAgreeing(MultiPool pool, int size) throws InterruptedException {
        if (pool.isClosed()) {
            assertThat(pool.awaitTermination(5, TimeUnit.SECONDS)).as("a sub-pool left open by a closed multi-pool")
                    .isTrue();
            return;
        }
        AtomicInteger ran = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        for (int i = 0; i < size; i++) { // round robin: one task per sub-pool
            try {
                pool.execute(ran::incrementAndGet);
            } catch (PoolClosedException e) {
                refused.incrementAndGet();
            }
        }
        assertThat(refused).as("sub-pools closed while the multi-pool says it is open").hasValue(0);
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
