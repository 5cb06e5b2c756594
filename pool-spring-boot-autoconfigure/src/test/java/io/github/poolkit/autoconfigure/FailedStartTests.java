package io.github.poolkit.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.poolkit.DelayScheduler;
import io.github.poolkit.WorkerPool;

/**
 * A start-up that fails after poolkit created its pools and scheduler (a later bean throws): the context is never
 * refreshed, so no lifecycle stops them; their destroy methods must still leave no poolkit thread behind, and no job
 * of the scheduler may run later against the dead application.
 */
@Timeout(60)
@ExtendWith(OutputCaptureExtension.class)
class FailedStartTests {

    private static final AtomicInteger LATE_RUNS = new AtomicInteger();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(PoolkitAutoConfiguration.class))
            .withPropertyValues("poolkit.pools.failed-start-reports.capacity=2",
                    "spring.lifecycle.timeout-per-shutdown-phase=1s")
            .withUserConfiguration(UsesThePoolsThenFails.class);

    @Test
    void aFailedStartLeavesNoPoolkitThreadAndRunsNoJobLater() {
        LATE_RUNS.set(0);
        Set<Thread> before = Set.copyOf(Thread.getAllStackTraces().keySet());
        runner.run(context -> assertThat(context).hasFailed());
        await().atMost(10, TimeUnit.SECONDS).untilAsserted(() -> assertThat(poolkitThreads(before)).isEmpty());
        assertThat(LATE_RUNS).as("jobs run after the failed start").hasValue(0);
    }

    @Test
    void aTaskStillRunningAtTheDeadlineOfAFailedStartIsInterruptedAndReported(CapturedOutput output) {
        Set<Thread> before = Set.copyOf(Thread.getAllStackTraces().keySet());
        CountDownLatch never = new CountDownLatch(1);
        AtomicBoolean interrupted = new AtomicBoolean();
        runner.withBean("stuckTask", Runnable.class, () -> () -> {
            try {
                never.await();
            }
            catch (InterruptedException ex) {
                interrupted.set(true);
            }
        }).run(context -> assertThat(context).hasFailed());
        await().atMost(10, TimeUnit.SECONDS).untilAsserted(() -> assertThat(poolkitThreads(before)).isEmpty());
        assertThat(interrupted).isTrue();
        assertThat(output).contains("Pool 'workerPool' did not finish within the shutdown deadline of 1s: "
                + "interrupted 1 running tasks");
    }

    /** @return the poolkit threads alive now that were not alive before (other tests may run beside this one) */
    private static List<String> poolkitThreads(Set<Thread> before) {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive)
                .filter(thread -> !before.contains(thread)).map(Thread::getName)
                .filter(name -> name.startsWith("failed-start-") || name.startsWith("workerPool")
                        || name.startsWith("delayScheduler"))
                .toList();
    }

    @Configuration(proxyBeanMethods = false)
    static class UsesThePoolsThenFails {

        @Bean
        StartupWork startupWork(WorkerPool workerPool, DelayScheduler delayScheduler,
                org.springframework.beans.factory.BeanFactory beanFactory) {
            WorkerPool reports = beanFactory.getBean("failed-start-reports", WorkerPool.class);
            workerPool.execute(() -> { });
            reports.execute(() -> { });
            delayScheduler.scheduleAtFixedRate(LATE_RUNS::incrementAndGet, 1, 1, TimeUnit.HOURS);
            delayScheduler.schedule(LATE_RUNS::incrementAndGet, Duration.ofHours(1).toMillis(),
                    TimeUnit.MILLISECONDS);
            return new StartupWork();
        }

        @Bean
        Object failing(StartupWork startupWork, ObjectProvider<Runnable> stuckTask, WorkerPool workerPool) {
            stuckTask.ifAvailable(workerPool::execute);
            throw new IllegalStateException("this bean fails the start-up");
        }
    }

    /** What the application did with the pools before the start-up failed. */
    static final class StartupWork {
    }
}
