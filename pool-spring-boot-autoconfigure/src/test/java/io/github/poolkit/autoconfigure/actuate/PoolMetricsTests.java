package io.github.poolkit.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.github.poolkit.PoolOptions;
import io.github.poolkit.PoolOverloadException;
import io.github.poolkit.WeightedSemaphore;
import io.github.poolkit.WorkerPool;
import io.github.poolkit.autoconfigure.PoolTaskListeners;
import io.github.poolkit.autoconfigure.PoolkitAutoConfiguration;

/** Micrometer gauges, the task counter by outcome and the task timers. */
@Timeout(30)
class PoolMetricsTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
                    SimpleMetricsExportAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
                    PoolkitAutoConfiguration.class, PoolMetricsAutoConfiguration.class))
            .withPropertyValues("poolkit.semaphore.enabled=false", "poolkit.scheduler.enabled=false",
                    "poolkit.pools.reports.capacity=4", "poolkit.pools.tight.capacity=1",
                    "poolkit.pools.tight.nonblocking=true");

    @Test
    void gaugesFollowThePools() {
        runner.run(context -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            WorkerPool tight = context.getBean("tight", WorkerPool.class);
            assertThat(gauge(registry, "poolkit.pool.capacity", "tight")).isEqualTo(1);
            assertThat(gauge(registry, "poolkit.pool.capacity", "workerPool")).isEqualTo(256);
            assertThat(gauge(registry, "poolkit.pool.running", "tight")).isZero();
            assertThat(gauge(registry, "poolkit.pool.free", "tight")).isEqualTo(1);
            CountDownLatch release = new CountDownLatch(1);
            tight.execute(() -> waitFor(release));
            assertThat(gauge(registry, "poolkit.pool.running", "tight")).isEqualTo(1);
            assertThat(gauge(registry, "poolkit.pool.free", "tight")).isZero();
            assertThat(gauge(registry, "poolkit.pool.waiting", "tight")).isZero();
            release.countDown();
        });
    }

    @Test
    void tasksAreCountedByOutcomeAndTimed() {
        runner.run(context -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            WorkerPool reports = context.getBean("reports", WorkerPool.class);
            reports.execute(() -> { });
            await().atMost(10, TimeUnit.SECONDS).until(() -> tasks(registry, "completed") == 1);
            reports.execute(() -> {
                throw new IllegalStateException("expected by the test");
            });
            await().atMost(10, TimeUnit.SECONDS).until(() -> tasks(registry, "failed") == 1);
            reports.execute(() -> { });
            await().atMost(10, TimeUnit.SECONDS).until(() -> tasks(registry, "completed") == 2);
            assertThat(tasks(registry, "failed")).isEqualTo(1);
            assertThat(tasks(registry, "rejected")).isZero();
            assertThat(registry.get("poolkit.pool.task.duration").tag("name", "reports").timer().count())
                    .isEqualTo(3);
            assertThat(registry.get("poolkit.pool.task.wait").tag("name", "reports").timer().count()).isEqualTo(3);
            assertThat(registry.get("poolkit.pool.tasks").tag("name", "workerPool").tag("outcome", "completed")
                    .counter().count()).isZero();
        });
    }

    @Test
    void refusedTasksAreCountedAsRejected() {
        runner.run(context -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            WorkerPool tight = context.getBean("tight", WorkerPool.class);
            CountDownLatch release = new CountDownLatch(1);
            tight.execute(() -> waitFor(release));
            assertThatThrownBy(() -> tight.execute(() -> { })).isInstanceOf(PoolOverloadException.class);
            assertThat(registry.get("poolkit.pool.tasks").tag("name", "tight").tag("outcome", "rejected").counter()
                    .count()).isEqualTo(1);
            release.countDown();
        });
    }

    @Test
    void semaphoreGaugesAndNoTaskMetersForPoolsPoolkitDidNotCreate() throws Exception {
        WeightedSemaphore semaphore = new WeightedSemaphore(10);
        semaphore.acquire(4);
        WorkerPool foreign = WorkerPool.create(2, PoolOptions.builder().name("foreign").build());
        try {
            MeterRegistry registry = new SimpleMeterRegistry();
            new PoolMetrics(Map.of("foreign", foreign), Map.of("gpu-memory", semaphore),
                    new PoolTaskListeners()).bindTo(registry);
            assertThat(gauge(registry, "poolkit.semaphore.size", "gpu-memory")).isEqualTo(10);
            assertThat(gauge(registry, "poolkit.semaphore.used", "gpu-memory")).isEqualTo(4);
            assertThat(gauge(registry, "poolkit.semaphore.available", "gpu-memory")).isEqualTo(6);
            assertThat(gauge(registry, "poolkit.semaphore.waiting", "gpu-memory")).isZero();
            assertThat(gauge(registry, "poolkit.pool.capacity", "foreign")).isEqualTo(2);
            assertThat(registry.find("poolkit.pool.tasks").counters()).isEmpty();
        }
        finally {
            foreign.release();
        }
    }

    private static double gauge(MeterRegistry registry, String name, String bean) {
        return registry.get(name).tag("name", bean).gauge().value();
    }

    private static double tasks(MeterRegistry registry, String outcome) {
        return registry.get("poolkit.pool.tasks").tag("name", "reports").tag("outcome", outcome).counter().count();
    }

    private static void waitFor(CountDownLatch latch) {
        try {
            latch.await(20, TimeUnit.SECONDS);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }
}
