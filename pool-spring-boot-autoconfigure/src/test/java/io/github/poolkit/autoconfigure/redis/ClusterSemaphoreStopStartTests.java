package io.github.poolkit.autoconfigure.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.poolkit.Permit;
import io.github.poolkit.PermitSemaphore;
import io.github.poolkit.WorkerPool;
import io.github.poolkit.autoconfigure.PoolkitAutoConfiguration;
import io.github.poolkit.redis.RedisServer;
import io.github.poolkit.redis.SemaphoreUnavailableException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Cluster semaphore beans across the context's {@code stop()} and {@code start()}, and its {@code pause()} (used
 * around a checkpoint and its restore): they are paused while the context is stopped, and work again after
 * {@code start()}, as poolkit's pools do. They used to be closed by the stop for good: after {@code start()} every
 * call failed with "was closed" while the pools had reopened.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClusterSemaphoreStopStartTests {

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
                        "poolkit.semaphores.gpu-memory.lease-time=5s", "poolkit.pools.reports.capacity=1");
    }

    @Test
    void aClusterSemaphoreWorksAgainAfterTheContextIsStoppedAndStarted() {
        worksAgainAfter(ConfigurableApplicationContext::stop, ConfigurableApplicationContext::start);
    }

    @Test
    void aClusterSemaphoreWorksAgainAfterTheContextIsPausedAndStarted() {
        worksAgainAfter(ConfigurableApplicationContext::pause, ConfigurableApplicationContext::start);
    }

    @Test
    void aClusterSemaphoreWorksAgainAfterTheContextIsPausedAndRestarted() {
        worksAgainAfter(ConfigurableApplicationContext::pause, ConfigurableApplicationContext::restart);
    }

    /**
     * While stopped the semaphore refuses calls, saying it is paused; after the start it takes and gives back permits
     * again, on the connection factory's new Lettuce client, as the pool next to it takes tasks again.
     */
    private void worksAgainAfter(Consumer<ConfigurableApplicationContext> stop,
            Consumer<ConfigurableApplicationContext> start) {
        runner.run(context -> {
            PermitSemaphore gpu = context.getBean("gpu-memory", PermitSemaphore.class);
            WorkerPool reports = context.getBean("reports", WorkerPool.class);
            assertThat(gpu.used()).isZero();

            stop.accept(context);
            assertThat(reports.isClosed()).isTrue();
            assertThatThrownBy(() -> gpu.tryAcquire(1)).isInstanceOf(SemaphoreUnavailableException.class)
                    .hasMessageContaining("is paused");

            start.accept(context);
            assertThat(reports.isClosed()).isFalse();
            try (Permit permit = gpu.acquirePermit(3)) {
                assertThat(permit.permits()).isEqualTo(3);
                assertThat(gpu.used()).isEqualTo(3);
            }
            assertThat(gpu.tryAcquire(8)).isTrue();
            gpu.release(8);
            assertThat(gpu.used()).isZero();
        });
    }

    /**
     * A stop withdraws the requests waiting in line at once (another instance sees the line empty), and a lease held
     * through a short stop stays its holder's: renewed again after the start, it outlives its lease time.
     */
    @Test
    void aStopWithdrawsTheWaitersAndALeaseHeldThroughItIsRenewedAfterTheStart() {
        runner.run(other -> runner.run(context -> {
            PermitSemaphore mine = context.getBean("gpu-memory", PermitSemaphore.class);
            PermitSemaphore theirs = other.getBean("gpu-memory", PermitSemaphore.class);
            Permit kept = mine.acquirePermit(2);
            Permit taken = theirs.acquirePermit(6);
            CompletableFuture<Permit> waiting = mine.acquireAsync(1);
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> theirs.waiting() == 1);

            context.stop();
            assertThat(waiting).failsWithin(Duration.ofSeconds(10)).withThrowableThat()
                    .withCauseInstanceOf(SemaphoreUnavailableException.class).withMessageContaining("is paused");
            assertThat(theirs.waiting()).as("withdrawn at once, not after the lease time").isZero();

            context.start();
            // longer than the lease time of 5 s: only renewals keep the lease
            Awaitility.await().during(Duration.ofSeconds(6)).atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(200)).until(() -> kept.isValid() && theirs.used() == 8);
            kept.close();
            taken.close();
            assertThat(theirs.used()).isZero();
        }));
    }

    /**
     * A start while Redis is down brings the pools back all the same (the semaphore's failed resume does not fail the
     * start, which would leave them closed); the semaphore stays paused and resumes on its own once Redis is back.
     */
    @Test
    void aStartWhileRedisIsDownBringsThePoolsBackAndTheSemaphoreResumesOnceRedisIsBack() {
        runner.run(context -> {
            PermitSemaphore gpu = context.getBean("gpu-memory", PermitSemaphore.class);
            WorkerPool reports = context.getBean("reports", WorkerPool.class);
            context.stop();
            redis.kill();
            try {
                context.start();
                assertThat(reports.isClosed()).isFalse();
                assertThatThrownBy(() -> gpu.tryAcquire(1)).isInstanceOf(SemaphoreUnavailableException.class)
                        .hasMessageContaining("is paused");
            } finally {
                redis.restart();
            }
            Awaitility.await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> gpu.tryAcquire(1));
            gpu.release(1);
            assertThat(gpu.used()).isZero();
        });
    }

    /** A context closed while stopped closes its cluster semaphores for good (their destroy method). */
    @Test
    void closingAStoppedContextClosesItsClusterSemaphores() {
        runner.run(context -> {
            PermitSemaphore gpu = context.getBean("gpu-memory", PermitSemaphore.class);
            context.stop();
            context.close();
            assertThatThrownBy(() -> gpu.tryAcquire(1)).isInstanceOf(SemaphoreUnavailableException.class)
                    .hasMessageContaining("was closed");
        });
    }

    /** Poolkit's pools drain before the cluster semaphores pause, so a task may still use one during the stop. */
    @Test
    void aTaskDrainingOnStopCanStillTakePermits() {
        runner.run(context -> {
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
            Thread stopper = new Thread(context::stop, "stopper");
            stopper.start();
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(reports::isShutdown); // the drain has begun
            go.countDown();
            assertThat(usedWhileDraining.get(10, TimeUnit.SECONDS)).isEqualTo(2);
            stopper.join(TimeUnit.SECONDS.toMillis(30));
            assertThat(stopper.isAlive()).isFalse();
            context.start();
            assertThat(gpu.used()).isZero();
        });
    }
}
