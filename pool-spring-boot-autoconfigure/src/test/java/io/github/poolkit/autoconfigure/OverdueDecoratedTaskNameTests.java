package io.github.poolkit.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.task.TaskDecorator;

import io.github.poolkit.DelayScheduler;
import io.github.poolkit.OverdueTask;
import io.github.poolkit.PoolOptions;
import io.github.poolkit.WorkerPool;
import io.github.poolkit.autoconfigure.actuate.PoolkitBeans;
import io.github.poolkit.autoconfigure.actuate.PoolsEndpoint;
import io.github.poolkit.autoconfigure.actuate.PoolsEndpoint.PoolDescriptor;

/**
 * With the application's {@link TaskDecorator}, an overdue report still names the task the application gave, however
 * it gave it: {@code execute}, {@code submit} of a runnable or a callable, or a scheduler's job.
 */
@Timeout(30)
class OverdueDecoratedTaskNameTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(PoolkitAutoConfiguration.class))
            .withPropertyValues("poolkit.pool.run-timeout=200ms", "poolkit.pool.capacity=8",
                    "poolkit.semaphore.enabled=false", "poolkit.scheduler.workers=2")
            .withUserConfiguration(Decorated.class);

    /** A task named for the reports that blocks until released. */
    record Named(String name, CountDownLatch release) implements Runnable, Callable<String> {
        @Override
        public void run() {
            call();
        }

        @Override
        public String call() {
            try {
                release.await(20, TimeUnit.SECONDS);
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
            return name;
        }

        @Override
        public String toString() {
            return name;
        }
    }

    @Test
    void aDecoratedTaskIsReportedByTheTaskTheApplicationGave() {
        runner.run(context -> {
            WorkerPool pool = context.getBean("workerPool", WorkerPool.class);
            DelayScheduler scheduler = context.getBean(DelayScheduler.class);
            Events events = context.getBean(Events.class);
            CountDownLatch release = new CountDownLatch(1);
            try {
                pool.execute(new Named("executed", release));
                pool.submit((Runnable) new Named("submitted-runnable", release));
                pool.submit((Callable<String>) new Named("submitted-callable", release));
                scheduler.scheduleOnce(new Named("scheduled", release), Duration.ZERO);
                await().atMost(Duration.ofSeconds(10)).until(() -> events.tasks.size() >= 4);
                assertThat(events.tasks).extracting(OverdueTask::task).containsExactlyInAnyOrder("executed",
                        "submitted-runnable", "submitted-callable", "scheduled");
            }
            finally {
                release.countDown();
            }
        });
    }

    /** A pool exposed under a second bean name (an alias for {@code @Async}, say) reports each overdue task once. */
    @Test
    void aPoolUnderTwoBeanNamesReportsEachOverdueTaskOnce() {
        runner.withPropertyValues("poolkit.pools.reports.capacity=2")
                .withInitializer(context -> ((GenericApplicationContext) context).registerBean("mailExecutor",
                        WorkerPool.class, () -> context.getBean("reports", WorkerPool.class)))
                .run(context -> {
                    WorkerPool reports = context.getBean("reports", WorkerPool.class);
                    assertThat(context.getBean("mailExecutor")).isSameAs(reports);
                    Events events = context.getBean(Events.class);
                    CountDownLatch release = new CountDownLatch(1);
                    try {
                        reports.execute(new Named("slow-mail", release));
                        await().atMost(Duration.ofSeconds(10)).until(() -> events.tasks.size() >= 1);
                        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5))
                                .until(() -> events.tasks.size() == 1);
                    }
                    finally {
                        release.countDown();
                    }
                });
    }

    /**
     * A pool the application made, under its own name and an alias that sorts first: its overdue tasks are logged,
     * published under its own name, the name its meters have, not under the alias; the endpoint lists them under
     * either name.
     */
    @Test
    @ExtendWith(OutputCaptureExtension.class)
    void anApplicationPoolUnderTwoNamesReportsUnderItsOwnName(CapturedOutput output) {
        runner.withInitializer(context -> {
            GenericApplicationContext generic = (GenericApplicationContext) context;
            generic.registerBean("reports", WorkerPool.class, () -> WorkerPool.create(2, PoolOptions.builder()
                    .name("reports").runTimeout(Duration.ofMillis(200)).build()));
            generic.registerBean("applicationAlias", WorkerPool.class,
                    () -> context.getBean("reports", WorkerPool.class));
        }).run(context -> {
            WorkerPool reports = context.getBean("reports", WorkerPool.class);
            assertThat(context.getBean("applicationAlias")).isSameAs(reports);
            PoolOverdueLog log = context.getBean(PoolOverdueLog.class);
            CountDownLatch release = new CountDownLatch(1);
            try {
                reports.execute(new Named("slow", release));
                await().atMost(Duration.ofSeconds(10)).until(() -> !PoolOverdueLog.recentOf(log, reports).isEmpty());
                assertThat(output).contains("Overdue task on pool 'reports'")
                        .doesNotContain("Overdue task on pool 'applicationAlias'");
                PoolsEndpoint endpoint = new PoolsEndpoint(new PoolkitBeans(context), null, log);
                assertThat(((PoolDescriptor) endpoint.pool("applicationAlias")).recentOverdue())
                        .as("the same pool under its alias").hasSize(1);
            }
            finally {
                release.countDown();
            }
        });
    }

    @Configuration(proxyBeanMethods = false)
    static class Decorated {

        @Bean
        TaskDecorator taskDecorator() {
            return task -> () -> task.run();
        }

        @Bean
        Events events() {
            return new Events();
        }
    }

    static class Events {

        final List<OverdueTask> tasks = new CopyOnWriteArrayList<>();

        @EventListener
        void on(PoolTaskOverdueEvent event) {
            tasks.add(event.getOverdueTask());
        }
    }
}
