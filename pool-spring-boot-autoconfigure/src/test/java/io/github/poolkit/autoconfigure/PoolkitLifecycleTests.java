package io.github.poolkit.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import io.github.poolkit.PoolOptions;
import io.github.poolkit.WorkerPool;

/**
 * Context close: pools are released in order, wait for running and queued tasks up to their shutdown timeout, and
 * report what did not finish.
 */
@Timeout(30)
class PoolkitLifecycleTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(PoolkitAutoConfiguration.class))
            .withPropertyValues("poolkit.semaphore.enabled=false", "poolkit.scheduler.enabled=false");

    @Test
    void closeWaitsForRunningAndQueuedTasks() {
        runner.withPropertyValues("poolkit.pool.capacity=1", "poolkit.pool.queue-capacity=5").run(context -> {
            WorkerPool pool = context.getBean(WorkerPool.class);
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            AtomicInteger done = new AtomicInteger();
            pool.execute(() -> {
                started.countDown();
                waitFor(release);
                done.incrementAndGet();
            });
            for (int i = 0; i < 3; i++) {
                pool.execute(done::incrementAndGet);
            }
            assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
            CompletableFuture<Void> closing = CompletableFuture.runAsync(context::close);
            await().atMost(10, TimeUnit.SECONDS).until(pool::isClosed);
            assertThat(closing).isNotDone();
            assertThat(done).hasValue(0);
            release.countDown();
            closing.get(10, TimeUnit.SECONDS);
            assertThat(done).hasValue(4);
            assertThat(pool.isTerminated()).isTrue();
        });
    }

    @Test
    @ExtendWith(OutputCaptureExtension.class)
    void closeGivesUpAfterTheShutdownTimeoutAndSaysWhatIsLeft(CapturedOutput output) {
        runner.withPropertyValues("poolkit.pools.reports.shutdown-timeout=100ms").run(context -> {
            WorkerPool reports = context.getBean("reports", WorkerPool.class);
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch finished = new CountDownLatch(1);
            reports.execute(() -> {
                started.countDown();
                waitFor(release);
                finished.countDown();
            });
            assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
            context.close();
            assertThat(output).contains("Pool 'reports' released but it did not finish within PT0.1S: 1 workers"
                    + " still running");
            assertThat(reports.isClosed()).isTrue();
            release.countDown();
            assertThat(finished.await(10, TimeUnit.SECONDS)).isTrue();
        });
    }

    @Test
    void poolsAreReleasedNewestFirstEachAfterItsTasksFinish() throws Exception {
        PoolkitLifecycle lifecycle = new PoolkitLifecycle();
        WorkerPool older = WorkerPool.create(1, PoolOptions.builder().name("older").build());
        WorkerPool newer = WorkerPool.create(1, PoolOptions.builder().name("newer").build());
        lifecycle.manage("older", older, Duration.ofSeconds(10));
        lifecycle.manage("newer", newer, Duration.ofSeconds(10));
        lifecycle.start();
        CompletableFuture<Boolean> olderOpenWhileNewerDrains = new CompletableFuture<>();
        CountDownLatch started = new CountDownLatch(1);
        newer.execute(() -> {
            started.countDown();
            await().atMost(10, TimeUnit.SECONDS).until(newer::isClosed);
            olderOpenWhileNewerDrains.complete(!older.isClosed());
        });
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        lifecycle.stop();
        assertThat(olderOpenWhileNewerDrains.get(10, TimeUnit.SECONDS)).isTrue();
        assertThat(older.isClosed()).isTrue();
        assertThat(newer.isTerminated()).isTrue();
        assertThat(lifecycle.isRunning()).isFalse();
    }

    @Test
    void aPoolReleasedByTheApplicationIsLeftAlone() {
        PoolkitLifecycle lifecycle = new PoolkitLifecycle();
        WorkerPool pool = WorkerPool.create(1);
        lifecycle.manage("pool", pool, Duration.ofSeconds(1));
        pool.release();
        lifecycle.stop();
        assertThat(pool.isClosed()).isTrue();
    }

    @Test
    void destroyMethodIsTheNonBlockingReleaseNotTheInferredClose() {
        runner.withPropertyValues("poolkit.pools.reports.capacity=2").run(context -> {
            for (String name : new String[] { "workerPool", "reports" }) {
                String destroyMethod = context.getBeanFactory().getBeanDefinition(name).getDestroyMethodName();
                assertThat(destroyMethod).as(name).isEqualTo("release");
            }
        });
    }

    @Test
    void phaseIsAfterTheWebServersStop() {
        assertThat(new PoolkitLifecycle().getPhase()).isLessThan(Integer.MAX_VALUE - 2048);
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
