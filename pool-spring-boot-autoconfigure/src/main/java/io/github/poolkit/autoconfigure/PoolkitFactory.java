package io.github.poolkit.autoconfigure;

import static io.github.poolkit.autoconfigure.InvalidPoolkitPropertyException.check;

import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;

import io.github.poolkit.DelayScheduler;
import io.github.poolkit.InvalidOptionException;
import io.github.poolkit.PoolOptions;
import io.github.poolkit.WeightedSemaphore;
import io.github.poolkit.WorkerPool;
import io.github.poolkit.autoconfigure.PoolkitProperties.NamedSemaphore;
import io.github.poolkit.autoconfigure.PoolkitProperties.Scheduler;

/**
 * Builds every bean poolkit's auto-configuration contributes, primary and named alike, from
 * {@link PoolkitProperties}. A pool's options are assembled in this order: its properties (a named pool's own keys
 * over {@code poolkit.pool}'s), its name (the bean name), the application's task decorator, the logging panic handler
 * and its metrics listener, then every {@link PoolCustomizer} in order; the scheduler's worker pool gets the same
 * treatment from the task decorator on. An invalid setting throws {@link InvalidPoolkitPropertyException} naming the
 * property. Each pool and the scheduler is handed to {@link PoolkitLifecycle} for the shutdown on context close.
 *
 * <p>The named-pool and named-semaphore methods are the factory methods of the bean definitions
 * {@link NamedBeansRegistrar} registers, so that Spring's AOT engine can generate code for them.
 *
 * <p>Stateless apart from its collaborators; each method creates a new object.
 */
final class PoolkitFactory {

    /** The bean name of this factory, which the named beans' definitions refer to. */
    static final String BEAN_NAME = "poolkitFactory";

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
    private final UnaryOperator<Runnable> taskDecorator;
    private final List<PoolCustomizer> customizers;
    private final boolean virtualThreadsByDefault;
    private final PoolOverdueLog overdueLog;

    /**
     * @param properties              the bound {@code poolkit.*} properties
     * @param listeners               the metrics listeners, one per pool
     * @param semaphoreListeners      the metrics listeners, one per semaphore
     * @param lifecycle               stops every pool and the scheduler on context close
     * @param taskDecorator           the application's task decorator ({@link TaskDecorators}), or {@code null}
     * @param customizers             applied in this order after the properties
     * @param virtualThreadsByDefault {@code spring.threads.virtual.enabled}, for pools that leave
     *                                {@code virtual-threads} unset
     * @param overdueLog              logs, publishes and keeps the overdue tasks of every pool and the scheduler
     */
    PoolkitFactory(PoolkitProperties properties, PoolTaskListeners listeners, SemaphoreListeners semaphoreListeners,
            PoolkitLifecycle lifecycle, UnaryOperator<Runnable> taskDecorator, List<PoolCustomizer> customizers,
            boolean virtualThreadsByDefault, PoolOverdueLog overdueLog) {
        this.properties = properties;
        this.listeners = listeners;
        this.semaphoreListeners = semaphoreListeners;
        this.lifecycle = lifecycle;
        this.taskDecorator = taskDecorator;
        this.customizers = List.copyOf(customizers);
        this.virtualThreadsByDefault = virtualThreadsByDefault;
        this.overdueLog = overdueLog;
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
        Duration shutdownTimeout = settings.shutdownTimeout();
        PoolOptions.Builder options = settings.toOptions(virtualThreadsByDefault)
                .listener(listeners.listenerFor(settings.beanName));
        WorkerPool pool;
        try {
            pool = WorkerPool.create(settings.capacity(), finish(settings.beanName, options));
        }
        catch (InvalidOptionException ex) {
            throw settings.translate(ex);
        }
        listeners.attach(settings.beanName, overdueLog.listenerFor(settings.beanName, pool));
        lifecycle.manage(settings.beanName, pool, shutdownTimeout);
        return pool;
    }

    /** Adds what every pool gets after its properties, then the customizers, and builds the options. */
    private PoolOptions finish(String beanName, PoolOptions.Builder options) {
        options.taskDecorator(taskDecorator).panicHandler(new PoolPanicLogger(beanName));
        customizers.forEach(customizer -> customizer.customize(beanName, options));
        return options.build();
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

    /**
     * @return the delay scheduler, from {@code poolkit.scheduler}; its jobs pass the gate that pauses them on the
     *         context's {@code stop()}, outside the application's decorators and customizers
     */
    DelayScheduler delayScheduler() {
        Scheduler scheduler = properties.getScheduler();
        check(scheduler.getWorkers() > 0, "poolkit.scheduler.workers", scheduler.getWorkers(),
                "the scheduler needs at least one worker to run its jobs",
                "set poolkit.scheduler.workers to a positive number, such as 4");
        Duration timeout = scheduler.getShutdownTimeout();
        check(timeout == null || !timeout.isNegative(), "poolkit.scheduler.shutdown-timeout", timeout,
                "the shutdown timeout cannot be negative",
                "set poolkit.scheduler.shutdown-timeout to zero or a positive duration such as 30s, or leave it unset");
        PoolOptions.Builder options = PoolOptions.builder().name(DELAY_SCHEDULER)
                .listener(listeners.listenerFor(DELAY_SCHEDULER));
        PoolSettings inherited = PoolSettings.primary(DELAY_SCHEDULER, properties.getPool());
        try {
            inherited.overdueOptions(options).build().validate(scheduler.getWorkers());
        }
        catch (InvalidOptionException ex) {
            throw inherited.translate(ex);
        }
        PoolOptions built = finish(DELAY_SCHEDULER, options);
        SchedulerPause pause = new SchedulerPause();
        UnaryOperator<Runnable> decorator = built.taskDecorator();
        UnaryOperator<Runnable> gated = (decorator == null) ? pause : task -> pause.apply(decorator.apply(task));
        DelayScheduler delayScheduler = DelayScheduler.create(scheduler.getWorkers(),
                built.toBuilder().taskDecorator(gated).build());
        listeners.attach(DELAY_SCHEDULER, overdueLog.listenerFor(DELAY_SCHEDULER, delayScheduler));
        lifecycle.manage(DELAY_SCHEDULER, delayScheduler, timeout, pause);
        return delayScheduler;
    }
}
