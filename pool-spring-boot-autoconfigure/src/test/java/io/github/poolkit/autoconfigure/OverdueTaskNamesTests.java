package io.github.poolkit.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.task.TaskDecorator;

import io.github.poolkit.DelayScheduler;
import io.github.poolkit.OverdueTask;
import io.github.poolkit.WorkerPool;
import io.github.poolkit.autoconfigure.OverdueInheritanceTests.Blocking;
import io.github.poolkit.autoconfigure.OverdueInheritanceTests.Reports;

/**
 * An overdue task is reported by the {@code toString()} of the task the application submitted, though the
 * application's {@link TaskDecorator} wrapped it (and, for the scheduler, poolkit's own gate too): of a pool's task
 * that runs too long, one that waits too long, and a scheduler's job.
 */
@Timeout(30)
class OverdueTaskNamesTests {

    private static final Duration PATIENCE = Duration.ofSeconds(10);

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(PoolkitAutoConfiguration.class))
            .withPropertyValues("poolkit.semaphore.enabled=false", "poolkit.pool.run-timeout=150ms",
                    "poolkit.pool.queue-timeout=150ms", "poolkit.pool.capacity=1", "poolkit.pool.queue-capacity=1",
                    "poolkit.scheduler.workers=1")
            .withBean(Reports.class)
            .withBean(TaskDecorator.class, () -> task -> () -> task.run());

    @RepeatedTest(5)
    void aDecoratedTaskIsReportedByTheTaskTheApplicationSubmitted() {
        runner.run(context -> {
            Reports reports = context.getBean(Reports.class);
            Blocking running = new Blocking("export-job");
            Blocking waiting = new Blocking("waiting-job");
            Blocking job = new Blocking("nightly-job");
            try {
                WorkerPool pool = context.getBean(WorkerPool.class);
                pool.execute(running);
                pool.execute(waiting);
                context.getBean(DelayScheduler.class).scheduleOnce(job, Duration.ZERO);
                // awaited as a whole: on a slow machine a report of another kind (a job slow to start) may come first
                await().atMost(PATIENCE).untilAsserted(() -> assertThat(reports.received)
                        .extracting(OverdueTask::pool, OverdueTask::kind, OverdueTask::task)
                        .contains(tuple("workerPool", OverdueTask.Kind.RUN, "export-job"),
                                tuple("workerPool", OverdueTask.Kind.QUEUE, "waiting-job"),
                                tuple("delayScheduler", OverdueTask.Kind.RUN, "nightly-job")));
            }
            finally {
                running.release.countDown();
                waiting.release.countDown();
                job.release.countDown();
            }
        });
    }
}
