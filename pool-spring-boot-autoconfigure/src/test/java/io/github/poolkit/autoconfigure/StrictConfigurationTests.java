package io.github.poolkit.autoconfigure;

import static io.github.poolkit.autoconfigure.FailureAnalyses.analyze;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import io.github.poolkit.WeightedSemaphore;
import io.github.poolkit.WorkerPool;
import io.github.poolkit.autoconfigure.redis.PoolkitRedisAutoConfiguration;

/**
 * Strict configuration: an unknown key under {@code poolkit.} stops start-up naming it and the nearest valid key, the
 * relaxed forms Spring Boot binds are not flagged, and every invalid value is reported in one failure analysis.
 */
class StrictConfigurationTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(PoolkitAutoConfiguration.class));

    @Test
    void aMisspeltKeyOfThePrimaryPoolNamesTheNearestKey() {
        FailureAnalysis analysis = analyze(runner, "poolkit.pool.capasity=4");
        assertThat(analysis.getDescription()).contains("Property: poolkit.pool.capasity").contains("Value:    4")
                .contains("poolkit has no property of that name");
        assertThat(analysis.getAction()).contains("did you mean poolkit.pool.capacity?")
                .contains("the keys under poolkit.pool are adaptive, capacity, disable-purge, enabled, expiry");
    }

    @Test
    void aMisspeltKeyOfANamedPoolKeepsTheName() {
        FailureAnalysis analysis = analyze(runner, "poolkit.pools.reports.capasity=4");
        assertThat(analysis.getDescription()).contains("Property: poolkit.pools.reports.capasity");
        assertThat(analysis.getAction()).contains("did you mean poolkit.pools.reports.capacity?");
    }

    @Test
    void aMisspeltGroupIsCompletedWithTheRestOfTheKey() {
        FailureAnalysis analysis = analyze(runner, "poolkit.schedular.workers=1");
        assertThat(analysis.getDescription()).contains("Property: poolkit.schedular.workers");
        assertThat(analysis.getAction()).contains("did you mean poolkit.scheduler.workers?")
                .contains("the keys under poolkit.scheduler are enabled, interrupt-overdue, queue-timeout, run-timeout, "
                        + "shutdown-timeout, workers");
    }

    @Test
    void theNearestKeyMayBeOnAnotherLevel() {
        FailureAnalysis analysis = analyze(runner, "poolkit.pool.reports.capacity=4");
        assertThat(analysis.getAction()).contains("did you mean poolkit.pools.reports.capacity?")
                .contains("the keys under poolkit.pools.reports are adaptive, capacity, disable-purge");
    }

    @Test
    void keysOfNamedSemaphoresIncludingClusterOnesAreKnown() {
        runner.withPropertyValues("poolkit.semaphores.gpu-memory.size=8",
                "poolkit.semaphores.gpu-memory.lease-time=10s", "poolkit.semaphores.gpu-memory.scope=local",
                "poolkit.semaphores.gpu-memory.enabled=true").run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean("gpu-memory", WeightedSemaphore.class).size()).isEqualTo(8);
                });
        FailureAnalysis analysis = analyze(runner, "poolkit.semaphores.gpu-memory.lease-tme=10s");
        assertThat(analysis.getAction()).contains("did you mean poolkit.semaphores.gpu-memory.lease-time?");
    }

    @Test
    void relaxedFormsAreNotFlagged() {
        runner.withPropertyValues("poolkit.pool.maxBlockingTasks=3", "poolkit.pool.max_wait=2s",
                "poolkit.pools[reports].queue-capacity=2", "poolkit.pools.reports.Capacity=5",
                "poolkit.pools.batch.virtualThreads=true", "poolkit.semaphores[gpu.memory].size=4")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean("workerPool", WorkerPool.class).options().maxBlockingTasks())
                            .isEqualTo(3);
                    assertThat(context.getBean("reports", WorkerPool.class).capacity()).isEqualTo(5);
                    assertThat(context.getBean("gpu.memory", WeightedSemaphore.class).size()).isEqualTo(4);
                });
    }

    @Test
    void environmentVariablesAreNotFlagged() {
        Map<String, Object> variables = Map.of("POOLKIT_POOL_CAPACITY", "7", "POOLKIT_POOL_MAX_BLOCKING_TASKS", "2",
                "POOLKIT_POOL_MAXWAIT", "1s", "POOLKIT_POOLS_REPORTS_QUEUE_CAPACITY", "3",
                "POOLKIT_SCHEDULER_SHUTDOWN_TIMEOUT", "5s");
        runner.withInitializer(context -> context.getEnvironment().getPropertySources().addFirst(
                new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                        variables)))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    WorkerPool pool = context.getBean("workerPool", WorkerPool.class);
                    assertThat(pool.capacity()).isEqualTo(7);
                    assertThat(pool.options().maxBlockingTasks()).isEqualTo(2);
                    assertThat(context.getBean("reports", WorkerPool.class).options().queueCapacity()).isEqualTo(3);
                });
    }

    @Test
    void aMisspeltEnvironmentVariableIsFlagged() {
        ApplicationContextRunner withVariable = runner.withInitializer(context -> context.getEnvironment()
                .getPropertySources().addFirst(new SystemEnvironmentPropertySource("systemEnvironment",
                        Map.of("POOLKIT_POOL_CAPASITY", "7"))));
        FailureAnalysis analysis = analyze(withVariable);
        assertThat(analysis.getDescription()).contains("poolkit.pool.capasity").contains("POOLKIT_POOL_CAPASITY");
        assertThat(analysis.getAction()).contains("did you mean poolkit.pool.capacity?");
    }

    @Test
    void everyProblemIsReportedInOneAnalysis() {
        FailureAnalysis analysis = analyze(runner, "poolkit.pool.capasity=4", "poolkit.pools.reports.max-wait=-1s",
                "poolkit.pools.reports.queue-capacity=-5", "poolkit.scheduler.workers=0",
                "poolkit.semaphore.size=-1", "poolkit.pools.batch.expiry=soon");
        assertThat(analysis.getDescription()).contains("6 properties").contains("Property: poolkit.pool.capasity")
                .contains("Property: poolkit.pools.reports.max-wait")
                .contains("Property: poolkit.pools.reports.queue-capacity")
                .contains("Property: poolkit.scheduler.workers").contains("Property: poolkit.semaphore.size")
                .contains("Property: poolkit.pools.batch.expiry").contains("cannot be converted to Duration");
        assertThat(analysis.getAction()).contains("did you mean poolkit.pool.capacity?")
                .contains("change poolkit.pools.reports.max-wait")
                .contains("poolkit.scheduler.workers to a positive number")
                .contains("set poolkit.pools.batch.expiry to a duration such as 500ms or 30s");
    }

    @Test
    void twoInvalidValuesOfOnePoolAreBothReportedButNotOneThatAnotherKeyAllows() {
        FailureAnalysis analysis = analyze(runner, "poolkit.pools.reports.expiry=-1s",
                "poolkit.pools.reports.disable-purge=true", "poolkit.pools.reports.max-blocking-tasks=-1",
                "poolkit.pools.reports.queue-capacity=-2");
        assertThat(analysis.getDescription()).contains("2 properties")
                .contains("Property: poolkit.pools.reports.max-blocking-tasks")
                .contains("Property: poolkit.pools.reports.queue-capacity")
                .doesNotContain("Property: poolkit.pools.reports.expiry");
    }

    @Test
    void zeroAndNegativeTimeoutsAreReportedWithTheOtherInvalidValues() {
        FailureAnalysis analysis = analyze(runner, "poolkit.pools.reports.run-timeout=0s",
                "poolkit.pools.reports.queue-timeout=-1s", "poolkit.pools.reports.max-wait=-1s",
                "poolkit.pools.reports.queue-capacity=-2");
        assertThat(analysis.getDescription()).contains("4 properties")
                .contains("Property: poolkit.pools.reports.run-timeout")
                .contains("Property: poolkit.pools.reports.queue-timeout")
                .contains("Property: poolkit.pools.reports.max-wait")
                .contains("Property: poolkit.pools.reports.queue-capacity").contains("must be positive");
        assertThat(analysis.getAction()).contains("change poolkit.pools.reports.run-timeout")
                .contains("change poolkit.pools.reports.queue-timeout");
    }

    /**
     * A capacity too large to pre-allocate for is refused under {@code capacity}, which is no option of the core
     * library's table: the options after {@code preAlloc} are still checked, and their faults reported with it.
     */
    @Test
    void aCapacityTooLargeToPreAllocateForIsReportedWithTheOptionsCheckedAfterIt() {
        FailureAnalysis analysis = analyze(runner, "poolkit.pools.big.pre-alloc=true",
                "poolkit.pools.big.capacity=20000000", "poolkit.pools.big.interrupt-overdue=true",
                "poolkit.pools.big.queue-timeout=-1s");
        assertThat(analysis.getDescription()).contains("3 properties").contains("Property: poolkit.pools.big.capacity")
                .contains("Property: poolkit.pools.big.interrupt-overdue")
                .contains("Property: poolkit.pools.big.queue-timeout");
    }

    /** Both adaptive bounds wrong, or both set without an algorithm: both named in the one analysis. */
    @Test
    void bothAdaptiveBoundsAreReported() {
        FailureAnalysis bothBelowOne = analyze(runner, "poolkit.pools.reports.adaptive.algorithm=gradient",
                "poolkit.pools.reports.adaptive.min=0", "poolkit.pools.reports.adaptive.max=0",
                "poolkit.semaphores.gpu.size=8", "poolkit.semaphores.gpu.adaptive.algorithm=aimd",
                "poolkit.semaphores.gpu.adaptive.min=0", "poolkit.semaphores.gpu.adaptive.max=0");
        assertThat(bothBelowOne.getDescription()).contains("4 properties")
                .contains("Property: poolkit.pools.reports.adaptive.min")
                .contains("Property: poolkit.pools.reports.adaptive.max")
                .contains("Property: poolkit.semaphores.gpu.adaptive.min")
                .contains("Property: poolkit.semaphores.gpu.adaptive.max");
        assertThat(bothBelowOne.getAction()).contains("set poolkit.pools.reports.adaptive.max to 1 or more");
        FailureAnalysis noAlgorithm = analyze(runner, "poolkit.pools.reports.adaptive.min=2",
                "poolkit.pools.reports.adaptive.max=8");
        assertThat(noAlgorithm.getDescription()).contains("2 properties")
                .contains("Property: poolkit.pools.reports.adaptive.min")
                .contains("Property: poolkit.pools.reports.adaptive.max");
    }

    /**
     * As below, in an application started as Spring Boot starts one: its auto-configurations come from
     * {@code AutoConfiguration.imports} and are read from their bytecode, so when the named beans are registered the
     * definition of poolkit's auto-configuration knows its class by name only.
     */
    @Test
    void aNameOfPoolkitsOwnBeansStopsARealApplication() {
        Throwable failure = catchThrowable(() -> new SpringApplicationBuilder(BootApplication.class)
                .web(WebApplicationType.NONE).logStartupInfo(false)
                .run("--poolkit.pools.workerPool.capacity=8", "--spring.main.banner-mode=off").close());
        FailureAnalysis analysis = new PoolkitPropertyFailureAnalyzer().analyze(failure);
        assertThat(analysis).as("a poolkit analysis of " + failure).isNotNull();
        assertThat(analysis.getDescription()).contains("Property: poolkit.pools.workerPool")
                .contains("one of poolkit's own beans");
    }

    /** An application as Spring Boot starts one, with every auto-configuration on the class path. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class BootApplication {
    }

    /** A named pool or semaphore under the name of one of poolkit's own beans would never be made: reported. */
    @Test
    void aNameOfPoolkitsOwnBeansIsReported() {
        FailureAnalysis analysis = analyze(runner, "poolkit.pools.workerPool.capacity=8",
                "poolkit.semaphores.weightedSemaphore.size=3", "poolkit.pools.poolkitFactory.capacity=2",
                "poolkit.pool.max-wait=-1s");
        assertThat(analysis.getDescription()).contains("4 properties").contains("Property: poolkit.pools.workerPool")
                .contains("one of poolkit's own beans").contains("Property: poolkit.semaphores.weightedSemaphore")
                .contains("Property: poolkit.pools.poolkitFactory").contains("Property: poolkit.pool.max-wait");
        assertThat(analysis.getAction())
                .contains("poolkit.pool.*, poolkit.semaphore.* and poolkit.scheduler.* configure");
        assertThat(analyze(runner.withConfiguration(AutoConfigurations.of(PoolkitRedisAutoConfiguration.class)),
                "poolkit.semaphores.weightedSemaphore.scope=cluster").getDescription())
                .as("a cluster semaphore too").contains("Property: poolkit.semaphores.weightedSemaphore");
        runner.withPropertyValues("poolkit.pool.enabled=false", "poolkit.pools.workerPool.capacity=8")
                .run(context -> assertThat(context.getBean("workerPool", WorkerPool.class).capacity()).as("free")
                        .isEqualTo(8));
    }

    @Test
    void anInheritedInvalidValueIsReportedOnce() {
        FailureAnalysis analysis = analyze(runner, "poolkit.pool.max-blocking-tasks=-1",
                "poolkit.pools.a.capacity=2", "poolkit.pools.b.capacity=2", "poolkit.scheduler.workers=-1");
        assertThat(analysis.getDescription()).contains("2 properties");
        assertThat(analysis.getDescription().split("Property: poolkit.pool.max-blocking-tasks")).hasSize(2);
    }

    @Test
    void valuesOfADisabledEntryAreNotChecked() {
        runner.withPropertyValues("poolkit.pools.off.enabled=false", "poolkit.pools.off.max-wait=-1s",
                "poolkit.scheduler.enabled=false", "poolkit.scheduler.workers=0").run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).doesNotHaveBean("off");
                });
    }

    @Test
    void theClusterSemaphoresOwnKeysAreKnownWithPoolRedis() {
        runner.withConfiguration(AutoConfigurations.of(PoolkitRedisAutoConfiguration.class))
                .withPropertyValues("poolkit.semaphores.quota.scope=cluster", "poolkit.semaphores.quota.size=3",
                        "poolkit.semaphores.quota.lease-time=5s", "poolkit.semaphores.quota.enabled=false")
                .run(context -> assertThat(context).hasNotFailed());
    }

    @Test
    void aClusterSemaphoresInvalidValuesAreReportedWithTheRest() {
        FailureAnalysis analysis = analyze(runner.withConfiguration(
                AutoConfigurations.of(PoolkitRedisAutoConfiguration.class)),
                "poolkit.semaphores.quota.scope=cluster", "poolkit.semaphores.quota.size=9007199254740992",
                "poolkit.semaphores.quota.lease-time=10ms", "poolkit.pool.max-wait=-1s");
        assertThat(analysis.getDescription()).contains("3 properties")
                .contains("Property: poolkit.semaphores.quota.size").contains("2^53 - 1")
                .contains("Property: poolkit.semaphores.quota.lease-time").contains("at least 30ms")
                .contains("Property: poolkit.pool.max-wait");
    }

    @Test
    void aKeyBelowAValueIsFlagged() {
        FailureAnalysis analysis = analyze(runner.withInitializer(context -> context.getEnvironment()
                .getPropertySources().addFirst(new MapPropertySource("test", Map.of("poolkit.pool.capacity.max", 3)))));
        assertThat(analysis.getDescription()).contains("Property: poolkit.pool.capacity.max");
        assertThat(analysis.getAction()).contains("did you mean poolkit.pool.capacity?");
    }
}
