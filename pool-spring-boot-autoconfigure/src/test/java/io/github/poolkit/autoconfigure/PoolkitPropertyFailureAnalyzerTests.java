package io.github.poolkit.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;

/**
 * Invalid configuration stops start-up, and the failure analysis names the full property key, the value and the fix.
 */
class PoolkitPropertyFailureAnalyzerTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(PoolkitAutoConfiguration.class))
            .withPropertyValues("poolkit.semaphore.enabled=false", "poolkit.scheduler.enabled=false");

    @Test
    void negativeExpiryOfANamedPool() {
        FailureAnalysis analysis = analyze("poolkit.pools.reports.expiry=-1s");
        assertThat(analysis.getDescription()).contains("poolkit.pools.reports.expiry").contains("-1s")
                .contains("negative expiry");
        assertThat(analysis.getAction()).contains("positive duration")
                .contains("poolkit.pools.reports.disable-purge to true");
    }

    @Test
    void inheritedNegativeExpiryIsReportedUnderThePrimaryKey() {
        FailureAnalysis analysis = analyze("poolkit.pool.expiry=-2s", "poolkit.pool.enabled=false",
                "poolkit.pools.reports.capacity=2");
        assertThat(analysis.getDescription()).contains("Property: poolkit.pool.expiry").contains("-2s");
        assertThat(analysis.getAction()).contains("set poolkit.pool.expiry to a positive duration")
                .contains("poolkit.pools.reports.disable-purge to true");
    }

    @Test
    void preAllocWithUnlimitedCapacity() {
        FailureAnalysis analysis = analyze("poolkit.pool.capacity=0", "poolkit.pools.reports.pre-alloc=true");
        assertThat(analysis.getDescription()).contains("Property: poolkit.pools.reports.pre-alloc")
                .contains("Value:    true").contains("poolkit.pool.capacity is 0 (unlimited)");
        assertThat(analysis.getAction()).contains("set poolkit.pools.reports.capacity to a positive number")
                .contains("poolkit.pools.reports.pre-alloc to false");
    }

    @Test
    void negativeMaxBlockingTasks() {
        FailureAnalysis analysis = analyze("poolkit.pool.max-blocking-tasks=-1");
        assertThat(analysis.getDescription()).contains("poolkit.pool.max-blocking-tasks").contains("-1");
        assertThat(analysis.getAction()).contains("to 0 (no limit) or a positive number");
    }

    @Test
    void queueCapacityBelowMinusOne() {
        FailureAnalysis analysis = analyze("poolkit.pools.reports.queue-capacity=-2");
        assertThat(analysis.getDescription()).contains("poolkit.pools.reports.queue-capacity").contains("-2");
        assertThat(analysis.getAction()).contains("to -1, 0 or a positive number");
    }

    @Test
    void negativeShutdownTimeout() {
        FailureAnalysis analysis = analyze("poolkit.pool.shutdown-timeout=-5s");
        assertThat(analysis.getDescription()).contains("poolkit.pool.shutdown-timeout").contains("-5s");
        assertThat(analysis.getAction()).contains("zero or a positive duration");
    }

    @Test
    void negativeSemaphoreSize() {
        FailureAnalysis analysis = analyze("poolkit.semaphores.gpu-memory.size=-1");
        assertThat(analysis.getDescription()).contains("poolkit.semaphores.gpu-memory.size").contains("-1");
        assertThat(analysis.getAction()).contains("zero or a positive number of permits");
    }

    @Test
    void negativePrimarySemaphoreSize() {
        FailureAnalysis analysis = analyze("poolkit.semaphore.enabled=true", "poolkit.semaphore.size=-3");
        assertThat(analysis.getDescription()).contains("poolkit.semaphore.size").contains("-3");
    }

    @Test
    void schedulerWithoutWorkers() {
        FailureAnalysis analysis = analyze("poolkit.scheduler.enabled=true", "poolkit.scheduler.workers=0");
        assertThat(analysis.getDescription()).contains("poolkit.scheduler.workers").contains("Value:    0");
        assertThat(analysis.getAction()).contains("poolkit.scheduler.workers to a positive number");
    }

    @Test
    void poolAndSemaphoreOfTheSameName() {
        FailureAnalysis analysis = analyze("poolkit.pools.shared.capacity=2", "poolkit.semaphores.shared.size=2");
        assertThat(analysis.getDescription()).contains("poolkit.semaphores.shared").contains("shared")
                .contains("poolkit.pools.shared");
        assertThat(analysis.getAction()).contains("rename the pool or the semaphore");
    }

    @Test
    @ExtendWith(OutputCaptureExtension.class)
    void reportIsPrintedWhenAnApplicationFailsToStart(CapturedOutput output) {
        SpringApplication application = new SpringApplication(MinimalApplication.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        assertThatThrownBy(() -> application.run("--poolkit.pools.reports.expiry=-1s",
                "--poolkit.semaphore.enabled=false", "--poolkit.scheduler.enabled=false"))
                .hasRootCauseInstanceOf(InvalidPoolkitPropertyException.class);
        assertThat(output).contains("APPLICATION FAILED TO START").contains("poolkit.pools.reports.expiry")
                .contains("Update your application's configuration");
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

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration(PoolkitAutoConfiguration.class)
    static class MinimalApplication {
    }
}
