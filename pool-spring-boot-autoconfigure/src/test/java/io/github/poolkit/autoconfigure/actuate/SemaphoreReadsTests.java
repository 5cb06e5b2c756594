package io.github.poolkit.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Comparator;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;

import io.github.poolkit.SemaphoreStats;
import io.github.poolkit.autoconfigure.FlakySemaphore;
import io.github.poolkit.autoconfigure.PoolkitAutoConfiguration;
import io.github.poolkit.autoconfigure.actuate.PoolsEndpoint.SemaphoreDescriptor;

/**
 * The {@code pools} endpoint, health and meters read shared semaphores (a store's, such as Redis's) at the same time,
 * not one after another, so that with the store down a read waits one command timeout, not one per semaphore. Here
 * the reads of two shared semaphores each wait, at a barrier, for the other to have begun: read one after another, the
 * first would give up there.
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

    /**
     * A scrape samples the gauges name by name (the used weight of each semaphore, then the waiting of each...): the
     * first gauge of a shared semaphore reads all of them at once, and every other gauge of that scrape reuses it.
     */
    @Test
    void aScrapeReadsTheSharedSemaphoresAtOnceAndEachOnce() {
        runner.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
                SimpleMetricsExportAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
                PoolMetricsAutoConfiguration.class)).run(context -> {
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    Gated gpu = context.getBean("gpu", Gated.class);
                    Gated quota = context.getBean("quota", Gated.class);
                    int gpuBefore = gpu.reads.get();
                    int quotaBefore = quota.reads.get();
                    Map<String, Double> scrape = new TreeMap<>();
                    registry.getMeters().stream().filter(meter -> meter instanceof Gauge)
                            .filter(meter -> meter.getId().getName().startsWith("poolkit.semaphore."))
                            .sorted(Comparator.comparing((Meter meter) -> meter.getId().getName())
                                    .thenComparing(meter -> meter.getId().getTag("name")))
                            .forEach(meter -> scrape.put(meter.getId().getName() + "{" + meter.getId().getTag("name")
                                    + "}", ((Gauge) meter).value()));
                    assertThat(scrape).containsEntry("poolkit.semaphore.size{gpu}", 4.0)
                            .containsEntry("poolkit.semaphore.available{quota}", 6.0)
                            .containsEntry("poolkit.semaphore.used{quota}", 0.0);
                    assertThat(gpu.reads.get() - gpuBefore).as("reads of gpu in one scrape").isOne();
                    assertThat(quota.reads.get() - quotaBefore).as("reads of quota in one scrape").isOne();
                    System.gc(); // (then a later scrape, which reads them again)
                    assertThat(registry.get("poolkit.semaphore.size").tag("name", "quota").gauge().value())
                            .as("the gauge's reader survives a collection").isEqualTo(6.0);
                });
    }

    /** A shared semaphore whose read waits until another one is being read too. */
    static final class Gated extends FlakySemaphore {

        private final CyclicBarrier bothReading;
        final AtomicInteger reads = new AtomicInteger();

        Gated(long size, CyclicBarrier bothReading) {
            super(size);
            this.bothReading = bothReading;
        }

        @Override
        public SemaphoreStats stats() {
            reads.incrementAndGet();
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
