package io.github.poolkit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Timeout(10)
class WorkerPoolBasicsTest {

    @Test
    void runsTasksAndReusesWorkers() throws Exception {
        try (WorkerPool pool = WorkerPool.create(4)) {
            AtomicInteger ran = new AtomicInteger();
            CountDownLatch done = new CountDownLatch(1000);
            for (int i = 0; i < 1000; i++) {
                pool.execute(() -> {
                    ran.incrementAndGet();
                    done.countDown();
                });
            }
            assertThat(done.await(5, TimeUnit.SECONDS)).isTrue();
            assertThat(ran).hasValue(1000);
            assertThat(pool.running()).isBetween(1, 4);
            Future<Integer> f = pool.submit(() -> 42);
            assertThat(f.get()).isEqualTo(42);
        }
    }

    @Test
    void nullTaskIsRejectedWithNpe() {
        try (WorkerPool pool = WorkerPool.create(1)) {
            assertThatThrownBy(() -> pool.execute(null)).isInstanceOf(NullPointerException.class);
        }
    }

    @Test
    void releasedPoolRejects() throws Exception {
        WorkerPool pool = WorkerPool.create(2);
        pool.releaseTimeout(Duration.ofSeconds(5));
        assertThat(pool.isClosed()).isTrue();
        assertThat(pool.isTerminated()).isTrue();
        assertThatThrownBy(() -> pool.execute(() -> { })).isInstanceOf(PoolClosedException.class);
    }
}
