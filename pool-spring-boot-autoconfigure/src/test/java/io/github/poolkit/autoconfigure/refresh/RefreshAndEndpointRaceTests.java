package io.github.poolkit.autoconfigure.refresh;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cloud.context.environment.EnvironmentChangeEvent;
import org.springframework.core.env.MapPropertySource;

import io.github.poolkit.WorkerPool;
import io.github.poolkit.autoconfigure.PoolkitAutoConfiguration;
import io.github.poolkit.autoconfigure.actuate.PoolsEndpoint;
import io.github.poolkit.autoconfigure.actuate.PoolsEndpointAutoConfiguration;

/**
 * A configuration refresh and a write to the {@code pools} endpoint that change different live options of one pool at
 * the same moment: both changes must survive, whichever lands last (each one reads the pool's options, changes its own
 * field and writes them all back, so without one lock around that the later write undoes the earlier).
 */
@Timeout(120)
class RefreshAndEndpointRaceTests {

    private static final int ROUNDS = 300;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(PoolkitAutoConfiguration.class,
                    PoolkitRefreshAutoConfiguration.class, PoolsEndpointAutoConfiguration.class))
            .withPropertyValues("management.endpoints.web.exposure.include=pools",
                    "poolkit.pools.reports.capacity=4");

    @Test
    void aRefreshAndAnEndpointWriteOfDifferentOptionsBothSurvive() {
        runner.run(context -> {
            WorkerPool reports = context.getBean("reports", WorkerPool.class);
            PoolsEndpoint endpoint = context.getBean(PoolsEndpoint.class);
            Map<String, Object> refreshed = new ConcurrentHashMap<>();
            context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("refreshed", refreshed));
            CyclicBarrier together = new CyclicBarrier(2);
            for (int round = 1; round <= ROUNDS; round++) {
                int value = round;
                refreshed.put("poolkit.pools.reports.max-wait", value + "ms");
                Thread refresher = Thread.ofPlatform().start(() -> {
                    await(together);
                    context.publishEvent(new EnvironmentChangeEvent(context,
                            Set.of("poolkit.pools.reports.max-wait")));
                });
                Thread writer = Thread.ofPlatform().start(() -> {
                    await(together);
                    WebEndpointResponse<Object> response = endpoint.change("reports", null, null,
                            String.valueOf(value), null, null, null);
                    assertThat(response.getStatus()).isEqualTo(200);
                });
                refresher.join();
                writer.join();
                assertThat(reports.options().maxWait()).as("max-wait after round %d", round)
                        .isEqualTo(Duration.ofMillis(value));
                assertThat(reports.options().maxBlockingTasks()).as("maxBlockingTasks after round %d", round)
                        .isEqualTo(value);
            }
        });
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await();
        }
        catch (Exception ex) {
            throw new IllegalStateException(ex);
        }
    }
}
