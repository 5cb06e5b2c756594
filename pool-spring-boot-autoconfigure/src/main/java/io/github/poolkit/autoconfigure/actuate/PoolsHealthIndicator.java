package io.github.poolkit.autoconfigure.actuate;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiFunction;
import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

import io.github.poolkit.autoconfigure.PoolOverdueLog;
import io.github.poolkit.autoconfigure.actuate.PoolsEndpoint.PoolDescriptor;
import io.github.poolkit.autoconfigure.actuate.PoolsEndpoint.SchedulerDescriptor;
import io.github.poolkit.autoconfigure.actuate.PoolsEndpoint.SemaphoreDescriptor;

/**
 * Health contributor {@code pools}: UP while every pool and scheduler bean is open and every semaphore's figures can
 * be read; DOWN once a pool or scheduler is closed (detail {@code closed}: their names) or a semaphore cannot be read,
 * such as a cluster-wide semaphore whose store is unreachable (detail {@code unreadable}: name to error).
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

    /** Describes each bean, adding the names of the closed ones to {@code closed}. */
    private static <B, D> Map<String, D> describe(Map<String, B> beans, BiFunction<String, B, D> describer,
            Predicate<D> isClosed, List<String> closed) {
        Map<String, D> entries = new TreeMap<>();
        beans.forEach((name, bean) -> {
            D entry = describer.apply(name, bean);
            entries.put(name, entry);
            if (isClosed.test(entry)) {
                closed.add(name);
            }
        });
        return entries;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        List<String> closed = new ArrayList<>();
        Map<String, PoolDescriptor> pools = describe(beans.pools(),
                (name, pool) -> PoolDescriptor.of(pool, PoolOverdueLog.recentOf(overdueLog, pool)),
                PoolDescriptor::closed, closed);
        Map<String, SchedulerDescriptor> schedulers = describe(beans.schedulers(),
                (name, scheduler) -> SchedulerDescriptor.of(scheduler, PoolOverdueLog.recentOf(overdueLog, scheduler)),
                SchedulerDescriptor::closed, closed);
        Map<String, SemaphoreDescriptor> semaphores = SemaphoreReads.readAll(beans.semaphores());
        Map<String, String> unreadable = new TreeMap<>();
        semaphores.forEach((name, entry) -> {
            if (!entry.readable()) {
                unreadable.put(name, entry.error());
            }
        });
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
