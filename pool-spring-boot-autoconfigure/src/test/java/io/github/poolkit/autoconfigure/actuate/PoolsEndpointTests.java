package io.github.poolkit.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.github.poolkit.WeightedSemaphore;
import io.github.poolkit.WorkerPool;
import io.github.poolkit.autoconfigure.PoolkitAutoConfiguration;
import io.github.poolkit.autoconfigure.actuate.PoolsEndpoint.PoolDescriptor;
import io.github.poolkit.autoconfigure.actuate.PoolsEndpoint.SemaphoreDescriptor;

/** The {@code pools} endpoint's availability and its operations, called directly. */
class PoolsEndpointTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(PoolkitAutoConfiguration.class,
                    PoolsEndpointAutoConfiguration.class))
            .withPropertyValues("poolkit.semaphore.enabled=false", "poolkit.scheduler.enabled=false",
                    "poolkit.pools.reports.capacity=4", "poolkit.pool.capacity=0");

    @Test
    void endpointNeedsToBeExposed() {
        runner.run(context -> assertThat(context).doesNotHaveBean(PoolsEndpoint.class));
        runner.withPropertyValues("management.endpoints.web.exposure.include=pools")
                .run(context -> assertThat(context).hasSingleBean(PoolsEndpoint.class));
        runner.withPropertyValues("management.endpoints.web.exposure.include=pools",
                "management.endpoint.pools.access=NONE")
                .run(context -> assertThat(context).doesNotHaveBean(PoolsEndpoint.class));
    }

    @Test
    void readsEveryPoolAndOneByName() {
        runner.withPropertyValues("management.endpoints.web.exposure.include=pools").run(context -> {
            PoolsEndpoint endpoint = context.getBean(PoolsEndpoint.class);
            Map<String, PoolDescriptor> pools = endpoint.pools().pools();
            assertThat(pools).containsOnlyKeys("workerPool", "reports");
            assertThat(pools.get("reports")).isEqualTo(new PoolDescriptor(4, 0, 0, 4, false));
            assertThat(pools.get("workerPool")).isEqualTo(new PoolDescriptor(-1, 0, 0, -1, false));
            assertThat(endpoint.pools().semaphores()).isEmpty();
            assertThat(endpoint.pool("reports")).isEqualTo(new PoolDescriptor(4, 0, 0, 4, false));
            assertThat(endpoint.pool("unknown")).isNull();
        });
    }

    @Test
    void closedPoolIsShownClosed() {
        runner.withPropertyValues("management.endpoints.web.exposure.include=pools").run(context -> {
            context.getBean("reports", WorkerPool.class).release();
            PoolDescriptor reports = (PoolDescriptor) context.getBean(PoolsEndpoint.class).pool("reports");
            assertThat(reports.closed()).isTrue();
        });
    }

    @Test
    void tuneChangesTheCapacity() {
        runner.withPropertyValues("management.endpoints.web.exposure.include=pools").run(context -> {
            PoolsEndpoint endpoint = context.getBean(PoolsEndpoint.class);
            assertThat(endpoint.tune("reports", 9)).isEqualTo(new PoolDescriptor(9, 0, 0, 9, false));
            assertThat(context.getBean("reports", WorkerPool.class).capacity()).isEqualTo(9);
            assertThatThrownBy(() -> endpoint.tune("reports", 0)).isInstanceOf(InvalidEndpointRequestException.class)
                    .hasMessageContaining("Capacity must be positive, was 0");
            assertThatThrownBy(() -> endpoint.tune("unknown", 3))
                    .isInstanceOf(InvalidEndpointRequestException.class)
                    .hasMessageContaining("No pool named 'unknown'");
        });
    }

    @Test
    void semaphoresAreListedAndCannotBeTuned() throws Exception {
        WeightedSemaphore semaphore = new WeightedSemaphore(10);
        semaphore.acquire(3);
        PoolsEndpoint endpoint = new PoolsEndpoint(Map.of(), Map.of("gpu-memory", semaphore));
        assertThat(endpoint.pools().semaphores()).containsEntry("gpu-memory", new SemaphoreDescriptor(10, 3, 0, 7));
        assertThat(endpoint.pool("gpu-memory")).isEqualTo(new SemaphoreDescriptor(10, 3, 0, 7));
        assertThatThrownBy(() -> endpoint.tune("gpu-memory", 3)).isInstanceOf(InvalidEndpointRequestException.class)
                .hasMessageContaining("it is a semaphore");
    }
}
