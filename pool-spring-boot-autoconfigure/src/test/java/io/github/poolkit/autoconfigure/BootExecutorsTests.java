package io.github.poolkit.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.autoconfigure.task.TaskSchedulingAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.Async;
import org.springframework.scheduling.annotation.EnableAsync;
import org.springframework.scheduling.annotation.EnableScheduling;

import io.github.poolkit.DelayScheduler;
import io.github.poolkit.WorkerPool;

/**
 * Adding poolkit keeps Spring Boot's own {@code applicationTaskExecutor} and {@code taskScheduler}, and
 * {@code @Async("reports")} runs on the pool of that name.
 */
@Timeout(30)
class BootExecutorsTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(TaskExecutionAutoConfiguration.class,
                    TaskSchedulingAutoConfiguration.class, PoolkitAutoConfiguration.class))
            .withPropertyValues("poolkit.semaphore.enabled=false");

    @Test
    void bootsTaskExecutorSurvivesThePools() {
        runner.withPropertyValues("poolkit.scheduler.enabled=false", "poolkit.pools.reports.capacity=2")
                .run(context -> {
                    assertThat(context).hasBean("applicationTaskExecutor").hasBean("workerPool").hasBean("reports");
                    assertThat(context.getBean("applicationTaskExecutor")).isNotInstanceOf(WorkerPool.class);
                });
    }

    @Test
    void bootsTaskSchedulerSurvivesTheDelayScheduler() {
        runner.withUserConfiguration(SchedulingApplication.class).run(context -> {
            assertThat(context).hasSingleBean(DelayScheduler.class).hasBean("taskScheduler")
                    .hasBean("applicationTaskExecutor");
            assertThat(context.getBean("taskScheduler")).isNotInstanceOf(DelayScheduler.class);
        });
    }

    @Test
    void asyncWithAPoolsNameRunsOnThatPool() {
        runner.withUserConfiguration(AsyncApplication.class)
                .withPropertyValues("poolkit.scheduler.enabled=false", "poolkit.pools.reports.capacity=2")
                .run(context -> {
                    Reports reports = context.getBean(Reports.class);
                    assertThat(reports.threadName().get(10, TimeUnit.SECONDS)).startsWith("reports-");
                    assertThat(reports.defaultThreadName().get(10, TimeUnit.SECONDS)).doesNotStartWith("reports-")
                            .doesNotStartWith("workerPool-");
                });
    }

    @Configuration(proxyBeanMethods = false)
    @EnableScheduling
    static class SchedulingApplication {
    }

    @Configuration(proxyBeanMethods = false)
    @EnableAsync
    static class AsyncApplication {

        @Bean
        Reports reportService() {
            return new Reports();
        }
    }

    public static class Reports {

        @Async("reports")
        public CompletableFuture<String> threadName() {
            return CompletableFuture.completedFuture(Thread.currentThread().getName());
        }

        @Async
        public CompletableFuture<String> defaultThreadName() {
            return CompletableFuture.completedFuture(Thread.currentThread().getName());
        }
    }
}
