package io.github.poolkit.autoconfigure;

import static io.github.poolkit.autoconfigure.InvalidPoolkitPropertyException.check;

import java.time.Duration;

import io.github.poolkit.DelayScheduler;
import io.github.poolkit.PoolOptions;
import io.github.poolkit.WeightedSemaphore;
import io.github.poolkit.WorkerPool;
import io.github.poolkit.autoconfigure.PoolkitProperties.NamedSemaphore;
import io.github.poolkit.autoconfigure.PoolkitProperties.Scheduler;

/**
 * Builds every bean poolkit's auto-configuration contributes, primary and named alike, from
 * {@link PoolkitProperties}: checks the settings (an invalid one throws {@link InvalidPoolkitPropertyException}),
 * names the pool after its bean, gives it virtual-thread workers when asked, the logging panic handler and its
 * metrics listener, and hands it to {@link PoolkitLifecycle} for an orderly release on context close.
 *
 * <p>Stateless apart from its collaborators; each method creates a new object.
 */
final class PoolkitFactory {

    /** The bean name of the primary worker pool. */
    static final String WORKER_POOL = "workerPool";

    /** The bean name of the primary weighted semaphore. */
    static final String WEIGHTED_SEMAPHORE = "weightedSemaphore";

    /** The bean name of the delay scheduler. */
    static final String DELAY_SCHEDULER = "delayScheduler";

    private final PoolkitProperties properties;
    private final PoolTaskListeners listeners;
    private final SemaphoreListeners semaphoreListeners;
    private final PoolkitLifecycle lifecycle;

    PoolkitFactory(PoolkitProperties properties, PoolTaskListeners listeners, SemaphoreListeners semaphoreListeners,
            PoolkitLifecycle lifecycle) {
        this.properties = properties;
        this.listeners = listeners;
        this.semaphoreListeners = semaphoreListeners;
        this.lifecycle = lifecycle;
    }

    /** @return the primary pool, from {@code poolkit.pool} */
    WorkerPool primaryPool() {
        return pool(PoolSettings.primary(WORKER_POOL, properties.getPool()));
    }

    /**
     * @param name a key of {@code poolkit.pools}
     * @return that named pool, its unset keys taken from {@code poolkit.pool}
     */
    WorkerPool namedPool(String name) {
        return pool(PoolSettings.named(name, properties.getPools().get(name), properties.getPool()));
    }

    private WorkerPool pool(PoolSettings settings) {
        settings.validate();
        PoolOptions.Builder options = settings.toOptions()
                .panicHandler(new PoolPanicLogger(settings.beanName))
                .listener(listeners.listenerFor(settings.beanName));
        if (settings.virtualThreads) {
            options.threadFactory(Thread.ofVirtual().name(settings.beanName + "-", 1).factory());
        }
        WorkerPool pool = WorkerPool.create(settings.capacity, options.build());
        lifecycle.manage(settings.beanName, pool, settings.shutdownTimeout);
        return pool;
    }

    /** @return the primary semaphore, from {@code poolkit.semaphore} */
    WeightedSemaphore primarySemaphore() {
        return semaphore(WEIGHTED_SEMAPHORE, "poolkit.semaphore.size", properties.getSemaphore().getSize());
    }

    /**
     * @param name a key of {@code poolkit.semaphores}
     * @return that named semaphore, its size taken from {@code poolkit.semaphore} when unset
     */
    WeightedSemaphore namedSemaphore(String name) {
        NamedSemaphore own = properties.getSemaphores().get(name);
        if (own.getSize() == null) {
            return semaphore(name, "poolkit.semaphore.size", properties.getSemaphore().getSize());
        }
        return semaphore(name, "poolkit.semaphores." + name + ".size", own.getSize());
    }

    private WeightedSemaphore semaphore(String beanName, String property, long size) {
        check(size >= 0, property, size, "a semaphore's size cannot be negative",
                "set " + property + " to zero or a positive number of permits");
        return new WeightedSemaphore(size, semaphoreListeners.listenerFor(beanName));
    }

    /** @return the delay scheduler, from {@code poolkit.scheduler} */
    DelayScheduler delayScheduler() {
        Scheduler scheduler = properties.getScheduler();
        check(scheduler.getWorkers() > 0, "poolkit.scheduler.workers", scheduler.getWorkers(),
                "the scheduler needs at least one worker to run its jobs",
                "set poolkit.scheduler.workers to a positive number, such as 4");
        Duration timeout = scheduler.getShutdownTimeout();
        check(timeout != null && !timeout.isNegative(), "poolkit.scheduler.shutdown-timeout", timeout,
                "the shutdown timeout cannot be negative",
                "set poolkit.scheduler.shutdown-timeout to zero or a positive duration such as 30s");
        DelayScheduler delayScheduler = DelayScheduler.create(scheduler.getWorkers(), PoolOptions.builder()
                .name(DELAY_SCHEDULER)
                .panicHandler(new PoolPanicLogger(DELAY_SCHEDULER))
                .listener(listeners.listenerFor(DELAY_SCHEDULER))
                .build());
        lifecycle.manage(DELAY_SCHEDULER, delayScheduler, timeout);
        return delayScheduler;
    }
}
