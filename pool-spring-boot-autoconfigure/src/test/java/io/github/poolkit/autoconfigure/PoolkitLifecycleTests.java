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
import org.springframework.boot.LazyInitializationBeanFactoryPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.server.context.WebServerGracefulShutdownLifecycle;
import org.springframework.context.ApplicationListener;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

import io.github.poolkit.PoolOptions;
import io.github.poolkit.WorkerPool;

/**
 * Context close: every pool stops accepting at once, all drain together within one deadline, and what did not finish
 * is reported per pool ({@link ShutdownDeadlineTests} has the deadline's rule and what happens at it).
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

    /**
     * A lazy pool first asked for by a task that runs while the context closes (draining its own pool) takes no tasks,
     * as every other pool stopped taking them when the close began: it would otherwise run them outside the close's
     * deadline, its interrupt and its report.
     */
    @Test
    void aLazyPoolMadeDuringTheCloseTakesNoTasks() {
        runner.withPropertyValues("poolkit.pools.late.capacity=1")
                .withBean(LazyInitializationBeanFactoryPostProcessor.class).run(context -> {
                    WorkerPool pool = context.getBean(WorkerPool.class);
                    PoolkitLifecycle lifecycle = context.getBean(PoolkitLifecycle.class);
                    CompletableFuture<String> lateAnswer = new CompletableFuture<>();
                    CountDownLatch started = new CountDownLatch(1);
                    pool.execute(() -> {
                        started.countDown();
                        while (lifecycle.isRunning()) { // until the close has begun stopping the pools
                            Thread.onSpinWait();
                        }
                        try {
                            context.getBean("late", WorkerPool.class).execute(() -> { });
                            lateAnswer.complete("accepted");
                        }
                        catch (RuntimeException ex) {
                            lateAnswer.complete(ex.getClass().getSimpleName());
                        }
                    });
                    assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
                    assertThat(context.getBeanFactory().containsSingleton("late")).as("not made yet").isFalse();
                    context.close();
                    assertThat(lateAnswer.get(10, TimeUnit.SECONDS)).isEqualTo("PoolClosedException");
                });
    }

    @Test
    @ExtendWith(OutputCaptureExtension.class)
    void slowPoolsDrainTogetherWithinOneDeadlineNotOneEach(CapturedOutput output) {
        String[] names = { "a", "b", "c", "d" };
        runner.withPropertyValues("poolkit.pool.shutdown-timeout=1s", "poolkit.pools.a.capacity=1",
                "poolkit.pools.b.capacity=1", "poolkit.pools.c.capacity=1", "poolkit.pools.d.capacity=1")
                .run(context -> {
                    CountDownLatch started = new CountDownLatch(names.length);
                    CountDownLatch release = new CountDownLatch(1);
                    for (String name : names) {
                        context.getBean(name, WorkerPool.class).execute(() -> {
                            started.countDown();
                            waitFor(release);
                        });
                    }
                    assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
                    long start = System.nanoTime();
                    context.close();
                    Duration took = Duration.ofNanos(System.nanoTime() - start);
                    release.countDown();
                    // One deadline of 1s for all four, not 4 x 1s one after another (the tasks end when interrupted).
                    assertThat(took).isBetween(Duration.ofMillis(900), Duration.ofMillis(3500)); // 4 s if one by one
                    for (String name : names) {
                        assertThat(output).contains("Pool '" + name + "' did not finish within the shutdown deadline");
                    }
                });
    }

    @Test
    void everyPoolStopsAcceptingBeforeAnyIsWaitedFor() throws Exception {
        PoolkitLifecycle lifecycle = new PoolkitLifecycle();
        WorkerPool older = WorkerPool.create(1, PoolOptions.builder().name("older").build());
        WorkerPool newer = WorkerPool.create(1, PoolOptions.builder().name("newer").build());
        lifecycle.manage("older", older, Duration.ofSeconds(10));
        lifecycle.manage("newer", newer, Duration.ofSeconds(10));
        lifecycle.start();
        CompletableFuture<Boolean> sawTheOtherClosed = new CompletableFuture<>();
        CountDownLatch started = new CountDownLatch(1);
        // A task of each pool that ends only once the other pool refuses work: with one pool drained after the
        // other, the first one waited for would never finish in time.
        newer.execute(() -> {
            started.countDown();
            await().atMost(10, TimeUnit.SECONDS).until(older::isClosed);
            sawTheOtherClosed.complete(true);
        });
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        long start = System.nanoTime();
        lifecycle.stop();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
        assertThat(sawTheOtherClosed.get(10, TimeUnit.SECONDS)).isTrue();
        assertThat(newer.isTerminated()).isTrue();
        assertThat(older.isTerminated()).isTrue();
        assertThat(lifecycle.isRunning()).isFalse();
    }

    /**
     * A close whose event poolkit never hears (another close listener, ordered first, throws: Spring stops notifying,
     * then stops the lifecycles) is still a close: poolkit closes once, not as a pause followed by a second drain at
     * destroy (two reports, twice the deadline, a scheduler only paused until then).
     */
    @Test
    @ExtendWith(OutputCaptureExtension.class)
    void aCloseWhoseEventPoolkitMissedIsStillAClose(CapturedOutput output) {
        runner.withPropertyValues("poolkit.pools.stuck.capacity=1", "poolkit.pools.stuck.shutdown-timeout=100ms")
                .withBean(ThrowingCloseListener.class).run(context -> {
                    WorkerPool stuck = context.getBean("stuck", WorkerPool.class);
                    CountDownLatch started = new CountDownLatch(1);
                    stuck.execute(() -> {
                        started.countDown();
                        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1500);
                        while (System.nanoTime() < end) { // busy work that ignores the interrupt
                            Thread.onSpinWait();
                        }
                    });
                    waitFor(started);
                });
        assertThat(output.getOut().split("Pool 'stuck' did not finish within the shutdown deadline", -1))
                .as("reported once").hasSize(2);
    }

    /** A close listener, ordered before poolkit's, that throws. */
    @Order(Ordered.HIGHEST_PRECEDENCE)
    static class ThrowingCloseListener implements ApplicationListener<ContextClosedEvent> {

        @Override
        public void onApplicationEvent(ContextClosedEvent event) {
            throw new IllegalStateException("expected by the test: a close listener that fails");
        }
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
    void phaseIsBelowTheWebServersSoItStopsAfterTheyHaveDrained() {
        // Lifecycles stop from the highest phase down: graceful shutdown first, then the server, then poolkit.
        assertThat(new PoolkitLifecycle().getPhase())
                .isLessThan(WebServerGracefulShutdownLifecycle.SMART_LIFECYCLE_PHASE)
                .isLessThan(SmartLifecycle.DEFAULT_PHASE - 2048);
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
