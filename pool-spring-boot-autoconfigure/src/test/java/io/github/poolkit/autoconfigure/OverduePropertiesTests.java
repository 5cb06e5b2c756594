package io.github.poolkit.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.github.poolkit.Pool;
import io.github.poolkit.PoolOptions;
import io.github.poolkit.WorkerPool;

/**
 * {@code run-timeout}, {@code queue-timeout} and {@code interrupt-overdue}: named pools and the scheduler inherit them
 * from {@code poolkit.pool}, a named pool's own value wins, and a bad value stops start-up naming the property.
 */
class OverduePropertiesTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(PoolkitAutoConfiguration.class))
            .withPropertyValues("poolkit.semaphore.enabled=false");

    @Test
    void unsetMeansNotWatched() {
        runner.run(context -> {
            PoolOptions options = context.getBean(WorkerPool.class).options();
            assertThat(options.runTimeout()).isNull();
            assertThat(options.queueTimeout()).isNull();
            assertThat(options.interruptOverdue()).isFalse();
        });
    }

    @Test
    void namedPoolsInheritThemAndANamedPoolsOwnValueWins() { // the scheduler: OverdueInheritanceTests
        runner.withPropertyValues("poolkit.pool.run-timeout=5s", "poolkit.pool.queue-timeout=2s",
                "poolkit.pool.interrupt-overdue=true", "poolkit.pools.reports.capacity=2",
                "poolkit.pools.batch.run-timeout=1m", "poolkit.pools.batch.interrupt-overdue=false").run(context -> {
                    PoolOptions primary = context.getBean("workerPool", Pool.class).options();
                    assertThat(primary.runTimeout()).isEqualTo(Duration.ofSeconds(5));
                    assertThat(primary.queueTimeout()).isEqualTo(Duration.ofSeconds(2));
                    assertThat(primary.interruptOverdue()).isTrue();
                    PoolOptions reports = context.getBean("reports", Pool.class).options();
                    assertThat(reports.runTimeout()).isEqualTo(Duration.ofSeconds(5));
                    assertThat(reports.interruptOverdue()).isTrue();
                    PoolOptions batch = context.getBean("batch", Pool.class).options();
                    assertThat(batch.runTimeout()).isEqualTo(Duration.ofMinutes(1));
                    assertThat(batch.queueTimeout()).isEqualTo(Duration.ofSeconds(2));
                    assertThat(batch.interruptOverdue()).isFalse();
                });
    }

    @Test
    void aZeroRunTimeoutStopsStartUpNamingTheProperty() {
        FailureAnalysis analysis = analyze("poolkit.pools.reports.run-timeout=0s");
        assertThat(analysis.getDescription()).contains("Property: poolkit.pools.reports.run-timeout")
                .contains("must be positive");
        assertThat(analysis.getAction()).contains("change poolkit.pools.reports.run-timeout")
                .contains("or remove it to turn it off");
    }

    /** Removing a named pool's timeout does not turn it off when poolkit.pool sets one: it inherits that one. */
    @Test
    void aZeroRunTimeoutOfANamedPoolThatWouldInheritOneSaysSo() {
        FailureAnalysis analysis = analyze("poolkit.pool.run-timeout=30s", "poolkit.pools.reports.run-timeout=0s");
        assertThat(analysis.getDescription()).contains("Property: poolkit.pools.reports.run-timeout");
        assertThat(analysis.getAction()).contains("or remove it to inherit poolkit.pool.run-timeout")
                .doesNotContain("turn it off)").doesNotContain("remove it to turn it off");
    }

    @Test
    void aNegativeQueueTimeoutInheritedByTheSchedulerNamesThePrimaryKey() {
        FailureAnalysis analysis = analyze("poolkit.pool.enabled=false", "poolkit.pool.queue-timeout=-1s");
        assertThat(analysis.getDescription()).contains("Property: poolkit.pool.queue-timeout");
    }

    @Test
    void interruptOverdueWithoutRunTimeoutStopsStartUp() {
        FailureAnalysis analysis = analyze("poolkit.pool.interrupt-overdue=true");
        assertThat(analysis.getDescription()).contains("Property: poolkit.pool.interrupt-overdue")
                .contains("needs a runTimeout");
        assertThat(analysis.getAction())
                .contains("set poolkit.pool.run-timeout (such as 30s), or set poolkit.pool.interrupt-overdue to false");
    }

    @Test
    void interruptOverdueWithoutRunTimeoutOnANamedPoolNamesItsOwnKeys() {
        FailureAnalysis analysis = analyze("poolkit.pools.reports.interrupt-overdue=true");
        assertThat(analysis.getDescription()).contains("Property: poolkit.pools.reports.interrupt-overdue")
                .contains("Value:    true");
        assertThat(analysis.getAction()).contains("set poolkit.pools.reports.run-timeout (such as 30s), or set "
                + "poolkit.pools.reports.interrupt-overdue to false");
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
