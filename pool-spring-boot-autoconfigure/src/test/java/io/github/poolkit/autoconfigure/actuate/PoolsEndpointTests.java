package io.github.poolkit.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.poolkit.DelayScheduler;
import io.github.poolkit.FuncPool;
import io.github.poolkit.MultiPool;
import io.github.poolkit.PoolOptions;
import io.github.poolkit.WeightedSemaphore;
import io.github.poolkit.WorkerPool;
import io.github.poolkit.autoconfigure.PoolkitAutoConfiguration;
import io.github.poolkit.autoconfigure.actuate.PoolsEndpoint.PoolDescriptor;
import io.github.poolkit.autoconfigure.actuate.PoolsEndpoint.PoolsDescriptor;
import io.github.poolkit.autoconfigure.actuate.PoolsEndpoint.SchedulerDescriptor;
import io.github.poolkit.autoconfigure.actuate.PoolsEndpoint.SemaphoreDescriptor;
import io.github.poolkit.autoconfigure.FlakySemaphore;

/** The {@code pools} endpoint's availability, its view of every kind of bean, and its writes, called directly. */
@Timeout(30)
class PoolsEndpointTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(PoolkitAutoConfiguration.class,
                    PoolsEndpointAutoConfiguration.class))
            .withPropertyValues("management.endpoints.web.exposure.include=pools", "poolkit.semaphore.enabled=false",
                    "poolkit.pools.reports.capacity=4", "poolkit.pools.reports.queue-capacity=3",
                    "poolkit.pools.reports.max-blocking-tasks=2", "poolkit.pool.capacity=0");

    @Test
    void endpointNeedsToBeExposed() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(PoolkitAutoConfiguration.class,
                        PoolsEndpointAutoConfiguration.class))
                .run(context -> assertThat(context).doesNotHaveBean(PoolsEndpoint.class));
        runner.run(context -> assertThat(context).hasSingleBean(PoolsEndpoint.class));
        runner.withPropertyValues("management.endpoint.pools.access=NONE")
                .run(context -> assertThat(context).doesNotHaveBean(PoolsEndpoint.class));
    }

    @Test
    void listsEveryKindOfPoolTheApplicationDefinesBesideThePoolkitOnes() {
        runner.withUserConfiguration(ApplicationPools.class).run(context -> {
            PoolsDescriptor all = context.getBean(PoolsEndpoint.class).pools();
            assertThat(all.pools()).containsOnlyKeys("workerPool", "reports", "funcPool", "multiPool");
            assertThat(all.schedulers()).containsOnlyKeys("delayScheduler", "ownScheduler");
            assertThat(all.semaphores()).containsOnlyKeys("ownSemaphore");
            assertThat(all.pools().get("reports")).isEqualTo(new PoolDescriptor(4, null, 0, 0, 0, 0, 0, 4, false, 0L,
                    0L, 0L, 0L, null, 2, false, List.of(), null));
            assertThat(all.pools().get("workerPool").capacity()).isEqualTo(-1);
            assertThat(all.pools().get("workerPool").free()).isEqualTo(-1);
            assertThat(all.pools().get("funcPool").capacity()).isEqualTo(3);
            assertThat(all.pools().get("multiPool").capacity()).isEqualTo(4);
            assertThat(all.schedulers().get("ownScheduler").capacity()).isEqualTo(2);
            assertThat(all.semaphores().get("ownSemaphore"))
                    .isEqualTo(new SemaphoreDescriptor(5, null, 0, 0, 5, "local", null));
        });
    }

    @Test
    void readsOneEntryOfAnyKindByName() {
        runner.withUserConfiguration(ApplicationPools.class).run(context -> {
            PoolsEndpoint endpoint = context.getBean(PoolsEndpoint.class);
            assertThat(endpoint.pool("funcPool")).isInstanceOf(PoolDescriptor.class);
            assertThat(endpoint.pool("multiPool")).isInstanceOf(PoolDescriptor.class);
            assertThat(endpoint.pool("ownScheduler")).isInstanceOf(SchedulerDescriptor.class);
            assertThat(endpoint.pool("delayScheduler")).isInstanceOf(SchedulerDescriptor.class);
            assertThat(endpoint.pool("ownSemaphore")).isInstanceOf(SemaphoreDescriptor.class);
            assertThat(endpoint.pool("unknown")).isNull();
        });
    }

    @Test
    void aBeanRegisteredAfterStartUpIsListed() {
        runner.run(context -> {
            PoolsEndpoint endpoint = context.getBean(PoolsEndpoint.class);
            assertThat(endpoint.pool("late")).isNull();
            WorkerPool late = WorkerPool.create(7, PoolOptions.builder().name("late").build());
            try {
                context.getBeanFactory().registerSingleton("late", late);
                assertThat(endpoint.pool("late")).isInstanceOf(PoolDescriptor.class);
                assertThat(endpoint.pools().pools()).containsKey("late");
            }
            finally {
                late.release();
            }
        });
    }

    @Test
    void busyQueuedAndBlockedAreShownApart() throws Exception {
        WorkerPool pool = WorkerPool.create(1, PoolOptions.builder().name("one").queueCapacity(1).build());
        CountDownLatch release = new CountDownLatch(1);
        try {
            pool.execute(() -> await(release));
            pool.execute(() -> { });
            Thread blocked = Thread.ofPlatform().start(() -> pool.execute(() -> { }));
            org.awaitility.Awaitility.await().atMost(10, TimeUnit.SECONDS).until(() -> pool.stats().blocked() == 1);
            PoolDescriptor entry = PoolDescriptor.of(pool);
            assertThat(entry.busy()).isEqualTo(1);
            assertThat(entry.queued()).isEqualTo(1);
            assertThat(entry.blocked()).isEqualTo(1);
            assertThat(entry.waiting()).isEqualTo(2);
            release.countDown();
            blocked.join(10_000);
        }
        finally {
            release.countDown();
            pool.release();
        }
    }

    @Test
    void closedPoolsAndSchedulersAreShownClosed() {
        runner.run(context -> {
            context.getBean("reports", WorkerPool.class).release();
            context.getBean("delayScheduler", DelayScheduler.class).shutdown();
            PoolsEndpoint endpoint = context.getBean(PoolsEndpoint.class);
            assertThat(((PoolDescriptor) endpoint.pool("reports")).closed()).isTrue();
            assertThat(((SchedulerDescriptor) endpoint.pool("delayScheduler")).closed()).isTrue();
        });
    }

    @Test
    void aWriteAnswersTheEntryAsAReadDoesWithItsRecentOverdueTasks() throws Exception {
        runner.withPropertyValues("poolkit.pools.reports.run-timeout=100ms").run(context -> {
            PoolsEndpoint endpoint = context.getBean(PoolsEndpoint.class);
            CountDownLatch release = new CountDownLatch(1);
            context.getBean("reports", WorkerPool.class).execute(() -> {
                try {
                    release.await(20, TimeUnit.SECONDS);
                }
                catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                }
            });
            try {
                Awaitility.await().atMost(Duration.ofSeconds(10))
                        .until(() -> ((PoolDescriptor) endpoint.pool("reports")).recentOverdue().size() == 1);
                WebEndpointResponse<Object> ok = endpoint.change("reports", "5", null, null, null, null);
                assertThat(ok.getStatus()).isEqualTo(200);
                PoolDescriptor written = (PoolDescriptor) ok.getBody();
                assertThat(written.overdue()).isEqualTo(1);
                assertThat(written.recentOverdue())
                        .isEqualTo(((PoolDescriptor) endpoint.pool("reports")).recentOverdue()).hasSize(1);
            }
            finally {
                release.countDown();
            }
        });
    }

    @Test
    void capacityIsTunedAndInvalidValuesChangeNothing() {
        runner.run(context -> {
            PoolsEndpoint endpoint = context.getBean(PoolsEndpoint.class);
            WorkerPool reports = context.getBean("reports", WorkerPool.class);
            WebEndpointResponse<Object> ok = endpoint.change("reports", "9", null, null, null, null);
            assertThat(ok.getStatus()).isEqualTo(200);
            assertThat(((PoolDescriptor) ok.getBody()).capacity()).isEqualTo(9);
            assertThat(reports.capacity()).isEqualTo(9);

            assertProblem(endpoint.change("reports", "0", null, null, null, null), "capacity");
            assertProblem(endpoint.change("reports", "many", null, null, null, null), "capacity");
            assertProblem(endpoint.change("reports", "5", "soon", null, null, null), "maxWait");
            assertProblem(endpoint.change("reports", "5", null, "-1", null, null), "maxBlockingTasks");
            assertProblem(endpoint.change("reports", "5", null, null, "maybe", null), "nonblocking");
            assertProblem(endpoint.change("reports", null, null, null, null, "3"), "size");
            assertProblem(endpoint.change("reports", null, null, null, null, null), "capacity");
            assertProblem(endpoint.change("workerPool", "5", null, null, null, null), "capacity");
            assertProblem(endpoint.change("delayScheduler", "5", null, null, null, null), "capacity");
            assertThat(reports.capacity()).isEqualTo(9);
            assertThat(reports.options().maxBlockingTasks()).isEqualTo(2);

            WebEndpointResponse<Object> unknown = endpoint.change("unknown", "3", null, null, null, null);
            assertThat(unknown.getStatus()).isEqualTo(404);
            assertThat(unknown.getContentType()).isEqualTo(EndpointProblem.PROBLEM_JSON);
            // every writable name is listed, schedulers' too
            assertThat(((EndpointProblem) unknown.getBody()).detail()).contains("pools [", "reports", "semaphores [",
                    "schedulers [delayScheduler]");
        });
    }

    /** A core size written to one of poolkit's own beans is refused with a fix that fits that kind of bean. */
    @Test
    void aCoreSizeForPoolkitsOwnBeansIsRefusedWithTheFixOfItsKind() {
        runner.withPropertyValues("poolkit.semaphores.gpu.size=4").run(context -> {
            PoolsEndpoint endpoint = context.getBean(PoolsEndpoint.class);
            assertThat(detail(endpoint.change("reports", null, null, null, null, null, "2")))
                    .endsWith("change its capacity instead");
            assertThat(detail(endpoint.change("gpu", null, null, null, null, null, "2")))
                    .endsWith("a semaphore has only a size to change");
            assertThat(detail(endpoint.change("delayScheduler", null, null, null, null, null, "2")))
                    .endsWith("a scheduler's settings cannot change at run time");
        });
    }

    private static String detail(WebEndpointResponse<Object> response) {
        assertProblem(response, "coreSize");
        return ((EndpointProblem) response.getBody()).detail();
    }

    @Test
    void maxWaitMaxBlockingTasksAndNonblockingChangeLive() {
        runner.run(context -> {
            PoolsEndpoint endpoint = context.getBean(PoolsEndpoint.class);
            WorkerPool reports = context.getBean("reports", WorkerPool.class);
            WebEndpointResponse<Object> ok = endpoint.change("reports", "6", "200ms", "5", "true", null);
            assertThat(ok.getStatus()).isEqualTo(200);
            assertThat(reports.options().maxWait()).isEqualTo(Duration.ofMillis(200));
            assertThat(reports.options().maxBlockingTasks()).isEqualTo(5);
            assertThat(reports.options().nonblocking()).isTrue();
            assertThat(reports.capacity()).isEqualTo(6);
            PoolDescriptor entry = (PoolDescriptor) ok.getBody();
            assertThat(entry.maxWait()).isEqualTo("200ms");
            assertThat(endpoint.change("reports", null, "-1", null, "false", null).getStatus()).isEqualTo(200);
            assertThat(reports.options().maxWait()).isNull();
        });
    }

    /**
     * A wait that is no whole number of milliseconds is shown in the unit that shows it whole: rounded down to
     * {@code 0ms} it read as "fails at once", and a client posting back what it read would make it so.
     */
    @Test
    void aMaxWaitBelowAMillisecondIsShownAsItIs() {
        runner.run(context -> {
            PoolsEndpoint endpoint = context.getBean(PoolsEndpoint.class);
            WorkerPool reports = context.getBean("reports", WorkerPool.class);
            PoolDescriptor micros = (PoolDescriptor) endpoint.change("reports", null, "500us", null, null, null)
                    .getBody();
            assertThat(micros.maxWait()).isEqualTo("500us");
            assertThat(reports.options().maxWait()).isEqualTo(Duration.ofNanos(500_000));
            PoolDescriptor nanos = (PoolDescriptor) endpoint.change("reports", null, "PT0.001500001S", null, null,
                    null).getBody();
            assertThat(nanos.maxWait()).isEqualTo("1500001ns");
            PoolDescriptor millis = (PoolDescriptor) endpoint.change("reports", null, "2s", null, null, null)
                    .getBody();
            assertThat(millis.maxWait()).as("whole milliseconds, as before").isEqualTo("2000ms");
            PoolDescriptor centuries = (PoolDescriptor) endpoint.change("reports", null, "9999999999999999s", null,
                    null, null).getBody();
            assertThat(centuries.maxWait()).as("too long for milliseconds: whole seconds")
                    .isEqualTo("9999999999999999s");
            assertThat(((PoolDescriptor) endpoint.pool("reports")).maxWait()).isEqualTo("9999999999999999s");
        });
    }

    @Test
    void aSemaphoreIsResized() {
        WeightedSemaphore semaphore = new WeightedSemaphore(10);
        runner.withBean("gpu", WeightedSemaphore.class, () -> semaphore).run(context -> {
            PoolsEndpoint endpoint = context.getBean(PoolsEndpoint.class);
            assertThat(endpoint.change("gpu", null, null, null, null, "20").getStatus()).isEqualTo(200);
            assertThat(semaphore.size()).isEqualTo(20);
        });
    }

    @Test
    void semaphoreWritesAreCheckedBeforeAnythingChanges() throws Exception {
        WeightedSemaphore semaphore = new WeightedSemaphore(10);
        semaphore.acquire(3);
        runner.withBean("gpu", WeightedSemaphore.class, () -> semaphore).run(context -> {
            PoolsEndpoint endpoint = context.getBean(PoolsEndpoint.class);
            assertThat(endpoint.pool("gpu")).isEqualTo(new SemaphoreDescriptor(10, null, 3, 0, 7, "local", null));
            assertProblem(endpoint.change("gpu", null, null, null, null, "-2"), "size");
            assertProblem(endpoint.change("gpu", null, null, null, null, "lots"), "size");
            assertProblem(endpoint.change("gpu", "4", null, null, null, null), "capacity");
            assertProblem(endpoint.change("gpu", null, null, null, null, null), "size");
            assertThat(semaphore.size()).isEqualTo(10);
        });
    }

    @Test
    void aClusterSemaphoreIsScopedClusterAndAnUnreadableOneNamesTheError() {
        FlakySemaphore cluster = new FlakySemaphore(8);
        runner.withBean("shared", FlakySemaphore.class, () -> cluster).run(context -> {
            PoolsEndpoint endpoint = context.getBean(PoolsEndpoint.class);
            assertThat(endpoint.pool("shared")).isEqualTo(new SemaphoreDescriptor(8, null, 0, 0, 8, "cluster", null));
            cluster.disconnect();
            SemaphoreDescriptor down = (SemaphoreDescriptor) endpoint.pool("shared");
            assertThat(down.scope()).isEqualTo("cluster");
            assertThat(down.error()).contains("store unreachable");
        });
    }

    /** A lazy pool or semaphore that nobody has asked for yet is not created by a read; it is listed once it exists. */
    @Test
    void aReadDoesNotCreateALazyBean() {
        runner.withInitializer(context -> {
            GenericApplicationContext generic = (GenericApplicationContext) context;
            generic.registerBean("lazyPool", WorkerPool.class, () -> WorkerPool.create(2),
                    definition -> definition.setLazyInit(true));
            generic.registerBean("lazySemaphore", WeightedSemaphore.class, () -> new WeightedSemaphore(3),
                    definition -> definition.setLazyInit(true));
        }).run(context -> {
            PoolsEndpoint endpoint = context.getBean(PoolsEndpoint.class);
            PoolsDescriptor before = endpoint.pools();
            assertThat(before.pools()).doesNotContainKey("lazyPool");
            assertThat(before.semaphores()).doesNotContainKey("lazySemaphore");
            assertThat(context.getBeanFactory().containsSingleton("lazyPool")).isFalse();
            assertThat(context.getBeanFactory().containsSingleton("lazySemaphore")).isFalse();
            context.getBean("lazyPool");
            assertThat(endpoint.pools().pools()).containsKey("lazyPool");
        });
    }

    @Test
    void aResizeThatTheStoreDoesNotConfirmIsA503SayingTheOutcomeIsUnknown() {
        FlakySemaphore cluster = new FlakySemaphore(8);
        runner.withBean("shared", FlakySemaphore.class, () -> cluster).run(context -> {
            PoolsEndpoint endpoint = context.getBean(PoolsEndpoint.class);
            assertThat(endpoint.change("shared", null, null, null, null, "12").getStatus()).isEqualTo(200);
            cluster.disconnect();
            WebEndpointResponse<Object> response = endpoint.change("shared", null, null, null, null, "16");
            assertThat(response.getStatus()).isEqualTo(503);
            assertThat(response.getContentType()).isEqualTo(EndpointProblem.PROBLEM_JSON);
            EndpointProblem problem = (EndpointProblem) response.getBody();
            assertThat(problem.field()).isEqualTo("size");
            assertThat(problem.detail()).contains("store unreachable", "may or may not have changed",
                    "GET /actuator/pools/shared");
        });
    }

    private static void assertProblem(WebEndpointResponse<Object> response, String field) {
        assertThat(response.getStatus()).as(field).isEqualTo(400);
        assertThat(response.getContentType()).isEqualTo(EndpointProblem.PROBLEM_JSON);
        EndpointProblem problem = (EndpointProblem) response.getBody();
        assertThat(problem.field()).isEqualTo(field);
        assertThat(problem.status()).isEqualTo(400);
        assertThat(problem.detail()).startsWith(field + ": ");
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(20, TimeUnit.SECONDS);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    /** Pools of every kind that the application defines itself, without poolkit's factory. */
    @Configuration(proxyBeanMethods = false)
    static class ApplicationPools {

        @Bean(destroyMethod = "release")
        FuncPool<String> funcPool() {
            return FuncPool.create(3, argument -> { }, PoolOptions.builder().name("funcPool").build());
        }

        @Bean(destroyMethod = "release")
        MultiPool multiPool() {
            return MultiPool.create(2, 2, MultiPool.LoadBalancing.ROUND_ROBIN);
        }

        @Bean(destroyMethod = "shutdown")
        DelayScheduler ownScheduler() {
            return DelayScheduler.create(2);
        }

        @Bean
        WeightedSemaphore ownSemaphore() {
            return new WeightedSemaphore(5);
        }
    }
}
