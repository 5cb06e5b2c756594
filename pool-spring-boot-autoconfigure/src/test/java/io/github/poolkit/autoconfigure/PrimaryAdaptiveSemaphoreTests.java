package io.github.poolkit.autoconfigure;

import static io.github.poolkit.autoconfigure.FailureAnalyses.analyze;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.github.poolkit.WeightedSemaphore;
import io.github.poolkit.annotation.Permits;
import io.github.poolkit.autoconfigure.permits.PermitsAutoConfiguration;

/**
 * {@code poolkit.semaphore.adaptive.*}: the primary semaphore is a local {@link WeightedSemaphore} like a named one,
 * so it can be adaptive by the same rules (max defaulting to its size, bounds checked with the failure analysis); the
 * named semaphores do not inherit it (they inherit only the size).
 */
@Timeout(30)
class PrimaryAdaptiveSemaphoreTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(PoolkitAutoConfiguration.class, PermitsAutoConfiguration.class))
            .withPropertyValues("poolkit.scheduler.enabled=false", "poolkit.pool.enabled=false");

    @Test
    void thePrimarySemaphoreStartsAtItsMinAndNamedOnesDoNotInheritIt() {
        runner.withPropertyValues("poolkit.semaphore.adaptive.algorithm=aimd", "poolkit.semaphore.adaptive.min=2",
                "poolkit.semaphore.adaptive.max=32", "poolkit.semaphores.gpu.size=10").run(context -> {
                    assertThat(context).hasNotFailed();
                    WeightedSemaphore primary = context.getBean("weightedSemaphore", WeightedSemaphore.class);
                    assertThat(primary.size()).isEqualTo(2);
                    assertThat(AdaptiveSettings.of(primary)).isEqualTo(new AdaptiveSettings("aimd", 2, 32));
                    WeightedSemaphore gpu = context.getBean("gpu", WeightedSemaphore.class);
                    assertThat(gpu.size()).isEqualTo(10);
                    assertThat(AdaptiveSettings.of(gpu)).isNull();
                });
    }

    @Test
    void itsMaxDefaultsToItsSize() {
        runner.withPropertyValues("poolkit.semaphore.size=40", "poolkit.semaphore.adaptive.algorithm=gradient")
                .run(context -> assertThat(AdaptiveSettings.of(context.getBean("weightedSemaphore")))
                        .isEqualTo(new AdaptiveSettings("gradient", 1, 40)));
    }

    @Test
    void anUnnamedPermitsMethodMovesItsSize() {
        runner.withPropertyValues("poolkit.semaphore.adaptive.algorithm=aimd", "poolkit.semaphore.adaptive.max=8")
                .withBean(Guarded.class).run(context -> {
                    WeightedSemaphore primary = context.getBean("weightedSemaphore", WeightedSemaphore.class);
                    assertThat(primary.size()).isEqualTo(1);
                    context.getBean(Guarded.class).work();
                    // aimd from min 1: the first sample (1 in use, 1 * 2 >= 1) gives 1 + 1/1 (see
                    // PermitsAdaptiveSemaphoreTests)
                    assertThat(primary.size()).isEqualTo(2);
                });
    }

    @Test
    void badBoundsStopStartUpNamingThePrimarysKey() {
        FailureAnalysis min = analyze(runner, "poolkit.semaphore.adaptive.algorithm=aimd",
                "poolkit.semaphore.adaptive.min=0");
        assertThat(min.getDescription()).contains("Property: poolkit.semaphore.adaptive.min")
                .contains("at least 1");
        FailureAnalysis max = analyze(runner, "poolkit.semaphore.size=8", "poolkit.semaphore.adaptive.algorithm=aimd",
                "poolkit.semaphore.adaptive.min=16");
        assertThat(max.getDescription()).contains("Property: poolkit.semaphore.adaptive.min")
                .contains("poolkit.semaphore.size");
        assertThat(max.getAction()).contains("set poolkit.semaphore.adaptive.max to 16 or more");
    }

    /** A bound wrong whatever the size is named beside a size at fault, for the primary and for a named one. */
    @Test
    void aBadBoundIsNamedBesideABadSize() {
        FailureAnalysis primary = analyze(runner, "poolkit.semaphore.size=-1",
                "poolkit.semaphore.adaptive.algorithm=aimd", "poolkit.semaphore.adaptive.min=0");
        assertThat(primary.getDescription()).contains("Property: poolkit.semaphore.size")
                .contains("Property: poolkit.semaphore.adaptive.min");
        FailureAnalysis named = analyze(runner, "poolkit.semaphores.gpu.size=-1",
                "poolkit.semaphores.gpu.adaptive.algorithm=aimd", "poolkit.semaphores.gpu.adaptive.min=0");
        assertThat(named.getDescription()).contains("Property: poolkit.semaphores.gpu.size")
                .contains("Property: poolkit.semaphores.gpu.adaptive.min");
        FailureAnalysis sizeOnly = analyze(runner, "poolkit.semaphore.size=-1",
                "poolkit.semaphore.adaptive.algorithm=aimd", "poolkit.semaphore.adaptive.min=4");
        assertThat(sizeOnly.getDescription()).contains("Property: poolkit.semaphore.size")
                .doesNotContain("adaptive.min");
    }

    static class Guarded {

        @Permits
        public String work() {
            return "done";
        }
    }
}
