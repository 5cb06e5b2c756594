package io.github.poolkit.autoconfigure.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.poolkit.Permit;
import io.github.poolkit.PermitSemaphore;
import io.github.poolkit.PoolOverloadException;
import io.github.poolkit.WeightedSemaphore;
import io.github.poolkit.WorkerPool;
import io.github.poolkit.annotation.Permits;
import io.github.poolkit.autoconfigure.InvalidPoolkitPropertyException;
import io.github.poolkit.autoconfigure.PoolkitAutoConfiguration;
import io.github.poolkit.autoconfigure.actuate.PoolMetricsAutoConfiguration;
import io.github.poolkit.autoconfigure.actuate.PoolsEndpoint;
import io.github.poolkit.autoconfigure.actuate.PoolsEndpoint.SemaphoreDescriptor;
import io.github.poolkit.autoconfigure.actuate.PoolsEndpointAutoConfiguration;
import io.github.poolkit.autoconfigure.actuate.PoolsHealthContributorAutoConfiguration;
import io.github.poolkit.autoconfigure.actuate.PoolsHealthIndicator;
import io.github.poolkit.autoconfigure.permits.PermitsAutoConfiguration;
import io.github.poolkit.autoconfigure.permits.RetryAfterEstimator;
import io.github.poolkit.redis.RedisPermitSemaphore;
import io.github.poolkit.redis.RedisServer;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.NestedExceptionUtils;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/** {@code poolkit.semaphores.<name>.scope: cluster} beans, on a real {@code redis-server}. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClusterSemaphoreBeansTests {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private ApplicationContextRunner runner;

    @BeforeEach
    void runner() throws Exception {
        redis.flush();
        runner = new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class,
                        PoolkitAutoConfiguration.class, PoolkitRedisAutoConfiguration.class))
                .withPropertyValues("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + redis.port(),
                        "poolkit.semaphores.gpu-memory.scope=cluster", "poolkit.semaphores.gpu-memory.size=8",
                        "poolkit.semaphores.gpu-memory.lease-time=5s", "poolkit.semaphores.local-one.size=2");
    }

    /** With poolkit's own auto-configuration excluded, the cluster one backs off too, rather than fail start-up. */
    @Test
    void backsOffWithoutPoolkitsAutoConfiguration() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class,
                        PoolkitRedisAutoConfiguration.class))
                .withPropertyValues("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + redis.port(),
                        "poolkit.semaphores.gpu-memory.scope=cluster")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).doesNotHaveBean(ClusterSemaphoreFactory.class);
                    assertThat(context).doesNotHaveBean("gpu-memory");
                });
    }

    /** The application's own bean of that name wins, and the ignored key is named at WARN, as for a local entry. */
    @Test
    @ExtendWith(OutputCaptureExtension.class)
    void theApplicationsOwnBeanOfThatNameWinsAndTheKeyIsNamed(CapturedOutput output) {
        runner.withBean("gpu-memory", WeightedSemaphore.class, () -> new WeightedSemaphore(3)).run(context -> {
            assertThat(context.getBean("gpu-memory")).isInstanceOf(WeightedSemaphore.class);
            assertThat(output).contains("WARN").contains("poolkit.semaphores.gpu-memory is ignored: the name "
                    + "'gpu-memory' is taken by the application's bean 'gpu-memory'");
        });
    }

    @Test
    void aClusterEntryBecomesARedisPermitSemaphoreBeanOfItsNameInjectableByTheSharedType() {
        runner.run(context -> {
            assertThat(context).hasNotFailed();
            PermitSemaphore gpu = context.getBean("gpu-memory", PermitSemaphore.class);
            assertThat(gpu).isInstanceOf(RedisPermitSemaphore.class);
            assertThat(((RedisPermitSemaphore) gpu).leaseTime()).isEqualTo(Duration.ofSeconds(5));
            assertThat(gpu.size()).isEqualTo(8);
            assertThat(context.getBean("local-one")).isInstanceOf(WeightedSemaphore.class);
            assertThat(context.getBeansOfType(PermitSemaphore.class))
                    .containsKeys("gpu-memory", "local-one", "weightedSemaphore");
        });
    }

    @Test
    void twoApplicationsShareOneBudget() {
        runner.run(first -> runner.run(second -> {
            PermitSemaphore a = first.getBean("gpu-memory", PermitSemaphore.class);
            PermitSemaphore b = second.getBean("gpu-memory", PermitSemaphore.class);
            assertThat(a).isNotSameAs(b);
            try (Permit permit = a.acquirePermit(6)) {
                assertThat(permit.fencingToken()).isPositive();
                assertThat(b.used()).isEqualTo(6);
                assertThat(b.tryAcquire(3)).isFalse();
                assertThat(b.tryAcquire(2)).isTrue();
                b.release(2);
            }
            assertThat(b.used()).isZero();
        }));
    }

    @Test
    void aPermitsMethodHoldsALeaseOfItsOwnInEveryFormReleasedOnce() {
        runner.withConfiguration(AutoConfigurations.of(PermitsAutoConfiguration.class)).withBean(Guarded.class)
                .run(context -> {
                    PermitSemaphore gpu = context.getBean("gpu-memory", PermitSemaphore.class);
                    Guarded guarded = context.getBean(Guarded.class);
                    for (int i = 0; i < 3; i++) {
                        assertThat(guarded.failFast(gpu)).isEqualTo(3);
                        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> gpu.used() == 0);
                        assertThat(guarded.patient(gpu)).isEqualTo(3);
                        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> gpu.used() == 0);
                        assertThat(guarded.reactive(gpu).block(Duration.ofSeconds(10))).isEqualTo(3);
                        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> gpu.used() == 0);
                    }
                    // the grants were the calls' own leases, closed once: none is left for release(n) to give back
                    assertThatThrownBy(() -> gpu.release(1)).isInstanceOf(IllegalStateException.class)
                            .hasMessageContaining("released more than held");
                    assertThat(gpu.used()).isZero();
                });
    }

    /**
     * A reactive {@code @Permits} method on a cluster semaphore asks Redis without blocking the subscribing thread:
     * with Redis frozen, {@code subscribe} returns before any answer came (it used to wait for the try and for the
     * size, up to the command timeout each), and the outcome follows once Redis answers: the method runs, or the
     * publisher errors with an overload whose {@code Retry-After} estimate is marked as reading Redis (so that WebFlux
     * makes it off the event loop).
     */
    @Test
    void aReactivePermitsMethodOnAClusterSemaphoreNeverBlocksTheSubscribingThread() {
        runner.withConfiguration(AutoConfigurations.of(PermitsAutoConfiguration.class)).withBean(Guarded.class)
                .run(context -> {
                    PermitSemaphore gpu = context.getBean("gpu-memory", PermitSemaphore.class);
                    Guarded guarded = context.getBean(Guarded.class);
                    assertThat(gpu.used()).isZero(); // connected, its size stored
                    CompletableFuture<Long> ran = subscribedWhileRedisIsFrozen(guarded.reactive(gpu));
                    assertThat(ran.get(10, TimeUnit.SECONDS)).isEqualTo(3);
                    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> gpu.used() == 0);

                    try (Permit all = gpu.acquirePermit(8)) {
                        CompletableFuture<Long> refused = subscribedWhileRedisIsFrozen(guarded.reactive(gpu));
                        Throwable failure = refused.handle((value, error) -> error).get(10, TimeUnit.SECONDS);
                        assertThat(failure).isInstanceOf(PoolOverloadException.class)
                                .hasMessageContaining("not granted within 0ms");
                        RetryAfterEstimator estimator = context.getBean(RetryAfterEstimator.class);
                        assertThat(estimator.estimateBlocks((PoolOverloadException) failure)).isTrue();
                        assertThat(estimator.retryAfterSeconds((PoolOverloadException) failure)).isBetween(1L, 60L);
                    }
                });
    }

    /**
     * The end of a reactive {@code @Permits} method's subscription does not wait for Redis either: the thread that
     * completes the publisher (here the test's own; in WebFlux an event loop) comes back while Redis is frozen, and
     * the lease is given back, on another thread, once Redis answers.
     */
    @Test
    void theEndOfAReactiveSubscriptionNeverWaitsForRedis() {
        runner.withConfiguration(AutoConfigurations.of(PermitsAutoConfiguration.class)).withBean(Guarded.class)
                .run(context -> {
                    PermitSemaphore gpu = context.getBean("gpu-memory", PermitSemaphore.class);
                    Guarded guarded = context.getBean(Guarded.class);
                    Sinks.One<Long> end = Sinks.one();
                    CompletableFuture<Long> outcome = new CompletableFuture<>();
                    guarded.until(end.asMono()).subscribe(outcome::complete, outcome::completeExceptionally);
                    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> gpu.used() == 3);
                    Thread completer = new Thread(() -> end.tryEmitValue(1L), "completer");
                    redis.pause();
                    try {
                        completer.start();
                        assertThat(outcome.get(10, TimeUnit.SECONDS)).isEqualTo(1);
                        // the release is a script run that cannot be answered now: the completer must not wait for
                        // it (it would, up to the command timeout of 2 s)
                        Awaitility.await().atMost(Duration.ofSeconds(1)).until(() -> !completer.isAlive());
                    } finally {
                        redis.resume();
                    }
                    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> gpu.used() == 0);
                });
    }

    /**
     * On context close the cluster semaphores stay open while poolkit's pools drain (and the web server before them),
     * so that the work still running can take and give back its permits; they close after, before Redis's
     * connection factory stops. They used to close first of all.
     */
    @Test
    void aClusterSemaphoreServesTheWorkThatDrainsOnClose() {
        runner.withPropertyValues("poolkit.pools.reports.capacity=1").run(context -> {
            PermitSemaphore gpu = context.getBean("gpu-memory", PermitSemaphore.class);
            WorkerPool reports = context.getBean("reports", WorkerPool.class);
            CountDownLatch go = new CountDownLatch(1);
            CompletableFuture<Long> usedWhileDraining = new CompletableFuture<>();
            reports.execute(() -> {
                try {
                    go.await();
                    try (Permit permit = gpu.acquirePermit(2)) {
                        usedWhileDraining.complete(permit.permits());
                    }
                } catch (Throwable e) {
                    usedWhileDraining.completeExceptionally(e);
                }
            });
            Thread closer = new Thread(context::close, "closer");
            closer.start();
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(reports::isShutdown); // the drain has begun
            go.countDown();
            assertThat(usedWhileDraining.get(10, TimeUnit.SECONDS)).isEqualTo(2);
            closer.join(TimeUnit.SECONDS.toMillis(30));
            assertThat(closer.isAlive()).isFalse();
        });
    }

    /** Subscribes with Redis frozen and checks that {@code subscribe} came back before Redis could answer. */
    private static CompletableFuture<Long> subscribedWhileRedisIsFrozen(Mono<Long> guarded) throws Exception {
        CompletableFuture<Long> outcome = new CompletableFuture<>();
        redis.pause();
        try {
            guarded.subscribe(outcome::complete, outcome::completeExceptionally);
            assertThat(outcome).as("subscribe returned before Redis answered").isNotDone();
        } finally {
            redis.resume();
        }
        return outcome;
    }

    /** {@code @Permits} methods on the cluster semaphore that answer the permits in use while they run. */
    static class Guarded {

        @Permits(value = "gpu-memory", weight = "3")
        public long failFast(PermitSemaphore gpu) {
            return gpu.used();
        }

        @Permits(value = "gpu-memory", weight = "3", maxWait = "5s")
        public long patient(PermitSemaphore gpu) {
            return gpu.used();
        }

        @Permits(value = "gpu-memory", weight = "3")
        public Mono<Long> reactive(PermitSemaphore gpu) {
            return Mono.fromCallable(gpu::used);
        }

        @Permits(value = "gpu-memory", weight = "3")
        public Mono<Long> until(Mono<Long> end) {
            return end;
        }
    }

    @Test
    void closingTheContextWithdrawsItsWaitingRequestsBeforeRedisIsDisconnected() {
        runner.run(first -> {
            PermitSemaphore a = first.getBean("gpu-memory", PermitSemaphore.class);
            a.acquire(8);
            AtomicReference<CompletableFuture<Permit>> waiting = new AtomicReference<>();
            runner.run(second -> {
                waiting.set(second.getBean("gpu-memory", PermitSemaphore.class).acquireAsync(1));
                Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> a.waiting() == 1);
            });
            assertThat(waiting.get()).isCompletedExceptionally();
            assertThat(a.waiting()).as("withdrawn on close, not after the lease time").isZero();
            a.release(8);
        });
    }

    @Test
    void theSizeIsInheritedFromThePrimarySemaphoreWhenUnset() {
        runner.withPropertyValues("poolkit.semaphore.size=12", "poolkit.semaphores.quota.scope=cluster")
                .run(context -> assertThat(context.getBean("quota", PermitSemaphore.class).size()).isEqualTo(12));
    }

    @Test
    void withoutPoolRedisOnTheClasspathStartUpStopsNamingTheFix() {
        // A cluster semaphore silently missing would only show as a NoSuchBeanDefinitionException somewhere else.
        runner.withClassLoader(new FilteredClassLoader(RedisPermitSemaphore.class)).run(context -> {
            assertThat(context).hasFailed();
            assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                    .isInstanceOf(InvalidPoolkitPropertyException.class)
                    .hasMessageContaining("poolkit.semaphores.gpu-memory.scope")
                    .hasMessageContaining("io.github.poolkit:pool-redis");
        });
    }

    /**
     * What an operator sees of a cluster semaphore: the {@code pools} endpoint, health and meters beside it. The
     * endpoint and the gauges show the whole cluster; the acquire timer counts this instance's requests.
     */
    private ApplicationContextRunner observed() {
        return runner.withConfiguration(AutoConfigurations.of(PoolsEndpointAutoConfiguration.class,
                        PoolsHealthContributorAutoConfiguration.class, MetricsAutoConfiguration.class,
                        SimpleMetricsExportAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
                        PoolMetricsAutoConfiguration.class))
                .withPropertyValues("management.endpoints.web.exposure.include=pools");
    }

    @Test
    void theEndpointAndTheMetersOfOneInstanceShowWhatTheOtherHoldsAndAwaits() {
        observed().run(first -> observed().run(second -> {
            PermitSemaphore a = first.getBean("gpu-memory", PermitSemaphore.class);
            PermitSemaphore b = second.getBean("gpu-memory", PermitSemaphore.class);
            Permit held = a.acquirePermit(6);
            CompletableFuture<Permit> queued = a.acquireAsync(4);
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> b.waiting() == 1);

            assertThat(second.getBean(PoolsEndpoint.class).pool("gpu-memory"))
                    .isEqualTo(new SemaphoreDescriptor(8, null, 6, 1, 2, "cluster", null));
            MeterRegistry meters = second.getBean(MeterRegistry.class);
            assertThat(gauge(meters, "poolkit.semaphore.size")).isEqualTo(8);
            assertThat(gauge(meters, "poolkit.semaphore.used")).isEqualTo(6);
            assertThat(gauge(meters, "poolkit.semaphore.waiting")).isEqualTo(1);
            assertThat(gauge(meters, "poolkit.semaphore.available")).isEqualTo(2);

            held.close();
            queued.get(10, TimeUnit.SECONDS).close();
            assertThat(b.tryAcquire(9)).as("more than the size: refused").isFalse();
            // a request is recorded as it settles, which may be just after its caller saw the result
            MeterRegistry firstMeters = first.getBean(MeterRegistry.class);
            Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                assertThat(acquires(firstMeters, "acquired")).isEqualTo(2);
                assertThat(acquires(meters, "rejected")).isEqualTo(1);
            });
            assertThat(acquires(meters, "acquired")).as("the other instance's requests are not this one's").isZero();
            // a scrape reads the semaphore once and its gauges share that read for a moment (PoolMetrics)
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> gauge(meters, "poolkit.semaphore.used") == 0);
        }));
    }

    @Test
    void anEndpointReadAndAScrapeOfAClusterSemaphoreCostOneScriptRunEach() {
        observed().run(context -> {
            PoolsEndpoint endpoint = context.getBean(PoolsEndpoint.class);
            MeterRegistry meters = context.getBean(MeterRegistry.class);
            // nothing is held or awaited, so no renewal runs: Redis runs only the calls counted here
            try (var admin = redis.client().connect()) {
                admin.sync().configResetstat();
                assertThat(endpoint.pool("gpu-memory"))
                        .isEqualTo(new SemaphoreDescriptor(8, null, 0, 0, 8, "cluster", null));
                assertThat(admin.sync().info("commandstats")).as("Redis's own count of script runs")
                        .contains("cmdstat_evalsha:calls=1,").doesNotContain("cmdstat_eval:");

                admin.sync().configResetstat();
                assertThat(gauge(meters, "poolkit.semaphore.size")).isEqualTo(8);
                assertThat(gauge(meters, "poolkit.semaphore.used")).isZero();
                assertThat(gauge(meters, "poolkit.semaphore.waiting")).isZero();
                assertThat(gauge(meters, "poolkit.semaphore.available")).isEqualTo(8);
                assertThat(admin.sync().info("commandstats")).as("one read shared by the four gauges")
                        .contains("cmdstat_evalsha:calls=1,").doesNotContain("cmdstat_eval:");
            }
        });
    }

    @Test
    @SuppressWarnings("unchecked")
    void healthIsDownNamingTheClusterSemaphoreWhileItsRedisDoesNotAnswerAndUpOnceItDoes() throws Exception {
        observed().run(context -> {
            PoolsHealthIndicator indicator = context.getBean(PoolsHealthIndicator.class);
            assertThat(indicator.health(true).getStatus()).isEqualTo(Status.UP);
            redis.pause();
            Health down;
            try {
                down = indicator.health(true); // each read ends within the command timeout (2 s)
            } finally {
                redis.resume();
            }
            assertThat(down.getStatus()).isEqualTo(Status.DOWN);
            assertThat((Map<String, String>) down.getDetails().get("unreadable")).containsOnlyKeys("gpu-memory")
                    .hasEntrySatisfying("gpu-memory", error -> assertThat(error).contains("did not answer within"));
            Awaitility.await().atMost(Duration.ofSeconds(10))
                    .until(() -> indicator.health(true).getStatus().equals(Status.UP));
        });
    }

    private static double gauge(MeterRegistry meters, String name) {
        return meters.get(name).tag("name", "gpu-memory").gauge().value();
    }

    private static long acquires(MeterRegistry meters, String outcome) {
        return meters.get("poolkit.semaphore.acquire").tag("name", "gpu-memory").tag("outcome", outcome).timer()
                .count();
    }
}
