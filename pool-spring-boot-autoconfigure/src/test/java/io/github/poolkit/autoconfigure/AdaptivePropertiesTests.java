package io.github.poolkit.autoconfigure;

import static io.github.poolkit.autoconfigure.FailureAnalyses.analyze;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.github.poolkit.AdaptiveLimit;
import io.github.poolkit.WeightedSemaphore;
import io.github.poolkit.WorkerPool;
import io.github.poolkit.autoconfigure.redis.PoolkitRedisAutoConfiguration;

/**
 * {@code adaptive.*} of pools and semaphores: the limits they make, what named pools inherit, and the failure analysis
 * of bad bounds (property, value, fix).
 */
class AdaptivePropertiesTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(PoolkitAutoConfiguration.class))
            .withPropertyValues("poolkit.scheduler.enabled=false");

    @Test
    void aNamedPoolStartsAtItsMinAndFollowsItsLimit() {
        runner.withPropertyValues("poolkit.pools.reports.adaptive.algorithm=gradient",
                "poolkit.pools.reports.adaptive.min=2", "poolkit.pools.reports.adaptive.max=64").run(context -> {
                    WorkerPool reports = context.getBean("reports", WorkerPool.class);
                    assertThat(reports.capacity()).isEqualTo(2);
                    assertThat(reports.options().adaptiveCapacity()).isNotNull();
                    assertThat(AdaptiveSettings.of(reports)).isEqualTo(new AdaptiveSettings("gradient", 2, 64));
                    WorkerPool primary = context.getBean("workerPool", WorkerPool.class);
                    assertThat(primary.options().adaptiveCapacity()).isNull();
                    assertThat(AdaptiveSettings.of(primary)).isNull();
                });
    }

    @Test
    void namedPoolsInheritEachAdaptiveKeyAndMaxDefaultsToTheCapacity() {
        runner.withPropertyValues("poolkit.pool.adaptive.algorithm=aimd", "poolkit.pool.adaptive.min=3",
                "poolkit.pools.reports.capacity=10", "poolkit.pools.exports.adaptive.algorithm=none").run(context -> {
                    assertThat(AdaptiveSettings.of(context.getBean("workerPool")))
                            .isEqualTo(new AdaptiveSettings("aimd", 3, 256));
                    WorkerPool reports = context.getBean("reports", WorkerPool.class);
                    assertThat(AdaptiveSettings.of(reports)).isEqualTo(new AdaptiveSettings("aimd", 3, 10));
                    assertThat(reports.capacity()).isEqualTo(3);
                    WorkerPool exports = context.getBean("exports", WorkerPool.class);
                    assertThat(exports.options().adaptiveCapacity()).isNull();
                    assertThat(exports.capacity()).isEqualTo(256);
                });
    }

    @Test
    void aLocalSemaphoreSizesItselfWithinItsBounds() {
        runner.withPropertyValues("poolkit.semaphores.gpu-memory.adaptive.algorithm=aimd",
                "poolkit.semaphores.gpu-memory.adaptive.min=1024",
                "poolkit.semaphores.gpu-memory.adaptive.max=16384").run(context -> {
                    WeightedSemaphore gpu = context.getBean("gpu-memory", WeightedSemaphore.class);
                    assertThat(gpu.size()).isEqualTo(1024);
                    assertThat(AdaptiveSettings.of(gpu)).isEqualTo(new AdaptiveSettings("aimd", 1024, 16384));
                    assertThat(AdaptiveSettings.of(context.getBean("weightedSemaphore"))).isNull();
                });
    }

    @Test
    void aLimitSetInCodeIsShownAsCustom() {
        runner.withPropertyValues("poolkit.pools.reports.capacity=8")
                .withBean(PoolCustomizer.class, () -> (name, options) -> {
                    if (name.equals("reports")) {
                        options.adaptiveCapacity(AdaptiveLimit.aimd(2, 8));
                    }
                }).run(context -> {
                    WorkerPool reports = context.getBean("reports", WorkerPool.class);
                    assertThat(reports.capacity()).isEqualTo(2);
                    assertThat(AdaptiveSettings.of(reports)).isEqualTo(new AdaptiveSettings("custom", null, null));
                });
    }

    /** A customizer's limit in place of the properties' one is shown as it is in force, not as the properties say. */
    @Test
    void aCustomizerThatReplacesOrDropsThePropertiesLimitIsShownAsItIs() {
        runner.withPropertyValues("poolkit.pools.reports.capacity=8",
                "poolkit.pools.reports.adaptive.algorithm=gradient",
                "poolkit.pools.fixed.capacity=8", "poolkit.pools.fixed.adaptive.algorithm=gradient")
                .withBean(PoolCustomizer.class, () -> (name, options) -> {
                    if (name.equals("reports")) {
                        options.adaptiveCapacity(AdaptiveLimit.aimd(2, 8));
                    } else if (name.equals("fixed")) {
                        options.adaptiveCapacity(null);
                    }
                }).run(context -> {
                    WorkerPool reports = context.getBean("reports", WorkerPool.class);
                    assertThat(AdaptiveSettings.of(reports)).isEqualTo(new AdaptiveSettings("custom", null, null));
                    WorkerPool fixed = context.getBean("fixed", WorkerPool.class);
                    assertThat(fixed.capacity()).isEqualTo(8);
                    assertThat(AdaptiveSettings.of(fixed)).isNull();
                });
    }

    @Test
    void anAdaptiveSemaphoreMadeInCodeIsShownAsCustom() {
        runner.withBean("own", WeightedSemaphore.class, () -> WeightedSemaphore.adaptive(AdaptiveLimit.aimd(1, 8)))
                .run(context -> {
                    assertThat(AdaptiveSettings.of(context.getBean("own")))
                            .isEqualTo(new AdaptiveSettings("custom", null, null));
                    assertThat(AdaptiveSettings.of(new WeightedSemaphore(4))).isNull();
                });
    }

    @Test
    void aMinBelowOne() {
        FailureAnalysis analysis = analyze(runner, "poolkit.pools.reports.adaptive.algorithm=gradient",
                "poolkit.pools.reports.adaptive.min=0");
        assertThat(analysis.getDescription()).contains("Property: poolkit.pools.reports.adaptive.min")
                .contains("Value:    0").contains("min must be at least 1");
        assertThat(analysis.getAction()).contains("set poolkit.pools.reports.adaptive.min to 1 or more");
    }

    @Test
    void aMaxBelowTheMin() {
        FailureAnalysis analysis = analyze(runner, "poolkit.pools.reports.adaptive.algorithm=gradient",
                "poolkit.pools.reports.adaptive.min=8", "poolkit.pools.reports.adaptive.max=4");
        assertThat(analysis.getDescription()).contains("Property: poolkit.pools.reports.adaptive.max")
                .contains("Value:    4").contains("max must be at least its min (8)");
        assertThat(analysis.getAction()).contains("set poolkit.pools.reports.adaptive.max to 8 or more");
    }

    @Test
    void boundsWithoutAnAlgorithmAreReportedNotIgnored() {
        FailureAnalysis analysis = analyze(runner, "poolkit.pools.reports.adaptive.min=2",
                "poolkit.semaphores.gpu.size=10", "poolkit.semaphores.gpu.adaptive.max=8");
        assertThat(analysis.getDescription()).contains("2 properties")
                .contains("Property: poolkit.pools.reports.adaptive.min").contains("without an algorithm is ignored")
                .contains("Property: poolkit.semaphores.gpu.adaptive.max");
        assertThat(analysis.getAction())
                .contains("set poolkit.pools.reports.adaptive.algorithm to gradient or aimd, or remove "
                        + "poolkit.pools.reports.adaptive.min")
                .contains("set poolkit.semaphores.gpu.adaptive.algorithm to gradient or aimd");
    }

    @Test
    void boundsSharedThroughThePrimaryServeTheNamedPoolsThatSetAnAlgorithm() {
        runner.withPropertyValues("poolkit.pool.adaptive.min=2", "poolkit.pool.adaptive.max=32",
                "poolkit.pools.reports.adaptive.algorithm=gradient", "poolkit.pools.plain.capacity=3")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean("reports", WorkerPool.class).capacity()).isEqualTo(2);
                    assertThat(context.getBean("plain", WorkerPool.class).capacity()).isEqualTo(3);
                });
        FailureAnalysis analysis = analyze(runner, "poolkit.pool.adaptive.min=2", "poolkit.pools.plain.capacity=3");
        assertThat(analysis.getDescription()).contains("Property: poolkit.pool.adaptive.min")
                .contains("without an algorithm is ignored");
    }

    @Test
    void boundsOfADisabledPrimaryPoolStillServeTheNamedOnes() {
        // poolkit.pool.enabled is never inherited, its adaptive keys are: idle if no named pool sets an algorithm
        FailureAnalysis analysis = analyze(runner, "poolkit.pool.enabled=false", "poolkit.pool.adaptive.min=2",
                "poolkit.pools.reports.capacity=4");
        assertThat(analysis.getDescription()).contains("Property: poolkit.pool.adaptive.min");
    }

    @Test
    void boundsOfADisabledEntryAreLeftAlone() {
        runner.withPropertyValues("poolkit.semaphores.gpu.enabled=false", "poolkit.semaphores.gpu.size=4",
                "poolkit.semaphores.gpu.adaptive.max=8", "poolkit.pools.reports.enabled=false",
                "poolkit.pools.reports.adaptive.min=2").run(context -> assertThat(context).hasNotFailed());
    }

    @Test
    void boundsOfAClusterSemaphoreAreToBeRemovedNotGivenAnAlgorithm() {
        FailureAnalysis analysis = analyze(
                runner.withConfiguration(AutoConfigurations.of(PoolkitRedisAutoConfiguration.class)),
                "poolkit.semaphores.shared.scope=cluster", "poolkit.semaphores.shared.adaptive.min=2");
        assertThat(analysis.getDescription()).contains("Property: poolkit.semaphores.shared.adaptive.min");
        assertThat(analysis.getAction()).contains("remove poolkit.semaphores.shared.adaptive.min (a cluster")
                .doesNotContain("gradient or aimd");
    }

    @Test
    void boundsBesideAnExplicitNoneAreCheckedOnTheirOwnAndMayStay() {
        FailureAnalysis analysis = analyze(runner, "poolkit.semaphores.gpu.size=10",
                "poolkit.semaphores.gpu.adaptive.algorithm=none", "poolkit.semaphores.gpu.adaptive.min=0");
        assertThat(analysis.getDescription()).contains("Property: poolkit.semaphores.gpu.adaptive.min")
                .contains("min must be at least 1");
        // a named pool opts out of the algorithm it inherits, keeping the inherited bounds
        runner.withPropertyValues("poolkit.pool.adaptive.algorithm=gradient", "poolkit.pool.adaptive.min=2",
                "poolkit.pool.adaptive.max=8", "poolkit.pools.reports.capacity=4",
                "poolkit.pools.reports.adaptive.algorithm=none")
                .run(context -> assertThat(context).hasNotFailed().getBean("reports", WorkerPool.class)
                        .extracting(WorkerPool::capacity).isEqualTo(4));
    }

    @Test
    void anInheritedBadMinIsReportedUnderThePrimaryKey() {
        FailureAnalysis analysis = analyze(runner, "poolkit.pool.enabled=false",
                "poolkit.pool.adaptive.algorithm=gradient", "poolkit.pool.adaptive.min=-1",
                "poolkit.pools.reports.capacity=4");
        assertThat(analysis.getDescription()).contains("Property: poolkit.pool.adaptive.min").contains("-1");
    }

    @Test
    void aMinAboveTheCapacityWithoutAMax() {
        FailureAnalysis analysis = analyze(runner, "poolkit.pools.reports.capacity=4",
                "poolkit.pools.reports.adaptive.algorithm=aimd", "poolkit.pools.reports.adaptive.min=8");
        assertThat(analysis.getDescription()).contains("Property: poolkit.pools.reports.adaptive.min")
                .contains("poolkit.pools.reports.capacity (4)");
        assertThat(analysis.getAction()).contains("set poolkit.pools.reports.adaptive.max to 8 or more");
    }

    @Test
    void anAdaptivePoolThatPreAllocates() {
        FailureAnalysis analysis = analyze(runner, "poolkit.pools.reports.pre-alloc=true",
                "poolkit.pools.reports.adaptive.algorithm=gradient");
        assertThat(analysis.getDescription()).contains("Property: poolkit.pools.reports.adaptive.algorithm")
                .contains("Value:    gradient").contains("pre-alloc");
        assertThat(analysis.getAction()).contains("set poolkit.pools.reports.pre-alloc to false, or set "
                + "poolkit.pools.reports.adaptive.algorithm to none");
    }

    @Test
    void anAdaptivePoolWithUnlimitedCapacity() {
        FailureAnalysis analysis = analyze(runner, "poolkit.pools.reports.capacity=0",
                "poolkit.pools.reports.adaptive.algorithm=gradient", "poolkit.pools.reports.adaptive.min=2",
                "poolkit.pools.reports.adaptive.max=64");
        assertThat(analysis.getDescription()).contains("Property: poolkit.pools.reports.adaptive.algorithm")
                .contains("Value:    gradient").contains("needs a bounded capacity");
        assertThat(analysis.getAction()).contains("set poolkit.pools.reports.capacity to a positive number, or set "
                + "poolkit.pools.reports.adaptive.algorithm to none");
    }

    @Test
    void aSemaphoreMinAboveItsSize() {
        FailureAnalysis analysis = analyze(runner, "poolkit.semaphores.gpu.size=10",
                "poolkit.semaphores.gpu.adaptive.algorithm=gradient", "poolkit.semaphores.gpu.adaptive.min=20");
        assertThat(analysis.getDescription()).contains("Property: poolkit.semaphores.gpu.adaptive.min")
                .contains("poolkit.semaphores.gpu.size (10)");
    }

    @Test
    void anAdaptiveClusterSemaphore() {
        FailureAnalysis analysis = analyze(
                runner.withConfiguration(AutoConfigurations.of(PoolkitRedisAutoConfiguration.class)),
                "poolkit.semaphores.shared.scope=cluster", "poolkit.semaphores.shared.adaptive.algorithm=aimd");
        assertThat(analysis.getDescription()).contains("Property: poolkit.semaphores.shared.adaptive.algorithm")
                .contains("Value:    aimd").contains("only local semaphores can be adaptive");
        assertThat(analysis.getAction()).contains("set poolkit.semaphores.shared.scope to local");
    }
}
