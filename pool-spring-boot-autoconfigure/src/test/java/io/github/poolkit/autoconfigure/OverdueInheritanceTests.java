package io.github.poolkit.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationListener;

import io.github.poolkit.DelayScheduler;
import io.github.poolkit.OverdueTask;
import io.github.poolkit.WorkerPool;

/**
 * The scheduler and named pools inherit each overdue key of {@code poolkit.pool}, proved by what they do: the
 * scheduler reports a due job that waits for its one worker past the inherited {@code queue-timeout}, and interrupts
 * a job past the inherited {@code run-timeout} when {@code interrupt-overdue} is inherited; so does a named pool.
 */
@Timeout(30)
class OverdueInheritanceTests {

    private static final Duration PATIENCE = Duration.ofSeconds(10);

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(PoolkitAutoConfiguration.class))
            .withPropertyValues("poolkit.semaphore.enabled=false").withBean(Reports.class);

    @RepeatedTest(5)
    void theSchedulerInheritsTheQueueTimeout() {
        runner.withPropertyValues("poolkit.pool.enabled=false", "poolkit.pool.queue-timeout=150ms",
                "poolkit.scheduler.workers=1").run(context -> {
                    DelayScheduler scheduler = context.getBean(DelayScheduler.class);
                    Reports reports = context.getBean(Reports.class);
                    Blocking blocker = new Blocking("blocker");
                    Blocking waiter = new Blocking("waiter");
                    try {
                        scheduler.scheduleOnce(blocker, Duration.ZERO);
                        assertThat(blocker.started.await(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
                        scheduler.scheduleOnce(waiter, Duration.ZERO);
                        await().atMost(PATIENCE).until(() -> !reports.received.isEmpty());
                        OverdueTask task = reports.received.get(0);
                        assertThat(task.pool()).isEqualTo("delayScheduler");
                        assertThat(task.kind()).isEqualTo(OverdueTask.Kind.QUEUE);
                        assertThat(task.task()).isEqualTo("waiter");
                        assertThat(waiter.started.getCount()).as("still waiting when reported").isEqualTo(1);
                    }
                    finally {
                        blocker.release.countDown();
                        waiter.release.countDown();
                    }
                });
    }

    @RepeatedTest(5)
    void theSchedulerAndNamedPoolsInheritInterruptOverdue() {
        runner.withPropertyValues("poolkit.pool.run-timeout=150ms", "poolkit.pool.interrupt-overdue=true",
                "poolkit.pools.reports.capacity=1").run(context -> {
                    Blocking job = new Blocking("nightly-export");
                    context.getBean(DelayScheduler.class).scheduleOnce(job, Duration.ZERO);
                    Blocking task = new Blocking("report");
                    context.getBean("reports", WorkerPool.class).execute(task);
                    try {
                        assertThat(job.interrupted.await(PATIENCE.toSeconds(), TimeUnit.SECONDS))
                                .as("the scheduler's job was interrupted").isTrue();
                        assertThat(task.interrupted.await(PATIENCE.toSeconds(), TimeUnit.SECONDS))
                                .as("the named pool's task was interrupted").isTrue();
                        Reports reports = context.getBean(Reports.class);
                        await().atMost(PATIENCE).untilAsserted(() -> assertThat(reports.received.stream()
                                .map(OverdueTask::pool).toList()).contains("delayScheduler", "reports"));
                    }
                    finally {
                        job.release.countDown();
                        task.release.countDown();
                    }
                });
    }

    /** A task that blocks until released or interrupted, and says which. */
    static final class Blocking implements Runnable {

        final String name;
        final CountDownLatch started = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final CountDownLatch interrupted = new CountDownLatch(1);

        Blocking(String name) {
            this.name = name;
        }

        @Override
        public void run() {
            started.countDown();
            try {
                release.await(20, TimeUnit.SECONDS);
            }
            catch (InterruptedException ex) {
                interrupted.countDown();
            }
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** The overdue tasks reported, in order. */
    static final class Reports implements ApplicationListener<PoolTaskOverdueEvent> {

        final List<OverdueTask> received = new CopyOnWriteArrayList<>();

        @Override
        public void onApplicationEvent(PoolTaskOverdueEvent event) {
            received.add(event.getOverdueTask());
        }
    }
}
