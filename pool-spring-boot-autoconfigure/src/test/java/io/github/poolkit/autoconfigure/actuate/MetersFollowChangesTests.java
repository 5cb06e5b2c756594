package io.github.poolkit.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.LazyInitializationBeanFactoryPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cloud.context.environment.EnvironmentChangeEvent;
import org.springframework.core.env.MapPropertySource;

import io.github.poolkit.WorkerPool;
import io.github.poolkit.autoconfigure.PoolkitAutoConfiguration;
import io.github.poolkit.autoconfigure.refresh.PoolkitRefreshAutoConfiguration;

/**
 * The meters keep following their pool after it changed at run time (a configuration refresh, an endpoint write, a
 * stop and start of the context), and beans created lazily still get all of their meters.
 */
@Timeout(60)
class MetersFollowChangesTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
                    SimpleMetricsExportAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
                    PoolkitAutoConfiguration.class, PoolMetricsAutoConfiguration.class,
                    PoolkitRefreshAutoConfiguration.class, PoolsEndpointAutoConfiguration.class))
            .withPropertyValues("management.endpoints.web.exposure.include=pools", "poolkit.pools.reports.capacity=4",
                    "poolkit.semaphores.gpu.size=10");

    @Test
    void aRefreshAndAnEndpointWriteShowInTheMeters() {
        runner.run(context -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            assertThat(value(registry, "executor.pool.max", "reports")).isEqualTo(4);
            context.getEnvironment().getPropertySources()
                    .addFirst(new MapPropertySource("refreshed", Map.of("poolkit.pools.reports.capacity", "7")));
            context.publishEvent(new EnvironmentChangeEvent(context, Set.of("poolkit.pools.reports.capacity")));
            await().atMost(5, TimeUnit.SECONDS).until(() -> value(registry, "executor.pool.max", "reports") == 7
                    && value(registry, "poolkit.pool.capacity", "reports") == 7
                    && value(registry, "poolkit.pool.free", "reports") == 7);
            context.getBean(PoolsEndpoint.class).change("gpu", null, null, null, null, "25", null);
            await().atMost(5, TimeUnit.SECONDS).until(() -> value(registry, "poolkit.semaphore.size", "gpu") == 25
                    && value(registry, "poolkit.semaphore.available", "gpu") == 25);
        });
    }

    @Test
    void afterAStopAndStartTheMetersStillCountTheSamePool() throws Exception {
        runner.run(context -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            WorkerPool reports = context.getBean("reports", WorkerPool.class);
            context.stop();
            context.start();
            CountDownLatch ran = new CountDownLatch(1);
            reports.execute(ran::countDown);
            assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
            await().atMost(5, TimeUnit.SECONDS)
                    .until(() -> registry.get("executor").tag("name", "reports").timer().count() == 1
                            && registry.get("executor.completed").tag("name", "reports").functionCounter()
                                    .count() == 1);
            assertThat(value(registry, "executor.pool.max", "reports")).isEqualTo(4);
        });
    }

    @Test
    void withLazyInitializationEveryPoolSchedulerAndSemaphoreIsMeteredAndTimed() {
        runner.withBean(LazyInitializationBeanFactoryPostProcessor.class).run(context -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            for (String pool : new String[] {"workerPool", "reports", "delayScheduler"}) {
                assertThat(registry.find("executor.pool.max").tag("name", pool).gauge()).as(pool).isNotNull();
                assertThat(registry.find("executor").tag("name", pool).timer()).as(pool).isNotNull();
            }
            for (String semaphore : new String[] {"weightedSemaphore", "gpu"}) {
                assertThat(registry.find("poolkit.semaphore.size").tag("name", semaphore).gauge()).as(semaphore)
                        .isNotNull();
                assertThat(registry.find("poolkit.semaphore.acquire").tag("name", semaphore).timers())
                        .as(semaphore).isNotEmpty();
            }
        });
    }

    private static double value(MeterRegistry registry, String meter, String name) {
        return registry.get(meter).tag("name", name).gauge().value();
    }
}
