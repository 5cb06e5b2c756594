package io.github.poolkit.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.github.poolkit.DelayScheduler;
import io.github.poolkit.OverdueTask;
import io.github.poolkit.WorkerPool;
import io.github.poolkit.autoconfigure.OverdueInheritanceTests.Blocking;
import io.github.poolkit.autoconfigure.OverdueInheritanceTests.Reports;

/**
 * {@code poolkit.scheduler.run-timeout}, {@code queue-timeout} and {@code interrupt-overdue}: accepted at start-up,
 * each overriding the value the scheduler would inherit from {@code poolkit.pool}, proved by what the scheduler does;
 * a bad value stops start-up with the failure analysis naming the scheduler's key.
 */
@Timeout(30)
class SchedulerOverdueKeysTests {

    private static final Duration PATIENCE = Duration.ofSeconds(10);

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(PoolkitAutoConfiguration.class))
            .withPropertyValues("poolkit.semaphore.enabled=false").withBean(Reports.class);

    @RepeatedTest(5)
    void theSchedulersOwnRunTimeoutAndInterruptOverrideThePools() {
        runner.withPropertyValues("poolkit.pool.run-timeout=1h", "poolkit.scheduler.run-timeout=150ms",
                "poolkit.scheduler.interrupt-overdue=true").run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean("workerPool", WorkerPool.class).options().runTimeout())
                            .as("the pool keeps its own").isEqualTo(Duration.ofHours(1));
                    assertThat(context.getBean("workerPool", WorkerPool.class).options().interruptOverdue())
                            .isFalse();
                    Blocking job = new Blocking("nightly-export");
                    context.getBean(DelayScheduler.class).scheduleOnce(job, Duration.ZERO);
                    try {
                        assertThat(job.interrupted.await(PATIENCE.toSeconds(), TimeUnit.SECONDS))
                                .as("interrupted after the scheduler's 150ms, not the pool's hour").isTrue();
                        Reports reports = context.getBean(Reports.class);
                        await().atMost(PATIENCE).until(() -> !reports.received.isEmpty());
                        OverdueTask task = reports.received.get(0);
                        assertThat(task.pool()).isEqualTo("delayScheduler");
                        assertThat(task.kind()).isEqualTo(OverdueTask.Kind.RUN);
                        assertThat(task.task()).isEqualTo("nightly-export");
                    }
                    finally {
                        job.release.countDown();
                    }
                });
    }

    @RepeatedTest(5)
    void theSchedulersOwnQueueTimeout() {
        runner.withPropertyValues("poolkit.pool.enabled=false", "poolkit.scheduler.queue-timeout=150ms",
                "poolkit.scheduler.workers=1").run(context -> {
                    assertThat(context).hasNotFailed();
                    DelayScheduler scheduler = context.getBean(DelayScheduler.class);
                    Reports reports = context.getBean(Reports.class);
                    Blocking blocker = new Blocking("blocker");
                    Blocking waiter = new Blocking("waiter");
                    try {
                        scheduler.scheduleOnce(blocker, Duration.ZERO);
                        assertThat(blocker.started.await(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
                        scheduler.scheduleOnce(waiter, Duration.ZERO);
                        // the waiter's report, whatever came first (a blocker slow to start may be reported too)
                        await().atMost(PATIENCE).untilAsserted(() -> assertThat(reports.received)
                                .anySatisfy(task -> {
                                    assertThat(task.pool()).isEqualTo("delayScheduler");
                                    assertThat(task.kind()).isEqualTo(OverdueTask.Kind.QUEUE);
                                    assertThat(task.task()).isEqualTo("waiter");
                                }));
                    }
                    finally {
                        blocker.release.countDown();
                        waiter.release.countDown();
                    }
                });
    }

    @Test
    void aBadValueOnTheSchedulerNamesTheSchedulersKey() {
        FailureAnalysis analysis = analyze("poolkit.pool.run-timeout=5s", "poolkit.scheduler.run-timeout=0s");
        assertThat(analysis.getDescription()).contains("Property: poolkit.scheduler.run-timeout")
                .contains("must be positive").doesNotContain("Property: poolkit.pool.run-timeout");
        assertThat(analysis.getAction()).contains("change poolkit.scheduler.run-timeout");
    }

    @Test
    void interruptOverdueOnTheSchedulerWithoutAnyRunTimeoutNamesItsKeys() {
        FailureAnalysis analysis = analyze("poolkit.scheduler.interrupt-overdue=true");
        assertThat(analysis.getDescription()).contains("Property: poolkit.scheduler.interrupt-overdue")
                .contains("needs a runTimeout");
        assertThat(analysis.getAction()).contains("set poolkit.scheduler.run-timeout (such as 30s), or set "
                + "poolkit.scheduler.interrupt-overdue to false");
    }

    @Test
    void aBadInheritedValueTheSchedulerOverridesIsThePoolsProblemOnly() {
        FailureAnalysis analysis = analyze("poolkit.pool.queue-timeout=-1s", "poolkit.scheduler.queue-timeout=1s");
        assertThat(analysis.getDescription()).contains("Property: poolkit.pool.queue-timeout")
                .doesNotContain("poolkit.scheduler.queue-timeout");
    }

    /** Every bad overdue key of the scheduler is named in the one report, as every bad key of a pool is. */
    @Test
    void everyBadOverdueKeyOfTheSchedulerIsNamed() {
        FailureAnalysis analysis = analyze("poolkit.scheduler.run-timeout=0s", "poolkit.scheduler.queue-timeout=-1s");
        assertThat(analysis.getDescription()).contains("Property: poolkit.scheduler.run-timeout")
                .contains("Property: poolkit.scheduler.queue-timeout");
        FailureAnalysis both = analyze("poolkit.pool.run-timeout=0s", "poolkit.scheduler.queue-timeout=0s");
        assertThat(both.getDescription()).contains("Property: poolkit.pool.run-timeout")
                .contains("Property: poolkit.scheduler.queue-timeout");
    }

    private FailureAnalysis analyze(String... properties) {
        FailureAnalysis[] analysis = new FailureAnalysis[1];
        runner.withPropertyValues(properties).run(context -> {
            assertThat(context).hasFailed();
            analysis[0] = new PoolkitPropertyFailureAnalyzer().analyze(context.getStartupFailure());
        });
        assertThat(analysis[0]).as("analysis").isNotNull();
        return analysis[0];
    }
}
