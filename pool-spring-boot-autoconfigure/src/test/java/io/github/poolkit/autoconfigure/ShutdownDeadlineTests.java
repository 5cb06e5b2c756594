package io.github.poolkit.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;
import org.springframework.core.task.TaskDecorator;

import io.github.poolkit.DelayScheduler;
import io.github.poolkit.WorkerPool;

/**
 * The shutdown deadline is the one the user set (the longest {@code shutdown-timeout} set, else Spring's
 * {@code spring.lifecycle.timeout-per-shutdown-phase}); at it running tasks are interrupted and every task that did
 * not finish is logged per pool and handed to the application in a {@link PoolTasksAbandonedEvent}.
 */
@Timeout(30)
@ExtendWith(OutputCaptureExtension.class)
class ShutdownDeadlineTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(PoolkitAutoConfiguration.class))
            .withUserConfiguration(AbandonedTasks.class).withPropertyValues("poolkit.semaphore.enabled=false");

    @Test
    void thePoolsOwnTimeoutAloneIsTheDeadlineNotTheSchedulersDefault(CapturedOutput output) {
        runner.withPropertyValues("poolkit.pool.shutdown-timeout=300ms").run(context -> {
            assertThat(context.getBean(PoolkitLifecycle.class).deadline()).isEqualTo(Duration.ofMillis(300));
            Blocker blocker = new Blocker(1);
            context.getBean(WorkerPool.class).execute(blocker);
            blocker.awaitStarted();
            long start = System.nanoTime();
            context.close();
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            assertThat(took).isBetween(Duration.ofMillis(250), Duration.ofSeconds(5));
            blocker.awaitCleanedUp();
            assertThat(blocker.interrupted).hasValue(1);
            assertThat(output).contains("Pool 'workerPool' did not finish within the shutdown deadline of 300ms:"
                    + " interrupted 1 running tasks, 0 tasks never started");
        });
    }

    @Test
    void withNoTimeoutSetTheLifecyclePhaseTimeoutIsTheDeadline(CapturedOutput output) {
        runner.withPropertyValues("spring.lifecycle.timeout-per-shutdown-phase=400ms").run(context -> {
            assertThat(context.getBean(PoolkitLifecycle.class).deadline()).isEqualTo(Duration.ofMillis(400));
            Blocker blocker = new Blocker(1);
            context.getBean(DelayScheduler.class).execute(blocker);
            blocker.awaitStarted();
            context.close();
            blocker.awaitCleanedUp();
            assertThat(output).contains("Scheduler 'delayScheduler' did not finish within the shutdown deadline of"
                    + " 400ms: interrupted 1 running tasks, 0 tasks never started");
        });
    }

    @Test
    void theLongestTimeoutSetWinsAndAnUnsetOneNeverCounts() {
        runner.run(context -> assertThat(context.getBean(PoolkitLifecycle.class).deadline())
                .isEqualTo(Duration.ofSeconds(30)));
        runner.withPropertyValues("poolkit.pool.shutdown-timeout=200ms", "poolkit.pools.reports.shutdown-timeout=700ms",
                "poolkit.scheduler.shutdown-timeout=100ms")
                .run(context -> assertThat(context.getBean(PoolkitLifecycle.class).deadline())
                        .isEqualTo(Duration.ofMillis(700)));
        // Zero is a value too: it beats the lifecycle's 30s default.
        runner.withPropertyValues("poolkit.scheduler.shutdown-timeout=0s")
                .run(context -> assertThat(context.getBean(PoolkitLifecycle.class).deadline()).isZero());
        // A named pool inherits poolkit.pool's value, even with the primary pool disabled.
        runner.withPropertyValues("poolkit.pool.enabled=false", "poolkit.pool.shutdown-timeout=2s",
                "poolkit.pools.reports.capacity=2", "spring.lifecycle.timeout-per-shutdown-phase=10s")
                .run(context -> assertThat(context.getBean(PoolkitLifecycle.class).deadline())
                        .isEqualTo(Duration.ofSeconds(2)));
    }

    @Test
    void atTheDeadlineRunningTasksAreInterruptedAndUnstartedOnesHandedToTheApplication(CapturedOutput output) {
        runner.withPropertyValues("poolkit.pool.capacity=2", "poolkit.pool.queue-capacity=10",
                "poolkit.pool.shutdown-timeout=300ms", "poolkit.scheduler.enabled=false").run(context -> {
                    WorkerPool pool = context.getBean(WorkerPool.class);
                    AbandonedTasks abandoned = context.getBean(AbandonedTasks.class);
                    Blocker blocker = new Blocker(2);
                    pool.execute(blocker);
                    pool.execute(blocker);
                    blocker.awaitStarted();
                    List<Runnable> queued = List.of(new Named("invoice-1"), new Named("invoice-2"),
                            new Named("invoice-3"));
                    queued.forEach(pool::execute);

                    context.close();

                    blocker.awaitCleanedUp();
                    assertThat(blocker.interrupted).hasValue(2);
                    assertThat(abandoned.events).singleElement().satisfies(event -> {
                        assertThat(event.getPoolName()).isEqualTo("workerPool");
                        assertThat(event.getSource()).isSameAs(pool);
                        assertThat(event.getUnstartedTasks()).containsExactlyElementsOf(queued);
                        assertThat(event.getInterruptedTasks()).isEqualTo(2);
                        assertThat(event.getDeadline()).isEqualTo(Duration.ofMillis(300));
                    });
                    assertThat(output).contains("Pool 'workerPool' did not finish within the shutdown deadline of"
                            + " 300ms: interrupted 2 running tasks, 3 tasks never started: [invoice-1, invoice-2,"
                            + " invoice-3]");
                    assertThat(pool.isTerminated()).isTrue();
                });
    }

    @Test
    void withATaskDecoratorTheUnstartedTasksAreStillTheOnesSubmitted(CapturedOutput output) {
        runner.withBean(TaskDecorator.class, () -> task -> () -> task.run())
                .withPropertyValues("poolkit.pool.capacity=1", "poolkit.pool.queue-capacity=10",
                        "poolkit.pool.shutdown-timeout=200ms", "poolkit.scheduler.enabled=false")
                .run(context -> {
                    WorkerPool pool = context.getBean(WorkerPool.class);
                    AbandonedTasks abandoned = context.getBean(AbandonedTasks.class);
                    Blocker blocker = new Blocker(1);
                    pool.execute(blocker);
                    blocker.awaitStarted();
                    Named queued = new Named("invoice-9");
                    pool.execute(queued);

                    context.close();

                    blocker.awaitCleanedUp();
                    assertThat(abandoned.events).singleElement()
                            .satisfies(event -> assertThat(event.getUnstartedTasks()).containsExactly(queued));
                    assertThat(output).contains("1 tasks never started: [invoice-9]");
                });
    }

    @Test
    void theSchedulerInterruptsItsRunningJobAndHandsOverTheOnesThatNeverRan(CapturedOutput output) {
        runner.withPropertyValues("poolkit.scheduler.shutdown-timeout=300ms").run(context -> {
            DelayScheduler scheduler = context.getBean(DelayScheduler.class);
            Blocker blocker = new Blocker(1);
            scheduler.execute(blocker);
            blocker.awaitStarted();
            ScheduledFuture<?> tomorrow = scheduler.scheduleOnce(new Named("reminder"), Duration.ofDays(1));
            AbandonedTasks abandoned = context.getBean(AbandonedTasks.class);

            context.close();

            blocker.awaitCleanedUp();
            assertThat(abandoned.events).singleElement().satisfies(event -> {
                assertThat(event.getPoolName()).isEqualTo("delayScheduler");
                assertThat(event.getInterruptedTasks()).isEqualTo(1);
                assertThat(event.getUnstartedTasks()).containsExactly((Runnable) tomorrow);
            });
            assertThat(tomorrow.isCancelled()).isTrue();
            assertThat(output).contains("Scheduler 'delayScheduler' did not finish within the shutdown deadline of"
                    + " 300ms: interrupted 1 running tasks, 1 tasks never started: [ScheduledJob[cancelled, reminder]]");
            assertThat(scheduler.isTerminated()).isTrue();
        });
    }

    @Test
    void aTaskWhoseToStringThrowsAndAListenerThatThrowsDoNotStopTheShutdown(CapturedOutput output) {
        runner.withUserConfiguration(ThrowingListener.class)
                .withPropertyValues("poolkit.pool.capacity=1", "poolkit.pool.queue-capacity=5",
                        "poolkit.pools.reports.capacity=1", "poolkit.pool.shutdown-timeout=200ms",
                        "poolkit.scheduler.enabled=false")
                .run(context -> {
                    Blocker blocker = new Blocker(2);
                    for (String name : new String[] { "workerPool", "reports" }) {
                        context.getBean(name, WorkerPool.class).execute(blocker);
                    }
                    blocker.awaitStarted();
                    context.getBean("workerPool", WorkerPool.class).execute(new Runnable() {
                        @Override
                        public void run() {
                        }

                        @Override
                        public String toString() {
                            throw new IllegalStateException("no name");
                        }
                    });

                    context.close();

                    blocker.awaitCleanedUp();
                    assertThat(output).contains("Pool 'workerPool' did not finish within the shutdown deadline")
                            .contains("(toString threw IllegalStateException)")
                            .contains("Pool 'reports' did not finish within the shutdown deadline")
                            .contains("A listener of PoolTasksAbandonedEvent failed for pool 'reports'");
                });
    }

    @Test
    void aListenerOfTheSpringApplicationGetsTheEventDuringClose() throws Exception {
        List<PoolTasksAbandonedEvent> events = new CopyOnWriteArrayList<>();
        SpringApplication application = new SpringApplication(Application.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        application.addListeners((ApplicationListener<ApplicationEvent>) event -> {
            if (event instanceof PoolTasksAbandonedEvent abandoned) {
                events.add(abandoned);
            }
        });
        ConfigurableApplicationContext context = application.run("--poolkit.pool.shutdown-timeout=200ms",
                "--poolkit.scheduler.enabled=false", "--poolkit.semaphore.enabled=false", "--spring.jmx.enabled=false");
        Blocker blocker = new Blocker(1);
        context.getBean(WorkerPool.class).execute(blocker);
        blocker.awaitStarted();
        context.close();
        blocker.awaitCleanedUp();
        assertThat(events).singleElement().satisfies(event -> {
            assertThat(event.getPoolName()).isEqualTo("workerPool");
            assertThat(event.getInterruptedTasks()).isEqualTo(1);
        });
    }

    /** Collects the events, as an application that persists abandoned tasks would. */
    static class AbandonedTasks {

        final List<PoolTasksAbandonedEvent> events = new CopyOnWriteArrayList<>();

        @EventListener
        void on(PoolTasksAbandonedEvent event) {
            events.add(event);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class ThrowingListener {

        @Bean
        ApplicationListener<PoolTasksAbandonedEvent> throwingListener() {
            return event -> {
                throw new IllegalStateException("listener broke");
            };
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration(PoolkitAutoConfiguration.class)
    static class Application {
    }

    /** A task that runs until interrupted, counting its interrupts and its finally blocks. */
    static final class Blocker implements Runnable {

        final AtomicInteger interrupted = new AtomicInteger();
        private final CountDownLatch started;
        private final CountDownLatch cleanedUp;
        private final CountDownLatch never = new CountDownLatch(1);

        Blocker(int runs) {
            started = new CountDownLatch(runs);
            cleanedUp = new CountDownLatch(runs);
        }

        @Override
        public void run() {
            started.countDown();
            try {
                never.await(20, TimeUnit.SECONDS);
            }
            catch (InterruptedException ex) {
                interrupted.incrementAndGet();
            }
            finally {
                cleanedUp.countDown();
            }
        }

        void awaitStarted() throws InterruptedException {
            assertThat(started.await(10, TimeUnit.SECONDS)).as("started").isTrue();
        }

        void awaitCleanedUp() throws InterruptedException {
            assertThat(cleanedUp.await(10, TimeUnit.SECONDS)).as("finally blocks ran").isTrue();
        }
    }

    /** A task that does nothing and is known by its name. */
    record Named(String name) implements Runnable {

        @Override
        public void run() {
        }

        @Override
        public String toString() {
            return name;
        }
    }
}
