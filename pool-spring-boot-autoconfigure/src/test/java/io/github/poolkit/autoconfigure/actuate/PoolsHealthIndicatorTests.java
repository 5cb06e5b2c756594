package io.github.poolkit.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.github.poolkit.DelayScheduler;
import io.github.poolkit.FuncPool;
import io.github.poolkit.PoolOptions;
import io.github.poolkit.WorkerPool;
import io.github.poolkit.autoconfigure.PoolkitAutoConfiguration;
import io.github.poolkit.autoconfigure.actuate.PoolsEndpoint.PoolDescriptor;
import io.github.poolkit.autoconfigure.FlakySemaphore;

/**
 * The {@code pools} health contributor: UP while every pool and scheduler is open and every semaphore readable; DOWN
 * naming the closed ones and the unreadable semaphores.
 */
class PoolsHealthIndicatorTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(PoolkitAutoConfiguration.class,
                    PoolsHealthContributorAutoConfiguration.class))
            .withPropertyValues("poolkit.pools.reports.capacity=4");

    @Test
    @SuppressWarnings("unchecked")
    void upWhileEveryPoolIsOpenThenDownNamingTheClosedOnes() {
        runner.run(context -> {
            PoolsHealthIndicator indicator = context.getBean("poolsHealthIndicator", PoolsHealthIndicator.class);
            Health up = indicator.health(true);
            assertThat(up.getStatus()).isEqualTo(Status.UP);
            assertThat(up.getDetails()).containsOnlyKeys("pools", "schedulers", "semaphores");
            Map<String, PoolDescriptor> pools = (Map<String, PoolDescriptor>) up.getDetails().get("pools");
            assertThat(pools).containsOnlyKeys("reports", "workerPool");
            assertThat(pools.get("reports").capacity()).isEqualTo(4);
            assertThat((Map<String, ?>) up.getDetails().get("schedulers")).containsOnlyKeys("delayScheduler");
            assertThat((Map<String, ?>) up.getDetails().get("semaphores")).containsOnlyKeys("weightedSemaphore");

            context.getBean("reports", WorkerPool.class).release();
            context.getBean("delayScheduler", DelayScheduler.class).shutdown();
            Health down = indicator.health(true);
            assertThat(down.getStatus()).isEqualTo(Status.DOWN);
            assertThat(down.getDetails()).containsEntry("closed", List.of("delayScheduler", "reports"));
        });
    }

    @Test
    void coversPoolsTheApplicationMadeItself() {
        FuncPool<String> own = FuncPool.create(2, argument -> { }, PoolOptions.builder().name("own").build());
        runner.withBean("own", FuncPool.class, () -> own).run(context -> {
            PoolsHealthIndicator indicator = context.getBean(PoolsHealthIndicator.class);
            assertThat(indicator.health(true).getStatus()).isEqualTo(Status.UP);
            own.release();
            Health down = indicator.health(true);
            assertThat(down.getStatus()).isEqualTo(Status.DOWN);
            assertThat(down.getDetails()).containsEntry("closed", List.of("own"));
        });
    }

    @Test
    @SuppressWarnings("unchecked")
    void anUnreadableSemaphoreMakesItDownWithTheErrorNamed() {
        FlakySemaphore shared = new FlakySemaphore(4);
        runner.withBean("shared", FlakySemaphore.class, () -> shared).run(context -> {
            PoolsHealthIndicator indicator = context.getBean(PoolsHealthIndicator.class);
            assertThat(indicator.health(true).getStatus()).isEqualTo(Status.UP);
            shared.disconnect();
            Health down = indicator.health(true);
            assertThat(down.getStatus()).isEqualTo(Status.DOWN);
            assertThat(down.getDetails()).doesNotContainKey("closed");
            assertThat((Map<String, String>) down.getDetails().get("unreadable")).containsOnlyKeys("shared")
                    .hasEntrySatisfying("shared", error -> assertThat(error).contains("store unreachable"));
        });
    }

    @Test
    void canBeSwitchedOff() {
        runner.withPropertyValues("management.health.pools.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(PoolsHealthIndicator.class));
    }
}
