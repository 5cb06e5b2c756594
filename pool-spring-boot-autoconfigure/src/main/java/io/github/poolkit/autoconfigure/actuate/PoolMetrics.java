package io.github.poolkit.autoconfigure.actuate;

import java.util.Map;
import java.util.function.ToDoubleFunction;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

import io.github.poolkit.WeightedSemaphore;
import io.github.poolkit.WorkerPool;
import io.github.poolkit.autoconfigure.PoolTaskListeners;

/**
 * Binds poolkit's meters, each tagged {@code name} = the bean name.
 * <ul>
 *   <li>Gauges of every {@link WorkerPool} bean: {@code poolkit.pool.running}, {@code poolkit.pool.waiting},
 *       {@code poolkit.pool.free} and {@code poolkit.pool.capacity} (the last two are -1 when unlimited).</li>
 *   <li>Gauges of every {@link WeightedSemaphore} bean: {@code poolkit.semaphore.used},
 *       {@code poolkit.semaphore.waiting}, {@code poolkit.semaphore.available}, {@code poolkit.semaphore.size}.</li>
 *   <li>For the pools poolkit created: the counter {@code poolkit.pool.tasks} (tag {@code outcome}) and the timers
 *       {@code poolkit.pool.task.duration} and {@code poolkit.pool.task.wait} ({@link PoolTaskMeters}), fed by the
 *       listener each pool got at creation; tasks finished before the registry is bound are not counted.</li>
 * </ul>
 *
 * <p>Gauges read the pools' counters without locking when the registry samples them; each read is a racy snapshot,
 * fine for monitoring.
 */
public class PoolMetrics implements MeterBinder {

    private final Map<String, WorkerPool> pools;
    private final Map<String, WeightedSemaphore> semaphores;
    private final PoolTaskListeners listeners;

    /**
     * @param pools      the pools by bean name
     * @param semaphores the semaphores by bean name
     * @param listeners  the listeners of the pools poolkit created, to attach the task meters to
     */
    public PoolMetrics(Map<String, WorkerPool> pools, Map<String, WeightedSemaphore> semaphores,
            PoolTaskListeners listeners) {
        this.pools = Map.copyOf(pools);
        this.semaphores = Map.copyOf(semaphores);
        this.listeners = listeners;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        pools.forEach((name, pool) -> {
            gauge(registry, "poolkit.pool.running", "Workers alive: busy, or idle and not yet purged", name, pool,
                    WorkerPool::running);
            gauge(registry, "poolkit.pool.waiting", "Callers blocked in execute plus queued tasks", name, pool,
                    WorkerPool::waiting);
            gauge(registry, "poolkit.pool.free", "Workers that may still be started; -1 when unlimited", name, pool,
                    WorkerPool::free);
            gauge(registry, "poolkit.pool.capacity", "Most workers alive at once; -1 when unlimited", name, pool,
                    WorkerPool::capacity);
            if (listeners.isReporting(name)) {
                listeners.attach(name, new PoolTaskMeters(registry, name));
            }
        });
        semaphores.forEach((name, semaphore) -> {
            gauge(registry, "poolkit.semaphore.used", "Weight held", name, semaphore, WeightedSemaphore::used);
            gauge(registry, "poolkit.semaphore.waiting", "Callers waiting in line", name, semaphore,
                    WeightedSemaphore::waiting);
            gauge(registry, "poolkit.semaphore.available", "Weight free: size - used", name, semaphore,
                    WeightedSemaphore::available);
            gauge(registry, "poolkit.semaphore.size", "Total weight", name, semaphore, WeightedSemaphore::size);
        });
    }

    private static <T> void gauge(MeterRegistry registry, String meter, String description, String name, T target,
            ToDoubleFunction<T> value) {
        Gauge.builder(meter, target, value).description(description).tag("name", name).register(registry);
    }
}
