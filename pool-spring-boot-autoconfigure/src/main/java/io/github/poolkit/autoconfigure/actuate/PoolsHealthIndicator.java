package io.github.poolkit.autoconfigure.actuate;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Predicate;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

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

    /**
     * Creates the health indicator.
     *
     * @param beans where to find the pools, schedulers and semaphores
     */
    public PoolsHealthIndicator(PoolkitBeans beans) {
        super("Pools health check failed");
        this.beans = beans;
    }

    /** Describes each bean, adding the names of the closed ones to {@code closed}. */
    private static <B, D> Map<String, D> describe(Map<String, B> beans, Function<B, D> describer,
            Predicate<D> isClosed, List<String> closed) {
        Map<String, D> entries = new TreeMap<>();
        beans.forEach((name, bean) -> {
            D entry = describer.apply(bean);
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
        Map<String, PoolDescriptor> pools = describe(beans.pools(), PoolDescriptor::of, PoolDescriptor::closed,
                closed);
        Map<String, SchedulerDescriptor> schedulers = describe(beans.schedulers(), SchedulerDescriptor::of,
                SchedulerDescriptor::closed, closed);
        Map<String, SemaphoreDescriptor> semaphores = new TreeMap<>();
        Map<String, String> unreadable = new TreeMap<>();
        beans.semaphores().forEach((name, semaphore) -> {
            SemaphoreDescriptor entry = SemaphoreDescriptor.of(semaphore);
            semaphores.put(name, entry);
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
