package io.github.poolkit.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.github.poolkit.SemaphoreStats;
import io.github.poolkit.autoconfigure.FlakySemaphore;
import io.github.poolkit.autoconfigure.PoolkitAutoConfiguration;
import io.github.poolkit.autoconfigure.actuate.PoolsEndpoint.SemaphoreDescriptor;

/**
 * The {@code pools} endpoint and health read shared semaphores (a store's, such as Redis's) at the same time, not one
 * after another, so that with the store down a read waits one command timeout, not one per semaphore. Here the reads
 * of two shared semaphores each wait, at a barrier, for the other to have begun: read one after another, the first
 * would give up there.
 */
@Timeout(30)
class SemaphoreReadsTests {

    private final CyclicBarrier bothReading = new CyclicBarrier(2);

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(PoolkitAutoConfiguration.class,
                    PoolsHealthContributorAutoConfiguration.class, PoolsEndpointAutoConfiguration.class))
            .withPropertyValues("management.endpoints.web.exposure.include=pools")
            .withBean("gpu", FlakySemaphore.class, () -> new Gated(4, bothReading))
            .withBean("quota", FlakySemaphore.class, () -> new Gated(6, bothReading));

    @Test
    @SuppressWarnings("unchecked")
    void healthReadsTheSharedSemaphoresAtOnce() {
        runner.run(context -> {
            Health health = context.getBean(PoolsHealthIndicator.class).health(true);
            assertThat(health.getDetails()).doesNotContainKey("unreadable");
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            Map<String, SemaphoreDescriptor> semaphores = (Map<String, SemaphoreDescriptor>) health.getDetails()
                    .get("semaphores");
            assertThat(semaphores).containsOnlyKeys("gpu", "quota", "weightedSemaphore");
            assertThat(semaphores.get("gpu").size()).isEqualTo(4);
            assertThat(semaphores.get("quota").size()).isEqualTo(6);
        });
    }

    @Test
    void theEndpointReadsTheSharedSemaphoresAtOnce() {
        runner.run(context -> {
            Map<String, SemaphoreDescriptor> semaphores = context.getBean(PoolsEndpoint.class).pools().semaphores();
            assertThat(semaphores.get("gpu").error()).isNull();
            assertThat(semaphores.get("quota").error()).isNull();
            assertThat(semaphores.get("quota").available()).isEqualTo(6);
        });
    }

    /** A shared semaphore whose read waits until another one is being read too. */
    static final class Gated extends FlakySemaphore {

        private final CyclicBarrier bothReading;

        Gated(long size, CyclicBarrier bothReading) {
            super(size);
            this.bothReading = bothReading;
        }

        @Override
        public SemaphoreStats stats() {
            try {
                bothReading.await(5, TimeUnit.SECONDS);
            }
            catch (InterruptedException | BrokenBarrierException | TimeoutException ex) {
                throw new IllegalStateException("read alone: the other semaphore was not being read", ex);
            }
            return super.stats();
        }
    }
}
