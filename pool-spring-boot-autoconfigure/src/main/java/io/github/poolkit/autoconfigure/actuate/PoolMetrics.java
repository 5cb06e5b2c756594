package io.github.poolkit.autoconfigure.actuate;

import java.time.Duration;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.aop.framework.AopProxyUtils;

import io.github.poolkit.DelayScheduler;
import io.github.poolkit.FuncPool;
import io.github.poolkit.MultiPool;
import io.github.poolkit.PermitSemaphore;
import io.github.poolkit.Pool;
import io.github.poolkit.PoolOptions;
import io.github.poolkit.PoolStats;
import io.github.poolkit.SemaphoreStats;
import io.github.poolkit.WeightedSemaphore;
import io.github.poolkit.WorkerPool;
import io.github.poolkit.autoconfigure.ExposedOptions;
import io.github.poolkit.autoconfigure.PoolBeanListeners;
import io.github.poolkit.autoconfigure.SemaphoreListeners;

/**
 * Binds the meters of every pool, scheduler and semaphore bean of the context, each tagged {@code name} = the bean
 * name: Micrometer's executor conventions ({@code executor.*}, as {@code ExecutorServiceMetrics} names them, so that
 * ready-made executor dashboards work) and poolkit's own {@code poolkit.*} meters. {@code docs/spring-boot.md} lists
 * them all with their meaning.
 *
 * <p>The gauges and counters of poolkit's pools, schedulers and local semaphores read the bean's {@code stats()} when
 * sampled, so each shows it as it is at that moment, also right after a change ({@code tune}, a task started or
 * ended); the meters of one scrape are then read at instants microseconds apart, not at one. Such a read takes the
 * pool's lock while it counts the workers, which a scrape seconds apart can afford once per meter. A {@code Pool}
 * class of the application's own (whose {@code stats()} may be slow) and the semaphores shared through a store
 * (cluster semaphores, read all at once: a round trip each, and with the store down one timeout per scrape, not one
 * per gauge) are read once and that read serves their meters for {@link #SNAPSHOT_AGE} ({@link StatsSnapshot}). A
 * function counter whose read throws shows its last total (a counter that throws would fail a whole Prometheus
 * scrape); a gauge shows {@code NaN}.
 *
 * <p>Micrometer holds a gauge's object weakly, so this binder keeps the readers for as long as it lives (the context);
 * a registry that outlives the context does not keep the beans alive, since no gauge function holds a bean either.
 * The beans are looked up when the registry is bound, after every singleton exists (lazy ones are created then); a
 * bean registered later ({@code registerSingleton} on a running context) gets no meters.
 * Timers and the {@code poolkit.pool.tasks} counter need events: the pool's task meters ({@link PoolTaskMeters}) are
 * attached through {@link PoolBeanListeners} to every pool and scheduler, whoever made it (one the application made
 * reports the tasks it accepts from then on); the counter starts from the pool's totals at that moment. A {@code Pool}
 * of the application's own kind that cannot take a listener has gauges and function counters only: its
 * {@code poolkit.pool.tasks} is a function counter over its {@code stats()}. The acquire timer is attached to the
 * semaphores poolkit created, and added ({@link WeightedSemaphore#addListener}) to a {@code WeightedSemaphore} the
 * application made, once under the first of its names (a cluster semaphore it made has gauges only).
 */
public class PoolMetrics implements MeterBinder {

    /**
     * How long one read of the cluster semaphores, or of a {@code Pool} class of the application's own, serves their
     * meters: long enough for one scrape, far shorter than between two.
     */
    static final Duration SNAPSHOT_AGE = Duration.ofMillis(100);

    /** The totals of a pool that could not be read when its meters were bound: its counters start from zero. */
    private static final PoolStats NO_TOTALS = new PoolStats(0, 0, 0, 0, 0, 0, 0, 0, false, 0);

    private final PoolkitBeans beans;
    private final PoolBeanListeners poolListeners;
    private final SemaphoreListeners semaphoreListeners;
    /** What the meters read, held here (they hold it weakly): each bean's reader of its figures, and the totals. */
    private final List<Object> readers = new CopyOnWriteArrayList<>();

    /**
     * Creates the meter binder.
     *
     * @param beans              where to find the pools, schedulers and semaphores
     * @param poolListeners      the listeners of every pool and scheduler, to attach the task timers to
     * @param semaphoreListeners the listeners of the semaphores poolkit created, to attach the acquire timer to
     */
    public PoolMetrics(PoolkitBeans beans, PoolBeanListeners poolListeners, SemaphoreListeners semaphoreListeners) {
        this.beans = beans;
        this.poolListeners = poolListeners;
        this.semaphoreListeners = semaphoreListeners;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        PoolkitBeans.onePerInstance(beans.pools(), Pool::name)
                .forEach((name, pool) -> bindPool(registry, name, pool));
        PoolkitBeans.onePerInstance(beans.schedulers(), DelayScheduler::name)
                .forEach((name, scheduler) -> bindScheduler(registry, name, scheduler));
        Map<String, PermitSemaphore> semaphores = beans.semaphores();
        Map<String, PermitSemaphore> shared = SemaphoreReads.shared(semaphores);
        // one read of all the semaphores shared through a store, at once: with the store down, a scrape (which
        // samples the gauges name by name: used of each, then waiting of each...) waits one timeout, not one per gauge
        StatsSnapshot<Map<String, Supplier<SemaphoreStats>>> sharedReads = new StatsSnapshot<>(
                () -> SemaphoreReads.statsOf(shared), SNAPSHOT_AGE);
        readers.add(sharedReads);
        Set<PermitSemaphore> timed = Collections.newSetFromMap(new IdentityHashMap<>());
        semaphores.forEach((name, semaphore) -> { // poolkit's own are timed by the listener they were made with
            if (semaphoreListeners.isReporting(name)) {
                timed.add(semaphore);
            }
        });
        semaphores.forEach((name, semaphore) -> {
            if (shared.containsKey(name)) {
                bindSemaphore(registry, name, () -> sharedReads.get().get(name).get());
            }
            else {
                bindSemaphore(registry, name, semaphore::stats);
            }
            if (semaphoreListeners.isReporting(name)) {
                semaphoreListeners.attach(name, new SemaphoreAcquireMeters(registry, name));
            }
            else if (semaphore instanceof WeightedSemaphore own && timed.add(own)) {
                // the application's own: timed from now on, once however many names it has
                own.addListener(new SemaphoreAcquireMeters(registry, name));
            }
        });
    }

    private void bindPool(MeterRegistry registry, String name, Pool pool) {
        Supplier<PoolStats> stats = reader(
                poolkits(pool) ? pool::stats : new StatsSnapshot<>(pool::stats, SNAPSHOT_AGE)::get);
        // read once (a queue's capacity is fixed when the pool is made), so that no gauge function holds the pool; a
        // pool of the application's own that cannot be read now is metered all the same, its totals from zero
        double queueBound = Double.NaN;
        PoolStats totals = NO_TOTALS;
        try {
            queueBound = queueBound(pool);
            totals = pool.stats();
        }
        catch (RuntimeException ex) {
            // its gauges show NaN until it can be read; the endpoint and the health check name the error
        }
        double bound = queueBound;
        bindExecutor(registry, name, pool, totals, stats, s -> queueRoom(bound, s));
    }

    /** {@return whether {@code pool} is one of poolkit's own kinds (behind a Spring proxy too), read without a cost} */
    private static boolean poolkits(Pool pool) {
        Object target = AopProxyUtils.getSingletonTarget(pool);
        Object bean = (target != null) ? target : pool;
        return bean instanceof WorkerPool || bean instanceof FuncPool<?> || bean instanceof MultiPool;
    }

    private void bindScheduler(MeterRegistry registry, String name, DelayScheduler scheduler) {
        Supplier<PoolStats> stats = reader(scheduler::stats);
        bindExecutor(registry, name, scheduler, scheduler.stats(), stats, s -> Integer.MAX_VALUE);
        Gauge.builder("poolkit.scheduler.pending", scheduler, DelayScheduler::pending)
                .description("Jobs whose time has not yet come").tag("name", name).baseUnit(BaseUnits.TASKS)
                .register(registry);
        Gauge.builder("executor.delayed", scheduler, DelayScheduler::pending)
                .description("Delayed tasks scheduled but not yet ready for execution").tag("name", name)
                .baseUnit(BaseUnits.TASKS).register(registry);
    }

    /**
     * {@return a function counter's reader of {@code value}, kept for as long as this binder (see {@link Total})}
     *
     * @param totals the figures read when the meters were bound: the total shown until a read succeeds
     */
    private Total total(Supplier<PoolStats> stats, PoolStats totals, ToDoubleFunction<PoolStats> value) {
        Total total = new Total(stats, value, value.applyAsDouble(totals));
        readers.add(total);
        return total;
    }

    /**
     * A function counter's reading that never throws: the latest total read, kept while a read fails (a pool of the
     * application's own that throws), since a counter that throws fails a whole Prometheus scrape.
     */
    private static final class Total {

        private final Supplier<PoolStats> stats;
        private final ToDoubleFunction<PoolStats> value;
        private volatile double last;

        Total(Supplier<PoolStats> stats, ToDoubleFunction<PoolStats> value, double first) {
            this.stats = stats;
            this.value = value;
            this.last = first;
        }

        double read() {
            try {
                last = value.applyAsDouble(stats.get());
            }
            catch (RuntimeException ex) {
                // keep the last total: the gauges of the same read show NaN, and the endpoint the error
            }
            return last;
        }
    }

    /** {@return {@code source}, kept for as long as this binder: the gauges' object, which they hold weakly} */
    private Supplier<PoolStats> reader(Supplier<PoolStats> source) {
        readers.add(source);
        return source;
    }

    /**
     * The meters a pool and a scheduler share, and its task meters where it can take a listener.
     *
     * @param totals the pool's figures now, before its task meters are attached
     */
    private void bindExecutor(MeterRegistry registry, String name, Object bean, PoolStats totals,
            Supplier<PoolStats> stats, ToDoubleFunction<PoolStats> queueRoom) {
        executorGauge(registry, "executor.active", "Workers running a task now", BaseUnits.THREADS, name, stats,
                PoolStats::busy);
        executorGauge(registry, "executor.pool.size", "Workers alive: busy plus idle", BaseUnits.THREADS, name,
                stats, PoolStats::running);
        executorGauge(registry, "executor.pool.max", "Most workers alive at once; Integer.MAX_VALUE when unlimited",
                BaseUnits.THREADS, name, stats, s -> s.unlimited() ? Integer.MAX_VALUE : s.capacity());
        executorGauge(registry, "executor.queued", "Tasks waiting: queued plus callers blocked in execute",
                BaseUnits.TASKS, name, stats, PoolStats::waiting);
        executorGauge(registry, "executor.queue.remaining",
                "Room left in the queue; 0 without one, Integer.MAX_VALUE when unbounded", BaseUnits.TASKS, name,
                stats, queueRoom);
        FunctionCounter.builder("executor.completed", total(stats, totals, PoolMetrics::finished), Total::read)
                .description("Tasks that finished running, normally or by throwing").baseUnit(BaseUnits.TASKS)
                .tag("name", name).register(registry);

        gauge(registry, "poolkit.pool.capacity", "Most workers alive at once; -1 when unlimited", name, stats,
                PoolStats::capacity);
        gauge(registry, "poolkit.pool.running", "Workers alive: busy, or idle and not yet purged", name, stats,
                PoolStats::running);
        gauge(registry, "poolkit.pool.busy", "Workers running a task now", name, stats, PoolStats::busy);
        gauge(registry, "poolkit.pool.waiting", "Queued tasks plus callers blocked in execute", name, stats,
                PoolStats::waiting);
        gauge(registry, "poolkit.pool.queued", "Tasks in the queue", name, stats, PoolStats::queued);
        gauge(registry, "poolkit.pool.blocked", "Callers blocked in execute", name, stats, PoolStats::blocked);
        gauge(registry, "poolkit.pool.free", "Workers that may still be started; -1 when unlimited", name, stats,
                PoolStats::free);
        // a Pool of the application's own kind that takes no listener has no timers (no events would reach them),
        // and its task counts from its stats()
        PoolTaskMeters meters = new PoolTaskMeters(registry, name, totals);
        if (!poolListeners.attach(name, bean, meters)) {
            meters.removeAll(registry);
            tasks(registry, name, stats, totals, "completed", PoolStats::completed);
            tasks(registry, name, stats, totals, "failed", PoolStats::failed);
            tasks(registry, name, stats, totals, "rejected", PoolStats::rejected);
        }
    }

    /** A semaphore's gauges: each reads {@code stats} (for a cluster one, the shared read of {@link #bindTo}). */
    private void bindSemaphore(MeterRegistry registry, String name, Supplier<SemaphoreStats> stats) {
        readers.add(stats); // the gauges' object, held weakly by them
        semaphoreGauge(registry, "poolkit.semaphore.used", "Weight held", name, stats, SemaphoreStats::used);
        semaphoreGauge(registry, "poolkit.semaphore.waiting", "Requests waiting in line", name, stats,
                SemaphoreStats::waiting);
        semaphoreGauge(registry, "poolkit.semaphore.available", "Weight free: size - used", name, stats,
                SemaphoreStats::available);
        semaphoreGauge(registry, "poolkit.semaphore.size", "Total weight", name, stats, SemaphoreStats::size);
    }

    /** @return tasks that finished running, normally or by throwing, as {@code ThreadPoolExecutor} counts them */
    private static double finished(PoolStats stats) {
        return stats.completed() + stats.failed();
    }

    /**
     * The most tasks a pool's queues hold: 0 without a queue, {@code Integer.MAX_VALUE} when unbounded; a
     * {@link MultiPool} has one queue per pool; not a number when the pool does not expose its options.
     */
    private static double queueBound(Pool pool) {
        PoolOptions options = ExposedOptions.of(pool);
        if (options == null) {
            return Double.NaN;
        }
        long perPool = options.queueCapacity();
        if (perPool < 0) {
            return Integer.MAX_VALUE;
        }
        long queues = (pool instanceof MultiPool multiPool) ? multiPool.size() : 1;
        return (double) perPool * queues;
    }

    /** {@return room left in queues of {@code bound} tasks ({@link #queueBound}) holding {@code stats.queued()}} */
    private static double queueRoom(double bound, PoolStats stats) {
        return (Double.isNaN(bound) || bound >= Integer.MAX_VALUE) ? bound : Math.max(0, bound - stats.queued());
    }

    private static void executorGauge(MeterRegistry registry, String meter, String description, String baseUnit,
            String name, Supplier<PoolStats> stats, ToDoubleFunction<PoolStats> value) {
        Gauge.builder(meter, stats, s -> value.applyAsDouble(s.get())).description(description).baseUnit(baseUnit)
                .tag("name", name).register(registry);
    }

    private static void gauge(MeterRegistry registry, String meter, String description, String name,
            Supplier<PoolStats> stats, ToDoubleFunction<PoolStats> value) {
        Gauge.builder(meter, stats, s -> value.applyAsDouble(s.get())).description(description).tag("name", name)
                .register(registry);
    }

    private void tasks(MeterRegistry registry, String name, Supplier<PoolStats> stats, PoolStats totals,
            String outcome, ToDoubleFunction<PoolStats> value) {
        FunctionCounter.builder("poolkit.pool.tasks", total(stats, totals, value), Total::read)
                .description("Tasks a pool finished or refused since it was created, by outcome")
                .baseUnit(BaseUnits.TASKS).tag("name", name).tag("outcome", outcome).register(registry);
    }

    private static void semaphoreGauge(MeterRegistry registry, String meter, String description, String name,
            Supplier<SemaphoreStats> stats, ToDoubleFunction<SemaphoreStats> value) {
        Gauge.builder(meter, stats, s -> value.applyAsDouble(s.get())).description(description).tag("name", name)
                .register(registry);
    }
}
