package io.github.poolkit.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.github.poolkit.WorkerPool;
import io.github.poolkit.autoconfigure.PoolkitAutoConfiguration;

/** The {@code pools} health contributor: UP while every pool is open, DOWN naming the closed ones. */
class PoolsHealthIndicatorTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(PoolkitAutoConfiguration.class,
                    PoolsHealthContributorAutoConfiguration.class))
            .withPropertyValues("poolkit.semaphore.enabled=false", "poolkit.scheduler.enabled=false",
                    "poolkit.pools.reports.capacity=4");

    @Test
    @SuppressWarnings("unchecked")
    void upWhileEveryPoolIsOpenThenDownNamingTheClosedOnes() {
        runner.run(context -> {
            PoolsHealthIndicator indicator = context.getBean("poolsHealthIndicator", PoolsHealthIndicator.class);
            Health up = indicator.health(true);
            assertThat(up.getStatus()).isEqualTo(Status.UP);
            assertThat(up.getDetails()).containsOnlyKeys("pools");
            Map<String, Map<String, Object>> pools = (Map<String, Map<String, Object>>) up.getDetails().get("pools");
            assertThat(pools).containsOnlyKeys("reports", "workerPool");
            assertThat(pools.get("reports"))
                    .containsEntry("capacity", 4).containsEntry("running", 0).containsEntry("waiting", 0)
                    .containsEntry("free", 4).containsEntry("closed", false);

            context.getBean("reports", WorkerPool.class).release();
            Health down = indicator.health(true);
            assertThat(down.getStatus()).isEqualTo(Status.DOWN);
            assertThat(down.getDetails()).containsEntry("closed", List.of("reports"));
        });
    }

    @Test
    void canBeSwitchedOff() {
        runner.withPropertyValues("management.health.pools.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(PoolsHealthIndicator.class));
    }
}
