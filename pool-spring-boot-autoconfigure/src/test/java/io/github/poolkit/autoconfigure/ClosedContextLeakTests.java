package io.github.poolkit.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.github.poolkit.DelayScheduler;
import io.github.poolkit.WeightedSemaphore;
import io.github.poolkit.WorkerPool;
import io.github.poolkit.autoconfigure.actuate.PoolMetricsAutoConfiguration;

/**
 * Contexts started and closed one after another, as a test suite does: once a context is closed, nothing of poolkit
 * (its shared housekeeping threads, the meters, the listeners) keeps its pools, scheduler, semaphores or registry
 * reachable, so a long suite does not accumulate them.
 */
@Timeout(60)
class ClosedContextLeakTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
                    SimpleMetricsExportAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
                    PoolkitAutoConfiguration.class, PoolMetricsAutoConfiguration.class))
            .withPropertyValues("poolkit.pools.reports.capacity=2", "poolkit.pool.run-timeout=10s",
                    "poolkit.pool.queue-timeout=10s", "poolkit.semaphores.gpu.size=4");

    @Test
    void aClosedContextLeavesNothingReachable() {
        List<WeakReference<Object>> kept = new ArrayList<>();
        for (int round = 0; round < 3; round++) {
            runner.run(context -> {
                for (String pool : new String[] {"workerPool", "reports"}) {
                    WorkerPool bean = context.getBean(pool, WorkerPool.class);
                    CountDownLatch ran = new CountDownLatch(1);
                    bean.execute(ran::countDown);
                    assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
                    kept.add(new WeakReference<>(bean));
                }
                DelayScheduler scheduler = context.getBean(DelayScheduler.class);
                scheduler.schedule(() -> { }, 1, TimeUnit.MILLISECONDS).get(10, TimeUnit.SECONDS);
                kept.add(new WeakReference<>(scheduler));
                WeightedSemaphore gpu = context.getBean("gpu", WeightedSemaphore.class);
                gpu.acquire(1);
                gpu.release(1);
                kept.add(new WeakReference<>(gpu));
                kept.add(new WeakReference<>(context.getBean(MeterRegistry.class)));
            });
        }
        assertThat(kept).hasSize(3 * 5);
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
            System.gc();
            assertThat(kept.stream().map(WeakReference::get).filter(bean -> bean != null).map(String::valueOf))
                    .as("beans still reachable after their context closed").isEmpty();
        });
    }
}
