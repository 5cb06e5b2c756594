package io.github.poolkit;

import io.github.poolkit.MultiPool.LoadBalancing;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link LoadBalancing#LEAST_TASKS} counts idle workers as running (as ants does), so every full pool ties; among
 * those it must pick one with an idle worker, not block the caller on a pool whose workers are all busy.
 */
@Timeout(30)
class MultiPoolLeastTasksTest {

    @RepeatedTest(3)
    void onATieThePoolWithAnIdleWorkerIsPicked() throws Exception {
        MultiPool pool = MultiPool.create(2, 2, LoadBalancing.LEAST_TASKS,
                PoolOptions.builder().name("lt").disablePurge(true).build());
        CountDownLatch gate = new CountDownLatch(1);
        CountDownLatch busyStarted = new CountDownLatch(2);
        Runnable busy = () -> {
            busyStarted.countDown();
            Latches.awaitUninterruptibly(gate);
        };
        CountDownLatch pair = new CountDownLatch(2);
        Runnable together = () -> { // two at once, so that pool 1 starts two workers
            pair.countDown();
            Latches.awaitUninterruptibly(pair);
        };
        try {
            pool.execute(busy);     // pool 0 (tie 0-0, nobody idle: the first)
            pool.execute(together); // pool 1 (0 < 1)
            pool.execute(busy);     // pool 0 (tie 1-1, nobody idle: the first)
            pool.execute(together); // pool 1 (1 < 2), on a second worker
            Latches.await(busyStarted);
            await().until(() -> pool.stats().busy() == 2); // pool 1's two workers are idle, pool 0's busy
            assertThat(pool.running(0)).isEqualTo(2);
            assertThat(pool.running(1)).isEqualTo(2);

            CountDownLatch ran = new CountDownLatch(1);
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            Callers.start(() -> pool.execute(ran::countDown), thrown); // blocked on pool 0 if it picks the first
            Latches.await(ran);
            assertThat(thrown.get()).isNull();
        } finally {
            gate.countDown();
            pool.close();
        }
    }
}
