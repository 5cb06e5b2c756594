package io.github.poolkit.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.aop.framework.ProxyFactory;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.github.poolkit.Pool;
import io.github.poolkit.PoolOptions;
import io.github.poolkit.PoolStats;
import io.github.poolkit.WorkerPool;
import io.github.poolkit.autoconfigure.PoolkitAutoConfiguration;
import io.github.poolkit.autoconfigure.actuate.PoolsEndpoint.PoolDescriptor;

/**
 * A pool bean of the application's own that implements only the methods every {@link Pool} shares (its
 * {@code options()} and {@code reconfigure} throw {@link UnsupportedOperationException}): the endpoint lists and tunes
 * it, refuses an option change with a 400 naming the field, and the meters read it.
 */
@Timeout(30)
class ApplicationPoolBeanTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
                    SimpleMetricsExportAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
                    PoolkitAutoConfiguration.class, PoolsEndpointAutoConfiguration.class,
                    PoolMetricsAutoConfiguration.class))
            .withPropertyValues("management.endpoints.web.exposure.include=pools", "poolkit.semaphore.enabled=false")
            .withBean("ownPool", OwnPool.class, OwnPool::new);

    @Test
    void theEndpointListsItWithoutTheOptionsItDoesNotExpose() {
        runner.run(context -> {
            assertThat(context).hasNotFailed();
            PoolsEndpoint endpoint = context.getBean(PoolsEndpoint.class);
            assertThat(endpoint.pools().pools()).containsKey("ownPool");
            assertThat(endpoint.pool("ownPool")).isEqualTo(new PoolDescriptor(4, null, 1, 1, 0, 0, 0, 3, false, 7L,
                    2L, 0L, 0L, null, null, null, List.of(), null));
        });
    }

    @Test
    void itsCapacityIsTunedButAnOptionChangeIsRefusedWithA400() {
        runner.run(context -> {
            PoolsEndpoint endpoint = context.getBean(PoolsEndpoint.class);
            OwnPool pool = context.getBean(OwnPool.class);
            assertThat(endpoint.change("ownPool", "6", null, null, null, null).getStatus()).isEqualTo(200);
            assertThat(pool.tuned.get()).isEqualTo(6);
            WebEndpointResponse<Object> refused = endpoint.change("ownPool", null, "200ms", null, null, null);
            assertThat(refused.getStatus()).isEqualTo(400);
            EndpointProblem problem = (EndpointProblem) refused.getBody();
            assertThat(problem.field()).isEqualTo("maxWait");
            assertThat(problem.detail()).contains("does not expose its options").contains("restart");
        });
    }

    /** A capacity its own {@code tune} refuses is the caller's 400 naming the field and the pool's reason. */
    @Test
    void aCapacityItsTuneRefusesIsA400() {
        runner.run(context -> {
            PoolsEndpoint endpoint = context.getBean(PoolsEndpoint.class);
            for (String capacity : new String[] {"65", "99"}) {
                WebEndpointResponse<Object> refused = endpoint.change("ownPool", capacity, null, null, null, null);
                assertThat(refused.getStatus()).as(capacity).isEqualTo(400);
                EndpointProblem problem = (EndpointProblem) refused.getBody();
                assertThat(problem.field()).isEqualTo("capacity");
                assertThat(problem.detail()).contains(capacity.equals("65") ? "at most 64" : "restart instead");
            }
            assertThat(context.getBean(OwnPool.class).tuned.get()).as("never tuned").isZero();
        });
    }

    /** A pool that exposes its options and whose {@code tune} refuses: a refused write changes none of them. */
    @Test
    void aRefusedCapacityPutsBackTheOptionsChangedBeforeIt() {
        runner.withBean("optionsPool", OptionsPool.class, OptionsPool::new).run(context -> {
            PoolsEndpoint endpoint = context.getBean(PoolsEndpoint.class);
            OptionsPool pool = context.getBean(OptionsPool.class);
            WebEndpointResponse<Object> refused = endpoint.change("optionsPool", "65", "1s", "3", null, null);
            assertThat(refused.getStatus()).isEqualTo(400);
            assertThat(((EndpointProblem) refused.getBody()).detail()).contains("at most 64");
            assertThat(pool.options().maxWait()).as("put back").isNull();
            assertThat(pool.options().maxBlockingTasks()).as("put back").isZero();
            assertThat(endpoint.change("optionsPool", "8", "1s", null, null, null).getStatus()).isEqualTo(200);
            assertThat(pool.options().maxWait()).isEqualTo(Duration.ofSeconds(1));
        });
    }

    /**
     * A pool of the application's own whose {@code stats()} throws: its gauges show {@code NaN} and its counters keep
     * their last total (a counter that threw would fail a whole Prometheus scrape).
     */
    @Test
    void aPoolWhoseReadsThrowKeepsItsCountersTotals() {
        runner.run(context -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            assertThat(completed(registry, "ownPool")).isEqualTo(9);
            assertThat(failed(registry, "ownPool")).isEqualTo(2);
            context.getBean(OwnPool.class).broken = true;
            await().atMost(Duration.ofSeconds(10)).until(
                    () -> Double.isNaN(registry.get("executor.pool.max").tag("name", "ownPool").gauge().value()));
            assertThat(completed(registry, "ownPool")).isEqualTo(9);
            assertThat(failed(registry, "ownPool")).isEqualTo(2);
        });
    }

    /** One that cannot be read when the meters are bound does not stop start-up: its meters start from nothing. */
    @Test
    void aPoolUnreadableAtStartUpIsMeteredAllTheSame() {
        runner.withBean("brokenAtStart", OwnPool.class, () -> new OwnPool("brokenAtStart", true)).run(context -> {
            assertThat(context).hasNotFailed();
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            assertThat(registry.get("executor.pool.max").tag("name", "brokenAtStart").gauge().value()).isNaN();
            assertThat(completed(registry, "brokenAtStart")).isZero();
            context.getBean("brokenAtStart", OwnPool.class).broken = false;
            await().atMost(Duration.ofSeconds(10)).until(() -> completed(registry, "brokenAtStart") == 9);
        });
    }

    /** One of poolkit's pools behind a Spring proxy is read when sampled, as without it: a read shows a change. */
    @Test
    void aProxiedPoolkitPoolIsReadWhenSampled() {
        runner.withBean("proxied", Pool.class, () -> (Pool) new ProxyFactory(WorkerPool.create(4)).getProxy())
                .run(context -> {
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    assertThat(registry.get("poolkit.pool.capacity").tag("name", "proxied").gauge().value())
                            .isEqualTo(4);
                    context.getBean("proxied", Pool.class).tune(6);
                    assertThat(registry.get("poolkit.pool.capacity").tag("name", "proxied").gauge().value())
                            .isEqualTo(6);
                });
    }

    private static double completed(MeterRegistry registry, String pool) {
        return registry.get("executor.completed").tag("name", pool).functionCounter().count();
    }

    private static double failed(MeterRegistry registry, String pool) {
        return registry.get("poolkit.pool.tasks").tag("name", pool).tag("outcome", "failed").functionCounter().count();
    }

    @Test
    void theMetersReadItsStats() {
        runner.run(context -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            assertThat(registry.get("executor.pool.max").tag("name", "ownPool").gauge().value()).isEqualTo(4);
            assertThat(registry.get("executor.completed").tag("name", "ownPool").functionCounter().count())
                    .isEqualTo(9);
            assertThat(registry.get("executor.queue.remaining").tag("name", "ownPool").gauge().value()).isNaN();
            // It takes no listener, so its task counts come from its stats() at each read.
            assertThat(registry.get("poolkit.pool.tasks").tag("name", "ownPool").tag("outcome", "failed")
                    .functionCounter().count()).isEqualTo(2);
            assertThat(registry.find("poolkit.pool.tasks").tag("name", "ownPool").counters()).isEmpty();
            // ... and no events: no timers nor overdue counters that would read zero for ever
            for (String meter : new String[] {"executor", "executor.idle", "poolkit.pool.task.duration",
                    "poolkit.pool.task.wait", "poolkit.pool.tasks.overdue"}) {
                assertThat(registry.find(meter).tag("name", "ownPool").meters()).as(meter).isEmpty();
            }
        });
    }

    /** Exposes and changes its options; its {@code tune} refuses more than 64. */
    static final class OptionsPool implements Pool {

        private volatile PoolOptions options = PoolOptions.builder().name("optionsPool").build();

        @Override public String name() { return "optionsPool"; }
        @Override public int capacity() { return 4; }
        @Override public int running() { return 0; }
        @Override public int free() { return 4; }
        @Override public int waiting() { return 0; }
        @Override public PoolStats stats() { return new PoolStats(4, 0, 0, 0, 0, 0, 0, 0, false, 0); }
        @Override public PoolOptions options() { return options; }
        @Override public void reconfigure(PoolOptions options) { this.options = options; }
        @Override public boolean isClosed() { return false; }
        @Override public void release() { }
        @Override public void releaseTimeout(Duration timeout) { }
        @Override public void reboot() { }
        @Override public void close() { }

        @Override
        public void tune(int capacity) {
            if (capacity > 64) {
                throw new IllegalArgumentException("at most 64");
            }
        }
    }

    /** Implements the shared methods of {@link Pool} only; while {@link #broken}, its {@code stats()} throws. */
    static final class OwnPool implements Pool {

        final AtomicInteger tuned = new AtomicInteger();
        private final String name;
        volatile boolean broken;

        OwnPool() {
            this("ownPool", false);
        }

        OwnPool(String name, boolean broken) {
            this.name = name;
            this.broken = broken;
        }

        @Override public String name() { return name; }
        @Override public int capacity() { return 4; }
        @Override public int running() { return 1; }
        @Override public int free() { return 3; }
        @Override public int waiting() { return 0; }

        @Override
        public PoolStats stats() {
            if (broken) {
                throw new IllegalStateException("pool backend gone");
            }
            return new PoolStats(4, 1, 1, 0, 0, 7, 2, 0, false, 0);
        }

        @Override
        public void tune(int capacity) {
            if (capacity == 99) {
                throw new UnsupportedOperationException("its size is fixed");
            }
            if (capacity > 64) {
                throw new IllegalArgumentException("at most 64");
            }
            tuned.set(capacity);
        }

        @Override public boolean isClosed() { return false; }
        @Override public void release() { }
        @Override public void releaseTimeout(Duration timeout) { }
        @Override public void reboot() { }
        @Override public void close() { }
    }
}
