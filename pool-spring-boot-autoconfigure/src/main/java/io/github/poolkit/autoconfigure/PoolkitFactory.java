package io.github.poolkit.autoconfigure;

import static io.github.poolkit.autoconfigure.InvalidPoolkitPropertyException.check;
import static io.github.poolkit.autoconfigure.PoolkitAutoConfiguration.DELAY_SCHEDULER;
import static io.github.poolkit.autoconfigure.PoolkitAutoConfiguration.WEIGHTED_SEMAPHORE;
import static io.github.poolkit.autoconfigure.PoolkitAutoConfiguration.WORKER_POOL;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

import org.jspecify.annotations.Nullable;

import io.github.poolkit.DelayScheduler;
import io.github.poolkit.InvalidOptionException;
import io.github.poolkit.PoolListener;
import io.github.poolkit.PoolOptions;
import io.github.poolkit.WeightedSemaphore;
import io.github.poolkit.WorkerPool;

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
        PoolOptions own = options.build(); // the properties' alone, before the customizers change the builder
        WorkerPool pool;
        Finished finished = finish(settings.beanName, options);
        try {
            pool = WorkerPool.create(settings.capacity(), finished.options());
        }
        catch (InvalidOptionException ex) {
            throw blame(settings, own, ex);
        }
        finished.addCustomListener(pool::addListener);
        AdaptiveSettings adaptive = settings.adaptive();
        if (adaptive != null && pool.options().adaptiveCapacity() == own.adaptiveCapacity()) { // else "custom"
            adaptive.rememberFor(pool);
        }
        listeners.attach(settings.beanName, overdueLog.listenerFor(settings.beanName, pool));
        lifecycle.manage(settings.beanName, pool, shutdownTimeout);
        return pool;
    }

    /**
     * @param own the options the properties alone make
     * @param ex  the refusal of the options as the customizers left them
     * @return the refusal, blamed on the property the value came from when the properties alone are refused too
     *         (start-up's check refuses them before any bean is made, unless it was bypassed), else on the customizers
     */
    private static RuntimeException blame(PoolSettings settings, PoolOptions own, InvalidOptionException ex) {
        try {
            own.validate(settings.capacity());
        }
        catch (InvalidOptionException fromProperties) {
            return settings.translate(fromProperties);
        }
        return customized(settings.beanName, ex);
    }

    /**
     * @param ex the refusal of options that were valid before the customizers ran
     * @return the refusal, blamed on the customizers, in the builder's terms that they use
     */
    private static IllegalStateException customized(String beanName, InvalidOptionException ex) {
        return new IllegalStateException("The PoolCustomizer beans left pool '" + beanName + "' with an invalid option"
                + " (its properties alone are valid): " + ex.getMessage(), ex);
    }

    /**
     * Adds what every pool gets after its properties, then the customizers, and builds the options. A listener a
     * customizer set is kept apart, to be added to the pool once made: it is told as well as poolkit's own (whose
     * meters and overdue reports it would otherwise replace), not instead.
     */
    private Finished finish(String beanName, PoolOptions.Builder options) {
        options.taskDecorator(taskDecorator).panicHandler(new PoolPanicLogger(beanName));
        PoolListener ours = listeners.listenerFor(beanName);
        customizers.forEach(customizer -> customizer.customize(beanName, options));
        PoolOptions built = options.build();
        PoolListener theirs = built.listener();
        if (theirs == ours) {
            return new Finished(built, null);
        }
        return new Finished(built.toBuilder().listener(ours).build(), theirs);
    }

    /**
     * A pool's options as poolkit and the customizers left them, and the listener a customizer set, if any.
     *
     * @param options        the options, with poolkit's own listener
     * @param customListener the listener a customizer set instead of poolkit's, or {@code null}
     */
    private record Finished(PoolOptions options, @Nullable PoolListener customListener) {

        /** @param addListener the made pool's or scheduler's {@code addListener} */
        void addCustomListener(Consumer<PoolListener> addListener) {
            if (customListener != null) {
                addListener.accept(customListener);
            }
        }
    }

    /** @return the primary semaphore, from {@code poolkit.semaphore} */
    WeightedSemaphore primarySemaphore() {
        return local(WEIGHTED_SEMAPHORE, null, properties.getSemaphore().getSize());
    }

    /**
     * @param name a key of {@code poolkit.semaphores}
     * @return that named semaphore, its size taken from {@code poolkit.semaphore} when unset
     */
    WeightedSemaphore namedSemaphore(String name) {
        NamedSemaphoreProperties own = properties.getSemaphores().get(name);
        long size = (own.getSize() != null) ? own.getSize() : properties.getSemaphore().getSize();
        return local(name, name, size);
    }

    /**
     * @param beanName the bean name
     * @param name     a key of {@code poolkit.semaphores}, or {@code null} for the primary semaphore
     * @param size     its size, own or inherited
     * @return a local semaphore of that size, or following its adaptive limit when {@code adaptive.*} makes one
     */
    private WeightedSemaphore local(String beanName, @Nullable String name, long size) {
        String sizeProperty = sizeProperty(properties, name);
        checkSize(sizeProperty, size);
        AdaptiveSettings adaptive = semaphoreAdaptive(properties, name, size);
        if (adaptive == null) {
            return semaphore(beanName, sizeProperty, size);
        }
        WeightedSemaphore semaphore = WeightedSemaphore.adaptive(adaptive.toLimit(),
                semaphoreListeners.listenerFor(beanName));
        adaptive.rememberFor(semaphore);
        return semaphore;
    }

    /**
     * @param properties the configuration
     * @param name       a key of {@code poolkit.semaphores}, a local semaphore, or {@code null} for the primary
     *                   semaphore (whose {@code adaptive} keys the named ones do not inherit)
     * @param size       its size, not negative
     * @return its adaptive size's settings, or {@code null} when its size is fixed
     * @throws InvalidPoolkitPropertyException if the bounds of its adaptive size cannot be used
     */
    static @Nullable AdaptiveSettings semaphoreAdaptive(PoolkitProperties properties, @Nullable String name,
            long size) {
        List<InvalidPoolkitPropertyException> problems = new ArrayList<>();
        AdaptiveSettings settings = semaphoreAdaptive(properties, name, size, problems);
        InvalidPoolkitPropertyException.throwFirst(problems);
        return settings;
    }

    /**
     * As {@link #semaphoreAdaptive(PoolkitProperties, String, long)}, adding every bound at fault to
     * {@code problems} (then {@code null}).
     */
    static @Nullable AdaptiveSettings semaphoreAdaptive(PoolkitProperties properties, @Nullable String name,
            long size, List<InvalidPoolkitPropertyException> problems) {
        AdaptiveProperties adaptive = (name == null) ? properties.getSemaphore().getAdaptive()
                : properties.getSemaphores().get(name).getAdaptive();
        String prefix = (name == null) ? "poolkit.semaphore.adaptive." : "poolkit.semaphores." + name + ".adaptive.";
        return AdaptiveSettings.resolve(adaptive.getAlgorithm(), adaptive.getMin(), prefix + "min", adaptive.getMax(),
                prefix + "max", size, "the size, " + sizeProperty(properties, name), problems);
    }

    private WeightedSemaphore semaphore(String beanName, String property, long size) {
        checkSize(property, size);
        return new WeightedSemaphore(size, semaphoreListeners.listenerFor(beanName));
    }

    /**
     * @param properties the bound {@code poolkit.*} properties
     * @param name       a key of {@code poolkit.semaphores}, or {@code null} for the primary semaphore
     * @return the property that sets that semaphore's size: its own, or the inherited {@code poolkit.semaphore.size}
     */
    static String sizeProperty(PoolkitProperties properties, String name) {
        return (name == null || properties.getSemaphores().get(name).getSize() == null) ? "poolkit.semaphore.size"
                : "poolkit.semaphores." + name + ".size";
    }

    /**
     * @param property the property the size comes from
     * @param size     a semaphore's size
     * @throws InvalidPoolkitPropertyException if the size is negative
     */
    static void checkSize(String property, long size) {
        check(size >= 0, property, size, "a semaphore's size cannot be negative",
                "set " + property + " to zero or a positive number of permits");
    }

    /**
     * @param properties the configuration: {@code poolkit.scheduler}, and {@code poolkit.pool}, whose overdue keys
     *                   ({@code run-timeout}, {@code queue-timeout}, {@code interrupt-overdue}) the scheduler inherits
     *                   where it does not set them itself, even when that pool is disabled
     * @return every problem of its values, each naming its property; empty when the scheduler can be created
     */
    static List<InvalidPoolkitPropertyException> schedulerProblems(PoolkitProperties properties) {
        SchedulerProperties scheduler = properties.getScheduler();
        List<InvalidPoolkitPropertyException> problems = new ArrayList<>();
        // the overdue options do not depend on the number of workers, which is checked below
        problems.addAll(PoolSettings.scheduler(DELAY_SCHEDULER, scheduler, properties.getPool())
                .overdueProblems(Math.max(1, scheduler.getWorkers())));
        if (scheduler.getWorkers() <= 0) {
            problems.add(new InvalidPoolkitPropertyException("poolkit.scheduler.workers", scheduler.getWorkers(),
                    "the scheduler needs at least one worker to run its jobs",
                    "set poolkit.scheduler.workers to a positive number, such as 4"));
        }
        Duration timeout = scheduler.getShutdownTimeout();
        if (timeout != null && timeout.isNegative()) {
            problems.add(new InvalidPoolkitPropertyException("poolkit.scheduler.shutdown-timeout", timeout,
                    "the shutdown timeout cannot be negative", "set poolkit.scheduler.shutdown-timeout to zero or a"
                            + " positive duration such as 30s, or leave it unset"));
        }
        return problems;
    }

    /**
     * @return the delay scheduler, from {@code poolkit.scheduler}; its jobs pass the gate that pauses them on the
     *         context's {@code stop()}, outside the application's decorators and customizers
     */
    DelayScheduler delayScheduler() {
        SchedulerProperties scheduler = properties.getScheduler();
        List<InvalidPoolkitPropertyException> problems = schedulerProblems(properties);
        if (!problems.isEmpty()) {
            throw problems.get(0);
        }
        Duration timeout = scheduler.getShutdownTimeout();
        PoolOptions.Builder options = PoolOptions.builder().name(DELAY_SCHEDULER)
                .listener(listeners.listenerFor(DELAY_SCHEDULER));
        PoolSettings inherited = PoolSettings.scheduler(DELAY_SCHEDULER, scheduler, properties.getPool());
        try {
            inherited.overdueOptions(options).build().validate(scheduler.getWorkers());
        }
        catch (InvalidOptionException ex) {
            throw inherited.translate(ex);
        }
        Finished finished = finish(DELAY_SCHEDULER, options);
        PoolOptions built = finished.options();
        try {
            built.validate(scheduler.getWorkers());
        }
        catch (InvalidOptionException ex) {
            throw customized(DELAY_SCHEDULER, ex);
        }
        SchedulerPause pause = new SchedulerPause();
        UnaryOperator<Runnable> decorator = built.taskDecorator();
        UnaryOperator<Runnable> gated = (decorator == null) ? pause : task -> pause.apply(decorator.apply(task));
        DelayScheduler delayScheduler = DelayScheduler.create(scheduler.getWorkers(),
                built.toBuilder().taskDecorator(gated).build());
        finished.addCustomListener(delayScheduler::addListener);
        listeners.attach(DELAY_SCHEDULER, overdueLog.listenerFor(DELAY_SCHEDULER, delayScheduler));
        lifecycle.manage(DELAY_SCHEDULER, delayScheduler, timeout, pause);
        return delayScheduler;
    }
}
