package io.github.poolkit.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.support.GenericApplicationContext;

import io.github.poolkit.DelayScheduler;
import io.github.poolkit.FuncPool;
import io.github.poolkit.MultiPool;
import io.github.poolkit.PermitSemaphore;
import io.github.poolkit.PoolOptions;
import io.github.poolkit.PoolOverloadException;
import io.github.poolkit.SemaphoreListener.AcquireOutcome;
import io.github.poolkit.WeightedSemaphore;
import io.github.poolkit.WorkerPool;
import io.github.poolkit.autoconfigure.PoolkitAutoConfiguration;

/**
 * Micrometer's executor meters and poolkit's own, in a real {@link SimpleMeterRegistry}, for the pools poolkit makes,
 * for pools of every kind the application makes itself, and for the scheduler.
 */
@Timeout(30)
class PoolMetricsTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
                    SimpleMetricsExportAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
                    PoolkitAutoConfiguration.class, PoolMetricsAutoConfiguration.class))
            .withPropertyValues("poolkit.pools.reports.capacity=4", "poolkit.pools.tight.capacity=1",
                    "poolkit.pools.tight.nonblocking=true", "poolkit.pools.queued.capacity=1",
                    "poolkit.pools.queued.queue-capacity=2", "poolkit.pool.capacity=0");

    @Test
    void aRegistryThatOutlivesTheContextDoesNotKeepItsPoolsAlive() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        List<WeakReference<Object>> beans = new ArrayList<>();
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
                        PoolkitAutoConfiguration.class, PoolMetricsAutoConfiguration.class))
                .withBean(MeterRegistry.class, () -> registry)
                .withPropertyValues("poolkit.pools.queued.capacity=1", "poolkit.pools.queued.queue-capacity=2")
                .run(context -> {
                    assertThat(value(registry, "executor.queue.remaining", "queued")).isEqualTo(2);
                    assertThat(value(registry, "executor.queue.remaining", "workerPool")).isZero();
                    beans.add(new WeakReference<>(context.getBean("queued")));
                    beans.add(new WeakReference<>(context.getBean("workerPool")));
                    beans.add(new WeakReference<>(context.getBean("delayScheduler")));
                });

        await().atMost(Duration.ofSeconds(20)).until(() -> {
            System.gc();
            return beans.stream().allMatch(bean -> bean.get() == null);
        });
        assertThat(registry.get("executor.queue.remaining").tag("name", "queued").gauge().value()).isNaN();
    }

    @Test
    void executorGaugesFollowEveryPoolAndTheScheduler() {
        runner.run(context -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            assertThat(value(registry, "executor.pool.max", "reports")).isEqualTo(4);
            assertThat(value(registry, "executor.pool.max", "workerPool")).isEqualTo(Integer.MAX_VALUE);
            assertThat(value(registry, "poolkit.pool.capacity", "workerPool")).isEqualTo(-1);
            assertThat(value(registry, "executor.pool.max", "delayScheduler")).isEqualTo(4);
            assertThat(value(registry, "executor.queue.remaining", "reports")).isZero();
            assertThat(value(registry, "executor.queue.remaining", "queued")).isEqualTo(2);
            assertThat(value(registry, "executor.queue.remaining", "delayScheduler")).isEqualTo(Integer.MAX_VALUE);
            assertThat(value(registry, "executor.active", "delayScheduler")).isZero();
            assertThat(value(registry, "executor.delayed", "delayScheduler")).isZero();
            assertThat(value(registry, "poolkit.scheduler.pending", "delayScheduler")).isZero();
            assertThat(registry.get("executor.active").tag("name", "reports").gauge().getId().getBaseUnit())
                    .isEqualTo("threads");
            assertThat(registry.get("executor.queued").tag("name", "reports").gauge().getId().getBaseUnit())
                    .isEqualTo("tasks");
            assertThat(registry.get("executor.completed").tag("name", "reports").functionCounter().getId()
                    .getType()).isEqualTo(Meter.Type.COUNTER);
            System.gc();
            assertThat(value(registry, "executor.pool.max", "reports")).as("its reader survives GC").isEqualTo(4);
            assertThat(registry.get("executor.completed").tag("name", "reports").functionCounter().count())
                    .isNotNaN();
        });
    }

    /**
     * A gauge read right after a change shows it, however soon after an earlier read: a test, a dashboard refresh or
     * a second scrape never sees the figures from before a {@code tune}, a task start or end, or an acquire.
     */
    @Test
    void metersShowAChangeAtOnce() throws Exception {
        runner.withPropertyValues("poolkit.semaphores.gpu.size=10").run(context -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            WorkerPool reports = context.getBean("reports", WorkerPool.class);
            assertThat(value(registry, "poolkit.pool.capacity", "reports")).isEqualTo(4);
            reports.tune(6);
            assertThat(value(registry, "poolkit.pool.capacity", "reports")).isEqualTo(6);
            assertThat(value(registry, "executor.pool.max", "reports")).isEqualTo(6);
            assertThat(value(registry, "executor.active", "reports")).isZero();
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            reports.execute(() -> {
                started.countDown();
                awaitQuietly(release);
            });
            assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(value(registry, "executor.active", "reports")).isOne();
            assertThat(value(registry, "poolkit.pool.busy", "reports")).isOne();
            double finished = registry.get("executor.completed").tag("name", "reports").functionCounter().count();
            release.countDown();
            reports.submit(() -> { }).get(10, TimeUnit.SECONDS);
            await().atMost(Duration.ofSeconds(10)).until(() -> reports.stats().completed() == finished + 2);
            assertThat(registry.get("executor.completed").tag("name", "reports").functionCounter().count())
                    .isEqualTo(finished + 2);
            WeightedSemaphore gpu = context.getBean("gpu", WeightedSemaphore.class);
            assertThat(value(registry, "poolkit.semaphore.used", "gpu")).isZero();
            gpu.acquire(4);
            assertThat(value(registry, "poolkit.semaphore.used", "gpu")).isEqualTo(4);
        });
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * One pool under two bean names (the application's {@code @Bean} handing poolkit's pool on as an
     * {@code Executor}) is metered once, under its own name, although the other one comes first in alphabetical
     * order: meters under both names counted each task twice in a sum over {@code name}.
     */
    @Test
    void aPoolUnderTwoBeanNamesIsMeteredOnceUnderItsOwnName() {
        runner.withUserConfiguration(ReportsAsExecutor.class).run(context -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            WorkerPool reports = context.getBean("reports", WorkerPool.class);
            assertThat(context.getBean("aReportsExecutor")).isSameAs(reports);
            reports.submit(() -> { }).get(10, TimeUnit.SECONDS);
            assertThat(registry.find("poolkit.pool.tasks").tag("name", "aReportsExecutor").meters()).isEmpty();
            assertThat(registry.find("executor").tag("name", "aReportsExecutor").meters()).isEmpty();
            assertThat(registry.find("executor.pool.max").tag("name", "aReportsExecutor").meters()).isEmpty();
            assertThat(registry.get("poolkit.pool.tasks").tag("name", "reports").tag("outcome", "completed")
                    .counter().count()).isEqualTo(1);
            assertThat(registry.get("executor").tag("name", "reports").timer().count()).isEqualTo(1);
        });
    }

    /** Hands poolkit's pool {@code reports} on under a second bean name. */
    @org.springframework.context.annotation.Configuration(proxyBeanMethods = false)
    static class ReportsAsExecutor {

        @org.springframework.context.annotation.Bean
        java.util.concurrent.Executor aReportsExecutor(
                @org.springframework.beans.factory.annotation.Qualifier("reports") WorkerPool reports) {
            return reports;
        }
    }

    @Test
    void busyQueuedAndBlockedAreMeasuredApart() {
        runner.run(context -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            WorkerPool queued = context.getBean("queued", WorkerPool.class);
            CountDownLatch release = new CountDownLatch(1);
            queued.execute(() -> waitFor(release));
            queued.execute(() -> { });
            Thread blocked = Thread.ofPlatform().start(() -> {
                queued.execute(() -> { });
                queued.execute(() -> { });
            });
            try {
                await().atMost(10, TimeUnit.SECONDS)
                        .until(() -> value(registry, "poolkit.pool.blocked", "queued") == 1);
                assertThat(value(registry, "executor.active", "queued")).isEqualTo(1);
                assertThat(value(registry, "executor.pool.size", "queued")).isEqualTo(1);
                assertThat(value(registry, "poolkit.pool.busy", "queued")).isEqualTo(1);
                assertThat(value(registry, "poolkit.pool.queued", "queued")).isEqualTo(2);
                assertThat(value(registry, "executor.queued", "queued")).isEqualTo(3);
                assertThat(value(registry, "poolkit.pool.waiting", "queued")).isEqualTo(3);
                assertThat(value(registry, "executor.queue.remaining", "queued")).isZero();
                assertThat(value(registry, "poolkit.pool.free", "queued")).isZero();
            }
            finally {
                release.countDown();
            }
            blocked.join(10_000);
            await().atMost(10, TimeUnit.SECONDS).until(() -> value(registry, "executor.queued", "queued") == 0
                    && value(registry, "executor.active", "queued") == 0);
        });
    }

    @Test
    void poolsTheApplicationMadeGetGaugesAndTimers() {
        FuncPool<String> func = FuncPool.create(3, argument -> { }, PoolOptions.builder().name("func").build());
        MultiPool multi = MultiPool.create(2, 2, MultiPool.LoadBalancing.ROUND_ROBIN,
                PoolOptions.builder().queueCapacity(5).build());
        runner.withBean("func", FuncPool.class, () -> func).withBean("multi", MultiPool.class, () -> multi)
                .withBean("ownScheduler", DelayScheduler.class, () -> DelayScheduler.create(3)).run(context -> {
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    assertThat(value(registry, "executor.pool.max", "func")).isEqualTo(3);
                    assertThat(value(registry, "executor.pool.max", "multi")).isEqualTo(4);
                    assertThat(value(registry, "executor.queue.remaining", "multi")).isEqualTo(10);
                    assertThat(value(registry, "executor.pool.max", "ownScheduler")).isEqualTo(3);
                    assertThat(registry.find("executor").tag("name", "reports").timer()).isNotNull();
                    for (String name : new String[] { "func", "multi", "ownScheduler" }) {
                        assertThat(registry.find("executor").tag("name", name).timers()).as(name).hasSize(1);
                        assertThat(registry.find("executor.idle").tag("name", name).timers()).as(name).hasSize(1);
                    }
                    // a MultiPool's listener hears of a refusal only when its caller gets it: counted by listener
                    assertThat(registry.get("poolkit.pool.tasks").tag("name", "multi").tag("outcome", "rejected")
                            .counter().count()).isZero();
                    assertThat(registry.get("poolkit.pool.tasks").tag("name", "func").tag("outcome", "completed")
                            .counter().count()).isZero();
                    func.invoke("timed");
                    await().atMost(10, TimeUnit.SECONDS).until(() -> registry.get("executor").tag("name", "func")
                            .timer().count() == 1);
                    context.getBean("ownScheduler", DelayScheduler.class).shutdown();
                });
        func.release();
        multi.release();
    }

    /** {@code poolkit.pool.tasks} is a counter: it starts at the pool's totals when bound, then counts each task. */
    @Test
    void theTaskCounterStartsAtThePoolsTotalsAndCountsASubmittedTaskBeforeItsFutureCompletes() throws Exception {
        WorkerPool early = WorkerPool.create(2, PoolOptions.builder().name("early").build());
        early.submit(() -> "before the context").get();
        assertThatThrownBy(early.submit(() -> {
            throw new IllegalStateException("expected by the test");
        })::get).hasCauseInstanceOf(IllegalStateException.class);
        runner.withBean("early", WorkerPool.class, () -> early).run(context -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            assertThat(tasks(registry, "early", "completed")).as("counted before binding").isEqualTo(1);
            assertThat(tasks(registry, "early", "failed")).as("counted before binding").isEqualTo(1);
            WorkerPool reports = context.getBean("reports", WorkerPool.class);
            for (int i = 1; i <= 200; i++) {
                assertThat(reports.submit(() -> "ok").get()).isEqualTo("ok");
                assertThat(tasks(registry, "reports", "completed")).as("task %d when get() returned", i)
                        .isEqualTo(i);
                assertThatThrownBy(reports.submit(() -> {
                    throw new IllegalStateException("expected by the test");
                })::get).hasCauseInstanceOf(IllegalStateException.class);
                assertThat(tasks(registry, "reports", "failed")).as("task %d when get() returned", i).isEqualTo(i);
                early.submit(() -> "after").get();
                assertThat(tasks(registry, "early", "completed")).isEqualTo(i + 1);
            }
        });
        early.release();
    }

    @Test
    void tasksAreTimedFromAcceptanceToStartAndWhileTheyRun() {
        runner.run(context -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            WorkerPool reports = context.getBean("reports", WorkerPool.class);
            reports.execute(() -> { });
            reports.execute(() -> {
                throw new IllegalStateException("expected by the test");
            });
            await().atMost(10, TimeUnit.SECONDS).until(() -> timerCount(registry, "executor", "reports") == 2);
            await().atMost(10, TimeUnit.SECONDS).until(() -> timerCount(registry, "executor.idle", "reports") == 2);
            assertThat(timerCount(registry, "poolkit.pool.task.duration", "reports")).isEqualTo(2);
            assertThat(timerCount(registry, "poolkit.pool.task.wait", "reports")).isEqualTo(2);
            assertThat(timerCount(registry, "executor", "workerPool")).isZero();
        });
    }

    @Test
    void theSchedulersJobsAreTimed() {
        runner.run(context -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            DelayScheduler scheduler = context.getBean(DelayScheduler.class);
            CountDownLatch ran = new CountDownLatch(1);
            scheduler.scheduleOnce(ran::countDown, Duration.ofMillis(1));
            assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
            await().atMost(10, TimeUnit.SECONDS).until(() -> timerCount(registry, "executor", "delayScheduler") == 1);
            assertThat(timerCount(registry, "executor.idle", "delayScheduler")).isEqualTo(1);
        });
    }

    @Test
    void tasksAreCountedByOutcomeFromTheStatsCounters() {
        runner.run(context -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            WorkerPool tight = context.getBean("tight", WorkerPool.class);
            CountDownLatch release = new CountDownLatch(1);
            tight.execute(() -> waitFor(release));
            assertThatThrownBy(() -> tight.execute(() -> { })).isInstanceOf(PoolOverloadException.class);
            // A second worker for the failing task: the first may not be idle again yet when its task has ended,
            // and the pool is nonblocking.
            tight.tune(2);
            tight.execute(() -> {
                throw new IllegalStateException("expected by the test");
            });
            release.countDown();
            await().atMost(10, TimeUnit.SECONDS).until(() -> tasks(registry, "tight", "failed") == 1);
            assertThat(tasks(registry, "tight", "completed")).isEqualTo(1);
            assertThat(tasks(registry, "tight", "rejected")).isEqualTo(1);
            assertThat(registry.get("executor.completed").tag("name", "tight").functionCounter().count())
                    .isEqualTo(2);
        });
    }

    @Test
    void semaphoreGauges() throws Exception {
        runner.withPropertyValues("poolkit.semaphores.gpu.size=10").run(context -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            context.getBean("gpu", WeightedSemaphore.class).acquire(4);
            assertThat(value(registry, "poolkit.semaphore.size", "gpu")).isEqualTo(10);
            assertThat(value(registry, "poolkit.semaphore.used", "gpu")).isEqualTo(4);
            assertThat(value(registry, "poolkit.semaphore.available", "gpu")).isEqualTo(6);
            assertThat(value(registry, "poolkit.semaphore.waiting", "gpu")).isZero();
            for (AcquireOutcome outcome : AcquireOutcome.values()) {
                assertThat(registry.find("poolkit.semaphore.acquire").tag("name", "gpu")
                        .tag("outcome", outcome.name().toLowerCase()).timer()).as(outcome.name()).isNotNull();
            }
        });
    }

    @Test
    void acquireTimerRecordsEachOutcome() {
        MeterRegistry registry = new SimpleMeterRegistry();
        SemaphoreAcquireMeters meters = new SemaphoreAcquireMeters(registry, "gpu");
        meters.requestSettled(3, 2_000_000, AcquireOutcome.ACQUIRED);
        meters.requestSettled(3, 5_000_000, AcquireOutcome.TIMEOUT);
        meters.requestSettled(1, 0, AcquireOutcome.REJECTED);
        assertThat(acquire(registry, "acquired").totalTime(TimeUnit.MILLISECONDS)).isEqualTo(2);
        assertThat(acquire(registry, "timeout").totalTime(TimeUnit.MILLISECONDS)).isEqualTo(5);
        assertThat(acquire(registry, "rejected").count()).isEqualTo(1);
        assertThat(acquire(registry, "interrupted").count()).isZero();
        assertThat(acquire(registry, "cancelled").count()).isZero();
    }

    @Test
    void semaphoresPoolkitMakesReportTheirRequests() {
        runner.withPropertyValues("poolkit.semaphores.gpu.size=10").run(context -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            WeightedSemaphore gpu = context.getBean("gpu", WeightedSemaphore.class);
            assertThat(gpu.tryAcquire(4)).isTrue();
            assertThat(gpu.tryAcquire(7)).isFalse();
            assertThat(gpu.tryAcquire(7, Duration.ofMillis(5))).isFalse();
            assertThat(registry.get("poolkit.semaphore.acquire").tag("name", "gpu").tag("outcome", "acquired")
                    .timer().count()).isEqualTo(1);
            assertThat(registry.get("poolkit.semaphore.acquire").tag("name", "gpu").tag("outcome", "rejected")
                    .timer().count()).isEqualTo(1);
            assertThat(registry.get("poolkit.semaphore.acquire").tag("name", "gpu").tag("outcome", "timeout")
                    .timer().count()).isEqualTo(1);
        });
    }

    /**
     * A {@code WeightedSemaphore} the application made itself is timed too, from the registry's binding on (its
     * constructor's listener, if any, still hears), once however many bean names it has.
     */
    @Test
    void aSemaphoreTheApplicationMadeIsTimedOnceUnderItsFirstName() {
        runner.withUserConfiguration(OwnSemaphore.class).run(context -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            WeightedSemaphore gpu = context.getBean("gpu", WeightedSemaphore.class);
            assertThat(context.getBean("gpuAlias")).isSameAs(gpu);
            assertThat(gpu.tryAcquire(4)).isTrue();
            assertThat(gpu.tryAcquire(7)).isFalse();
            assertThat(acquire(registry, "acquired").count()).isEqualTo(1);
            assertThat(acquire(registry, "rejected").count()).isEqualTo(1);
            assertThat(registry.find("poolkit.semaphore.acquire").tag("name", "gpuAlias").timers()).isEmpty();
            assertThat(context.getBean(OwnSemaphore.class).heard).as("its own listener").hasValue(2);
        });
    }

    /** A semaphore poolkit made, handed on by the application under a second name that sorts first: timed once. */
    @Test
    void aPoolkitSemaphoreUnderASecondNameIsTimedOnce() {
        runner.withPropertyValues("poolkit.semaphores.gpu.size=10")
                .withInitializer(context -> ((GenericApplicationContext) context).registerBean("aGpu",
                        PermitSemaphore.class, () -> context.getBean("gpu", WeightedSemaphore.class)))
                .run(context -> {
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    WeightedSemaphore gpu = context.getBean("gpu", WeightedSemaphore.class);
                    assertThat(context.getBean("aGpu")).isSameAs(gpu);
                    assertThat(gpu.tryAcquire(1)).isTrue();
                    assertThat(acquire(registry, "acquired").count()).isEqualTo(1);
                    assertThat(registry.find("poolkit.semaphore.acquire").tag("name", "aGpu").timers()).isEmpty();
                });
    }

    /** A semaphore of the application's own, with a listener of its own, also handed on under a second name. */
    @Configuration(proxyBeanMethods = false)
    static class OwnSemaphore {

        final AtomicInteger heard = new AtomicInteger();

        @Bean
        WeightedSemaphore gpu() {
            return new WeightedSemaphore(10, (permits, waited, outcome) -> heard.incrementAndGet());
        }

        @Bean
        PermitSemaphore gpuAlias(@Qualifier("gpu") WeightedSemaphore gpu) {
            return gpu;
        }
    }

    private static io.micrometer.core.instrument.Timer acquire(MeterRegistry registry, String outcome) {
        return registry.get("poolkit.semaphore.acquire").tag("name", "gpu").tag("outcome", outcome).timer();
    }

    private static double value(MeterRegistry registry, String meter, String bean) {
        return registry.get(meter).tag("name", bean).gauge().value();
    }

    private static long timerCount(MeterRegistry registry, String meter, String bean) {
        return registry.get(meter).tag("name", bean).timer().count();
    }

    private static double tasks(MeterRegistry registry, String bean, String outcome) {
        return registry.get("poolkit.pool.tasks").tag("name", bean).tag("outcome", outcome).counter().count();
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
