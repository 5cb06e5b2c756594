package io.github.poolkit.autoconfigure.actuate;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

import io.github.poolkit.autoconfigure.PoolOverdueLog;
import io.github.poolkit.autoconfigure.actuate.PoolsEndpoint.PoolDescriptor;
import io.github.poolkit.autoconfigure.actuate.PoolsEndpoint.SchedulerDescriptor;
import io.github.poolkit.autoconfigure.actuate.PoolsEndpoint.SemaphoreDescriptor;

/**
 * Health contributor {@code pools}: UP while every pool and scheduler bean is open and every pool's and semaphore's
 * figures can be read; DOWN once a pool or scheduler is closed (detail {@code closed}: their names) or a pool or
 * semaphore cannot be read, such as a cluster-wide semaphore whose store is unreachable or a {@code Pool} class of the
 * application's own whose {@code stats()} throws (detail {@code unreadable}: name to error).
 *
 * <p>Details {@code pools}, {@code schedulers} and {@code semaphores} hold the same entries as the {@code pools}
 * endpoint, each pool or scheduler from one stats snapshot. The beans are looked up at each check.
 */
public class PoolsHealthIndicator extends AbstractHealthIndicator {

    private final PoolkitBeans beans;
    private final @Nullable PoolOverdueLog overdueLog;

    /**
     * Creates the health indicator.
     *
     * @param beans where to find the pools, schedulers and semaphores
     */
    public PoolsHealthIndicator(PoolkitBeans beans) {
        this(beans, null);
    }

    /**
     * Creates the health indicator, whose pool and scheduler entries show their latest overdue tasks as the
     * {@code pools} endpoint does.
     *
     * @param beans      where to find the pools, schedulers and semaphores
     * @param overdueLog the latest overdue tasks of the pools and the scheduler poolkit created, or {@code null}
     */
    public PoolsHealthIndicator(PoolkitBeans beans, @Nullable PoolOverdueLog overdueLog) {
        super("Pools health check failed");
        this.beans = beans;
        this.overdueLog = overdueLog;
    }

    /** @return each bean's entry, by bean name */
    private static <B, D> Map<String, D> describe(Map<String, B> beans, Function<B, D> describer) {
        Map<String, D> entries = new TreeMap<>();
        beans.forEach((name, bean) -> entries.put(name, describer.apply(bean)));
        return entries;
    }

    /**
     * Adds the name of each closed entry to {@code closed}, and each unreadable one's error to {@code unreadable}.
     * An unreadable entry is never taken for open or closed: it tells neither.
     */
    private static <D> void check(Map<String, D> entries, Predicate<D> isClosed, Function<D, @Nullable String> error,
            List<String> closed, Map<String, String> unreadable) {
        entries.forEach((name, entry) -> {
            String why = error.apply(entry);
            if (why != null) {
                unreadable.put(name, why);
            }
            else if (isClosed.test(entry)) {
                closed.add(name);
            }
        });
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        // Each entry is read so that a bean that throws gives an entry with its error (PoolDescriptor.of,
        // SemaphoreDescriptor.of): one broken bean makes the check DOWN naming it, never hides the others' details.
        Map<String, PoolDescriptor> pools = describe(beans.pools(),
                pool -> PoolDescriptor.of(pool, PoolOverdueLog.recentOf(overdueLog, pool)));
        Map<String, SchedulerDescriptor> schedulers = describe(beans.schedulers(),
                scheduler -> SchedulerDescriptor.of(scheduler, PoolOverdueLog.recentOf(overdueLog, scheduler)));
        Map<String, SemaphoreDescriptor> semaphores = SemaphoreReads.readAll(beans.semaphores());
        List<String> closed = new ArrayList<>();
        Map<String, String> unreadable = new TreeMap<>();
        check(pools, pool -> Boolean.TRUE.equals(pool.closed()), PoolDescriptor::error, closed, unreadable);
        check(schedulers, SchedulerDescriptor::closed, scheduler -> null, closed, unreadable);
        check(semaphores, semaphore -> false, SemaphoreDescriptor::error, closed, unreadable);
        builder.withDetail("pools", pools).withDetail("schedulers", schedulers).withDetail("semaphores", semaphores);
        if (closed.isEmpty() && unreadable.isEmpty()) {
            builder.up();
            return;
        }
        builder.down();
        if (!closed.isEmpty()) {
            builder.withDetail("closed", closed.stream().sorted().toList());
        }
        if (!unreadable.isEmpty()) {
            builder.withDetail("unreadable", unreadable);
        }
    }
}
