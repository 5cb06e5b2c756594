package io.github.poolkit.internal.pool;

import io.github.poolkit.PoolOptions;
import io.github.poolkit.WorkerPool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A tiny expiry is honoured without keeping the shared purge thread busy. */
@Timeout(30)
class PurgePeriodTest {

    @Test
    void aNanosecondExpiryStopsIdleWorkersWithoutSpinningThePurgeThread() throws Exception {
        try (WorkerPool pool = WorkerPool.create(2, PoolOptions.builder().name("tiny-expiry")
                .expiry(Duration.ofNanos(1)).build())) {
            assertThat(pool.submit(() -> 1).get(5, TimeUnit.SECONDS)).isEqualTo(1);
            await().until(() -> pool.running() == 0); // expired, as asked
            Thread purger = Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> t.getName().startsWith("poolkit-purger")).findFirst().orElseThrow();
            ThreadMXBean mx = ManagementFactory.getThreadMXBean();
            long before = mx.getThreadCpuTime(purger.threadId());
            long start = System.nanoTime();
            await().pollDelay(Duration.ofSeconds(1)).until(() -> true); // a wall-clock window, not a wait for a thread
            long cpu = mx.getThreadCpuTime(purger.threadId()) - before;
            long wall = System.nanoTime() - start;
            // purging every nanosecond kept it busy ~90% of the window; once a millisecond costs well under 25%
            assertThat(cpu).as("purge thread CPU %d ms in %d ms", cpu / 1_000_000, wall / 1_000_000)
                    .isLessThan(wall / 4);
        }
    }
}
