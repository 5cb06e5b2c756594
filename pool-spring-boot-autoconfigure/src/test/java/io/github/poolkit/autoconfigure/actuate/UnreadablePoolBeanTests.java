package io.github.poolkit.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.github.poolkit.Pool;
import io.github.poolkit.PoolStats;
import io.github.poolkit.autoconfigure.FlakySemaphore;
import io.github.poolkit.autoconfigure.PoolkitAutoConfiguration;
import io.github.poolkit.autoconfigure.actuate.PoolsEndpoint.PoolDescriptor;
import io.github.poolkit.autoconfigure.actuate.PoolsEndpoint.PoolsDescriptor;
import io.github.poolkit.autoconfigure.actuate.PoolsEndpoint.SemaphoreDescriptor;

/**
 * A bean of the application's own that throws when it is read (a {@code Pool} class whose every method fails, a
 * semaphore whose {@code scope()} fails) costs its own entry only: the endpoint's list and a read of it answer its
 * error and no figure, every other entry is read as usual, and the health check is DOWN naming it under
 * {@code unreadable}, with every entry in its details.
 */
@Timeout(30)
class UnreadablePoolBeanTests {

    /** The entry of a pool that cannot be read: its error, no figure, and its overdue tasks (none here). */
    private static final PoolDescriptor UNREADABLE = new PoolDescriptor(null, null, null, null, null, null, null,
            null, null, null, null, null, null, null, null, null, List.of(), BreakingPool.ERROR);

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(PoolkitAutoConfiguration.class,
                    PoolsEndpointAutoConfiguration.class, PoolsHealthContributorAutoConfiguration.class))
            .withPropertyValues("management.endpoints.web.exposure.include=pools", "poolkit.pools.reports.capacity=4")
            .withBean("broken", BreakingPool.class, BreakingPool::new);

    @Test
    void theListShowsTheBrokenPoolsErrorBesideEveryOtherEntry() {
        runner.run(context -> {
            PoolsEndpoint endpoint = context.getBean(PoolsEndpoint.class);
            assertThat(endpoint.pools().pools().get("broken").capacity()).as("before it breaks").isEqualTo(4);
            context.getBean(BreakingPool.class).breakDown();
            PoolsDescriptor all = endpoint.pools();
            assertThat(all.pools()).containsOnlyKeys("broken", "reports", "workerPool");
            assertThat(all.pools().get("broken")).isEqualTo(UNREADABLE);
            assertThat(all.pools().get("reports").capacity()).isEqualTo(4);
            assertThat(all.pools().get("reports").error()).isNull();
            assertThat(all.schedulers()).containsOnlyKeys("delayScheduler");
            assertThat(all.semaphores()).containsOnlyKeys("weightedSemaphore");
        });
    }

    @Test
    void aReadOfTheBrokenPoolAnswersItsErrorAndOtherReadsAreUnchanged() {
        runner.run(context -> {
            context.getBean(BreakingPool.class).breakDown();
            PoolsEndpoint endpoint = context.getBean(PoolsEndpoint.class);
            assertThat(endpoint.pool("broken")).isEqualTo(UNREADABLE);
            assertThat(((PoolDescriptor) endpoint.pool("reports")).free()).isEqualTo(4);
        });
    }

    @Test
    @SuppressWarnings("unchecked")
    void healthIsDownNamingTheBrokenPoolWithEveryEntryInItsDetails() {
        runner.run(context -> {
            PoolsHealthIndicator indicator = context.getBean(PoolsHealthIndicator.class);
            assertThat(indicator.health(true).getStatus()).isEqualTo(Status.UP);
            context.getBean(BreakingPool.class).breakDown();
            Health down = indicator.health(true);
            assertThat(down.getStatus()).isEqualTo(Status.DOWN);
            assertThat(down.getDetails()).containsOnlyKeys("pools", "schedulers", "semaphores", "unreadable");
            assertThat((Map<String, String>) down.getDetails().get("unreadable"))
                    .containsExactly(entry("broken", BreakingPool.ERROR));
            Map<String, PoolDescriptor> pools = (Map<String, PoolDescriptor>) down.getDetails().get("pools");
            assertThat(pools).containsOnlyKeys("broken", "reports", "workerPool");
            assertThat(pools.get("broken")).isEqualTo(UNREADABLE);
            assertThat(pools.get("reports").closed()).isFalse();
            assertThat((Map<String, ?>) down.getDetails().get("schedulers")).containsOnlyKeys("delayScheduler");
        });
    }

    /** A semaphore's {@code scope()} is read with its figures: one that throws, on a reader thread, costs its entry. */
    @Test
    @SuppressWarnings("unchecked")
    void aSemaphoreWhoseScopeThrowsCostsItsOwnEntryOnly() {
        runner.withBean("scopeless", Scopeless.class, () -> new Scopeless(4)).run(context -> {
            Map<String, SemaphoreDescriptor> semaphores = context.getBean(PoolsEndpoint.class).pools().semaphores();
            assertThat(semaphores).containsOnlyKeys("scopeless", "weightedSemaphore");
            assertThat(semaphores.get("scopeless"))
                    .isEqualTo(new SemaphoreDescriptor(-1, null, -1, -1, -1, null, Scopeless.ERROR));
            assertThat(semaphores.get("weightedSemaphore").error()).isNull();
            Health down = context.getBean(PoolsHealthIndicator.class).health(true);
            assertThat((Map<String, String>) down.getDetails().get("unreadable"))
                    .containsExactly(entry("scopeless", Scopeless.ERROR));
        });
    }

    /**
     * A {@code Pool} class of the application's own, with the figures of a pool of 4 until {@link #breakDown()}; from
     * then on each of its reads throws, as a pool whose backend is gone might. It takes no listener and exposes no
     * options (the interface's defaults).
     */
    static final class BreakingPool implements Pool {

        /** What a read of a broken pool answers as its error. */
        static final String ERROR = "java.lang.IllegalStateException: pool backend gone";

        private volatile boolean broken;

        /** Every read throws from now on. */
        void breakDown() {
            broken = true;
        }

        private <T> T read(T value) {
            if (broken) {
                throw new IllegalStateException("pool backend gone");
            }
            return value;
        }

        @Override public String name() { return read("broken"); }
        @Override public int capacity() { return read(4); }
        @Override public int running() { return read(0); }
        @Override public int free() { return read(4); }
        @Override public int waiting() { return read(0); }
        @Override public PoolStats stats() { return read(new PoolStats(4, 0, 0, 0, 0, 0, 0, 0, false, 0)); }
        @Override public boolean isClosed() { return read(false); }
        @Override public void tune(int capacity) { read(capacity); }
        @Override public void release() { }
        @Override public void releaseTimeout(Duration timeout) { }
        @Override public void reboot() { }
        @Override public void close() { }
    }

    /** A shared semaphore whose {@code scope()} throws. */
    static final class Scopeless extends FlakySemaphore {

        /** What a read of it answers as its error. */
        static final String ERROR = "java.lang.IllegalStateException: no scope";

        Scopeless(long size) {
            super(size);
        }

        @Override
        public String scope() {
            throw new IllegalStateException("no scope");
        }
    }
}
