package io.github.poolkit.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.poolkit.autoconfigure.redis.PoolkitRedisAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;

/**
 * Invalid configuration stops start-up, and the failure analysis names the full property key, the value and the fix.
 */
class PoolkitPropertyFailureAnalyzerTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(PoolkitAutoConfiguration.class))
            .withPropertyValues("poolkit.semaphore.enabled=false", "poolkit.scheduler.enabled=false");

    @Test
    void negativeMaxWaitOfThePrimaryPool() {
        FailureAnalysis analysis = analyze("poolkit.pool.max-wait=-1s");
        assertThat(analysis.getDescription()).contains("Property: poolkit.pool.max-wait").contains("Value:    -1s")
                .contains("max-wait must not be negative");
        assertThat(analysis.getAction()).contains("change poolkit.pool.max-wait")
                .contains("set it to 0 to fail at once, or remove it to wait without limit");
    }

    @Test
    void negativeMaxWaitOfANamedPool() {
        FailureAnalysis analysis = analyze("poolkit.pools.reports.max-wait=-1s");
        assertThat(analysis.getDescription()).contains("Property: poolkit.pools.reports.max-wait")
                .contains("Value:    -1s");
        assertThat(analysis.getAction()).contains("change poolkit.pools.reports.max-wait");
    }

    @Test
    void inheritedNegativeMaxWaitIsReportedUnderThePrimaryKey() {
        FailureAnalysis analysis = analyze("poolkit.pool.max-wait=-2s", "poolkit.pool.enabled=false",
                "poolkit.pools.reports.capacity=2");
        assertThat(analysis.getDescription()).contains("Property: poolkit.pool.max-wait").contains("-2s");
    }

    // The rules below live in the core library (PoolOptions), which reports them as InvalidOptionException; the
    // starter only maps the option to the property the value came from.

    @Test
    void negativeExpiryOfANamedPool() {
        FailureAnalysis analysis = analyze("poolkit.pools.reports.expiry=-1s");
        assertThat(analysis.getDescription()).contains("Property: poolkit.pools.reports.expiry").contains("-1s");
        assertThat(analysis.getAction()).contains("change poolkit.pools.reports.expiry");
    }

    @Test
    void inheritedNegativeExpiryIsReportedUnderThePrimaryKey() {
        FailureAnalysis analysis = analyze("poolkit.pool.expiry=-2s", "poolkit.pool.enabled=false",
                "poolkit.pools.reports.capacity=2");
        assertThat(analysis.getDescription()).contains("Property: poolkit.pool.expiry").contains("-2s");
    }

    /** The core library's fixes name builder calls, {@code Duration.ZERO} or {@code null}; the analysis names keys. */
    @Test
    void fixesAreWordedInTheConfigurationsTerms() {
        assertThat(analyze("poolkit.pools.reports.expiry=-1s").getAction()).contains("change "
                + "poolkit.pools.reports.expiry: set it to a positive duration (0 means the default, 1s), or set "
                + "poolkit.pools.reports.disable-purge to true");
        assertThat(analyze("poolkit.pools.reports.queue-timeout=0s").getAction()).contains("change "
                + "poolkit.pools.reports.queue-timeout: set it to a positive duration such as 30s, or remove it");
        assertThat(analyze("poolkit.pool.pre-alloc=true", "poolkit.pool.capacity=-1").getAction()).contains("change "
                + "poolkit.pool.pre-alloc: set poolkit.pool.capacity to a positive number, or set it to false");
        assertThat(analyze("poolkit.pool.pre-alloc=true", "poolkit.pool.virtual-threads=true").getAction())
                .contains("set it to false, or set poolkit.pool.virtual-threads to false");
        assertThat(analyze("poolkit.pools.big.pre-alloc=true", "poolkit.pools.big.capacity=20000000").getAction())
                .contains("change poolkit.pools.big.capacity: set it to at most 16777216, or set "
                        + "poolkit.pools.big.pre-alloc to false");
        for (String properties : new String[] { "poolkit.pool.max-wait=-1s", "poolkit.pool.expiry=-1s",
                "poolkit.pool.run-timeout=-1s", "poolkit.pool.pre-alloc=true,poolkit.pool.capacity=0" }) {
            assertThat(analyze(properties.split(",")).getAction()).as(properties).doesNotContain("Duration.ZERO",
                    "null", "(false)", "(true)", "disablePurge", "preAlloc");
        }
    }

    /**
     * A value a named pool inherits from {@code poolkit.pool} is at fault only with the named pool's own key beside
     * it: the fix names that own key, which wins over {@code poolkit.pool}'s, not {@code poolkit.pool}'s.
     */
    @Test
    void aFixForAnInheritedValueNamesTheOtherKeyWhereThePoolSetsIt() {
        assertThat(analyze("poolkit.pool.capacity=64", "poolkit.pool.pre-alloc=true", "poolkit.pools.burst.capacity=0")
                .getAction()).contains("change poolkit.pool.pre-alloc: set poolkit.pools.burst.capacity to a positive"
                        + " number, or set it to false");
        assertThat(analyze("poolkit.pool.expiry=-1s", "poolkit.pool.disable-purge=true",
                "poolkit.pools.reports.disable-purge=false").getAction()).contains("change poolkit.pool.expiry: set it"
                        + " to a positive duration (0 means the default, 1s), or set"
                        + " poolkit.pools.reports.disable-purge to true");
        assertThat(analyze("poolkit.pool.expiry=-1s", "poolkit.pools.reports.capacity=2").getAction())
                .contains("or set poolkit.pool.disable-purge to true");
    }

    @Test
    void queueCapacityBelowMinusOne() {
        FailureAnalysis analysis = analyze("poolkit.pools.reports.queue-capacity=-2");
        assertThat(analysis.getDescription()).contains("Property: poolkit.pools.reports.queue-capacity")
                .contains("Value:    -2");
    }

    @Test
    void negativeMaxBlockingTasksInherited() {
        FailureAnalysis analysis = analyze("poolkit.pool.max-blocking-tasks=-1", "poolkit.pools.reports.capacity=2");
        assertThat(analysis.getDescription()).contains("Property: poolkit.pool.max-blocking-tasks")
                .contains("Value:    -1");
    }

    @Test
    void clusterSemaphoreWithoutPoolRedis() {
        FailureAnalysis analysis = FailureAnalyses.analyze(
                runner.withClassLoader(new FilteredClassLoader("io.github.poolkit.redis")),
                "poolkit.semaphores.gpu-memory.scope=cluster");
        assertThat(analysis.getDescription()).contains("Property: poolkit.semaphores.gpu-memory.scope")
                .contains("Value:    cluster").contains("pool-redis");
        assertThat(analysis.getAction()).contains("io.github.poolkit:pool-redis")
                .contains("spring-boot-starter-data-redis");
    }

    @Test
    void clusterSemaphoreSizeTooLargeForRedis() {
        FailureAnalysis analysis = FailureAnalyses.analyze(withClusterSemaphores(),
                "poolkit.semaphores.gpu-memory.scope=cluster",
                "poolkit.semaphores.gpu-memory.size=9007199254740992");
        assertThat(analysis.getDescription()).contains("Property: poolkit.semaphores.gpu-memory.size")
                .contains("Value:    9007199254740992").contains("2^53 - 1");
        assertThat(analysis.getAction()).contains("set poolkit.semaphores.gpu-memory.size");
    }

    @Test
    void clusterSemaphoreLeaseTimeTooShort() {
        FailureAnalysis analysis = FailureAnalyses.analyze(withClusterSemaphores(),
                "poolkit.semaphores.gpu-memory.scope=cluster",
                "poolkit.semaphores.gpu-memory.lease-time=10ms");
        assertThat(analysis.getDescription()).contains("Property: poolkit.semaphores.gpu-memory.lease-time")
                .contains("at least 30ms");
        assertThat(analysis.getAction()).contains("such as 30s");
    }

    /** A lease longer than a long of nanoseconds is refused with the analysis, not by the bean's builder later. */
    @Test
    void clusterSemaphoreLeaseTimeTooLong() {
        FailureAnalysis analysis = FailureAnalyses.analyze(withClusterSemaphores(),
                "poolkit.semaphores.gpu-memory.scope=cluster",
                "poolkit.semaphores.gpu-memory.lease-time=200000d");
        assertThat(analysis.getDescription()).contains("Property: poolkit.semaphores.gpu-memory.lease-time")
                .contains("at most 106751 days");
        assertThat(analysis.getAction()).contains("such as 30s");
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
        assertThatThrownBy(() -> application.run("--poolkit.pools.reports.max-wait=-1s",
                "--poolkit.semaphore.enabled=false", "--poolkit.scheduler.enabled=false"))
                .satisfies(ex -> assertThat(NestedExceptionUtils.getMostSpecificCause(ex))
                        .isInstanceOf(InvalidPoolkitPropertyException.class));
        assertThat(output).contains("APPLICATION FAILED TO START").contains("poolkit.pools.reports.max-wait")
                .contains("Update your application's configuration");
    }

    /** The cluster semaphores' auto-configuration; the checks run before any Redis is looked for. */
    private ApplicationContextRunner withClusterSemaphores() {
        return runner.withConfiguration(AutoConfigurations.of(PoolkitRedisAutoConfiguration.class));
    }

    private FailureAnalysis analyze(String... properties) {
        return FailureAnalyses.analyze(runner, properties);
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration(PoolkitAutoConfiguration.class)
    static class MinimalApplication {
    }
}
