package io.github.poolkit.autoconfigure.actuate;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.Selector.Match;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.convert.DurationStyle;

import io.github.poolkit.DelayScheduler;
import io.github.poolkit.PermitSemaphore;
import io.github.poolkit.Pool;
import io.github.poolkit.PoolOptions;
import io.github.poolkit.PoolStats;
import io.github.poolkit.SemaphoreStats;
import io.github.poolkit.WeightedSemaphore;
import io.github.poolkit.autoconfigure.AdaptiveSettings;
import io.github.poolkit.autoconfigure.ExposedOptions;
import io.github.poolkit.autoconfigure.PoolOverdueLog;
import io.github.poolkit.autoconfigure.actuate.executors.ApplicationExecutors;
import io.github.poolkit.autoconfigure.actuate.executors.ExecutorAdapter;

/**
 * The {@code pools} Actuator endpoint: the state of every pool, scheduler and semaphore bean of the context, and
 * run-time changes to their settings.
 *
 * <ul>
 *   <li>{@code GET /actuator/pools}: {@code {"pools": {bean: {...}}, "schedulers": {bean: {...}},
 *       "semaphores": {bean: {...}}}}. {@code pools} holds every {@link Pool} bean ({@code WorkerPool},
 *       {@code FuncPool}, {@code MultiPool}, whoever created it), {@code schedulers} every {@link DelayScheduler},
 *       {@code semaphores} every {@link PermitSemaphore}, {@code executors} every other executor of the application
 *       and the web server's request thread pool ({@link ApplicationExecutors}, {@link ExecutorDescriptor}).</li>
 *   <li>{@code GET /actuator/pools/{name}}: the entry of that name, of any kind; 404 when there is none.</li>
 *   <li>{@code POST /actuator/pools/{name}}: changes settings at run time, see {@link #change}. Needs
 *       {@code management.endpoint.pools.access=unrestricted}: the endpoint is read-only by default.</li>
 * </ul>
 *
 * <p>The beans are looked up at each call, so a bean created after start-up is listed as soon as it exists. Each pool
 * or scheduler entry comes from one {@link Pool#stats()} snapshot, so its figures belong together. A pool whose read
 * throws (a {@code Pool} class of the application's own) is listed with the {@code error} and no figure it did not
 * give, a semaphore whose read throws (a cluster semaphore whose store is down) with the {@code error} and figures of
 * -1; the other entries are answered all the same.
 */
@Endpoint(id = "pools", defaultAccess = Access.READ_ONLY)
public class PoolsEndpoint {

    private static final Log logger = LogFactory.getLog(PoolsEndpoint.class);

    private final PoolkitBeans beans;

    private final @Nullable ApplicationExecutors executors;

    private final @Nullable PoolOverdueLog overdueLog;

    /**
     * Creates the endpoint without the application's other executors.
     *
     * @param beans where to find the pools, schedulers and semaphores
     */
    public PoolsEndpoint(PoolkitBeans beans) {
        this(beans, null);
    }

    /**
     * Creates the endpoint.
     *
     * @param beans     where to find the pools, schedulers and semaphores
     * @param executors where to find the application's other executors, or {@code null} to leave them out
     */
    public PoolsEndpoint(PoolkitBeans beans, @Nullable ApplicationExecutors executors) {
        this(beans, executors, null);
    }

    /**
     * Creates the endpoint.
     *
     * @param beans      where to find the pools, schedulers and semaphores
     * @param executors  where to find the application's other executors, or {@code null} to leave them out
     * @param overdueLog the latest overdue tasks of the pools and the scheduler poolkit created, or {@code null}
     */
    public PoolsEndpoint(PoolkitBeans beans, @Nullable ApplicationExecutors executors,
            @Nullable PoolOverdueLog overdueLog) {
        this.beans = beans;
        this.executors = executors;
        this.overdueLog = overdueLog;
    }

    /** {@return every pool, scheduler and semaphore, by bean name, sorted} */
    @ReadOperation
    public PoolsDescriptor pools() {
        SortedMap<String, PoolDescriptor> pools = new TreeMap<>();
        beans.pools().forEach((name, pool) -> pools.put(name,
                PoolDescriptor.of(pool, PoolOverdueLog.recentOf(overdueLog, pool))));
        SortedMap<String, SchedulerDescriptor> schedulers = new TreeMap<>();
        beans.schedulers().forEach((name, scheduler) -> schedulers.put(name,
                SchedulerDescriptor.of(scheduler, PoolOverdueLog.recentOf(overdueLog, scheduler))));
        SortedMap<String, SemaphoreDescriptor> semaphores = SemaphoreReads.readAll(beans.semaphores());
        SortedMap<String, ExecutorDescriptor> others = new TreeMap<>();
        if (executors != null) {
            executors.all().forEach((name, executor) -> others.put(name, ExecutorDescriptor.of(executor)));
        }
        return new PoolsDescriptor(pools, schedulers, semaphores, others);
    }

    /**
     * Reads one pool, scheduler, semaphore or other executor. The bean is always the one the path names, as for
     * {@link #change}: a {@code ?beanName=} query parameter, which Actuator would lay over the path's variable, is
     * refused with 400 whatever bean it names, and any other query parameter (such as {@code ?name=}) is ignored. The
     * selector captures the rest of the path, as the write's does: the name is its non-empty segments joined by
     * {@code /} (a bean named {@code eu/reports} is read at {@code .../pools/eu/reports}), and an alias stands for its
     * bean. Both operations share the selector's name, so the discovery page lists one templated link for an entry.
     *
     * @param beanName a bean name, from the path
     * @return the pool, scheduler or semaphore of that name, or {@code null} (HTTP 404) when there is none
     */
    @ReadOperation
    public @Nullable Entry pool(@Selector(match = Match.ALL_REMAINING) String beanName) {
        String name = beanName;
        Pool pool = beans.pools().get(name);
        if (pool != null) {
            return PoolDescriptor.of(pool, PoolOverdueLog.recentOf(overdueLog, pool));
        }
        DelayScheduler scheduler = beans.schedulers().get(name);
        if (scheduler != null) {
            return SchedulerDescriptor.of(scheduler, PoolOverdueLog.recentOf(overdueLog, scheduler));
        }
        PermitSemaphore semaphore = beans.semaphores().get(name);
        if (semaphore != null) {
            return SemaphoreDescriptor.of(semaphore);
        }
        ExecutorAdapter executor = (executors != null) ? executors.find(name) : null;
        return (executor != null) ? ExecutorDescriptor.of(executor) : null;
    }

    /**
     * Changes settings at run time. A pool takes {@code capacity} ({@link Pool#tune(int)}), {@code maxWait} (a
     * duration such as {@code "200ms"}; {@code "-1"} or {@code ""} for no limit), {@code maxBlockingTasks} and
     * {@code nonblocking} ({@link Pool#reconfigure}); a semaphore takes {@code size}
     * ({@link PermitSemaphore#resize(long)}); another executor of the application takes {@code capacity} and
     * {@code coreSize} where its kind can change them ({@link ExecutorChange}). The values are all checked before
     * anything changes, and so are the body's fields: one that the target cannot change (misspelt, unknown, or fixed
     * when it was created, such as a pool's {@code queueCapacity}) is refused with 400 naming it and the fields the
     * target accepts. The bean is always the one the path names: a {@code name} field in the body is refused like
     * any other, and so is a {@code beanName} field or query parameter, whatever bean it names (Actuator lays the
     * body's fields and the query's parameters over the path's variables, so either would otherwise redirect the
     * write to another bean). The selector captures the rest of the path so that a check can tell the path's value
     * from one laid over it; the name is its non-empty segments joined by {@code /}, an alias stands for its bean,
     * and a path with no name answers 404.
     *
     * @param beanName         a bean name, from the path
     * @param capacity         a pool's new capacity, positive
     * @param maxWait          a pool's new longest wait in {@code execute}
     * @param maxBlockingTasks a pool's new limit of blocked callers, {@code >= 0} (0: no limit)
     * @param nonblocking      whether the pool refuses at once instead of making callers wait
     * @param size             a semaphore's new size, {@code >= 0}
     * @param coreSize         an executor's new core size, {@code >= 0}
     * @return 200 with the entry's new state (as a read of it answers); 404 when there is no such bean; 400 with an
     *         RFC 9457 problem body naming the field when a value is invalid or does not apply to that bean (nothing
     *         is changed then); 503 with such a body when the bean itself fails (a pool of the application's own that
     *         throws, a cluster semaphore whose store does not answer)
     */
    @WriteOperation
    public WebEndpointResponse<Object> change(@Selector(match = Match.ALL_REMAINING) String beanName,
            @Nullable String capacity, @Nullable String maxWait, @Nullable String maxBlockingTasks,
            @Nullable String nonblocking, @Nullable String size, @Nullable String coreSize) {
        String name = beanName;
        if (coreSize != null) {
            String instead = beans.pools().containsKey(name) ? "change its capacity instead"
                    : beans.semaphores().containsKey(name) ? "a semaphore has only a size to change"
                    : beans.schedulers().containsKey(name) ? "a scheduler's settings cannot change at run time" : null;
            if (instead != null) {
                return EndpointProblem.badRequest(new InvalidSettingException("coreSize",
                        "'" + name + "' is poolkit's own and has no coreSize; " + instead));
            }
            ExecutorAdapter executor = (executors != null) ? executors.find(name) : null;
            if (executor != null) {
                return changeExecutor(executor, capacity, maxWait, maxBlockingTasks, nonblocking, size, coreSize);
            }
        }
        return change(name, capacity, maxWait, maxBlockingTasks, nonblocking, size);
    }

    /**
     * Changes a pool's, a semaphore's or another executor's settings, as {@link #change} without a core size.
     *
     * @param name             a bean name
     * @param capacity         a pool's or an executor's new capacity, positive
     * @param maxWait          a pool's new longest wait in {@code execute}
     * @param maxBlockingTasks a pool's new limit of blocked callers, {@code >= 0} (0: no limit)
     * @param nonblocking      whether the pool refuses at once instead of making callers wait
     * @param size             a semaphore's new size, {@code >= 0}
     * @return as {@link #change}
     */
    public WebEndpointResponse<Object> change(String name, @Nullable String capacity, @Nullable String maxWait,
            @Nullable String maxBlockingTasks, @Nullable String nonblocking, @Nullable String size) {
        SettingsChange change = new SettingsChange(
                fields(capacity, null, maxWait, maxBlockingTasks, nonblocking, size));
        try {
            Pool pool = beans.pools().get(name);
            if (pool != null) {
                return apply(name, () -> change.applyTo(pool), change.firstField(),
                        () -> PoolDescriptor.of(pool, PoolOverdueLog.recentOf(overdueLog, pool)));
            }
            PermitSemaphore semaphore = beans.semaphores().get(name);
            if (semaphore != null) {
                return apply(name, () -> change.applyTo(semaphore), "size", () -> SemaphoreDescriptor.of(semaphore));
            }
            if (beans.schedulers().containsKey(name)) {
                throw new InvalidSettingException(change.firstField(), "'" + name + "' is a scheduler, whose "
                        + "settings cannot change at run time; change poolkit.scheduler and restart");
            }
            ExecutorAdapter executor = (executors != null) ? executors.find(name) : null;
            if (executor != null) {
                return changeExecutor(executor, capacity, maxWait, maxBlockingTasks, nonblocking, size, null);
            }
            return EndpointProblem.notFound("No pool, scheduler, semaphore or executor named '" + name + "'; known:"
                    + " pools " + beans.pools().keySet() + ", semaphores " + beans.semaphores().keySet()
                    + ", schedulers " + beans.schedulers().keySet()
                    + ((executors != null) ? ", executors " + executors.all().keySet() : ""));
        }
        catch (InvalidSettingException ex) {
            return EndpointProblem.badRequest(ex);
        }
    }

    /**
     * Makes a change and answers the bean's figures after it. A bean that fails while the change is checked or made (a
     * {@code Pool} class of the application's own whose backend is gone, listed with its {@code error}; a semaphore
     * shared through a store that does not answer) gets a {@code 503} naming the field and the error, which is also
     * logged with its stack: its settings may or may not have changed (a read may fail before any change, a pool's
     * {@code tune} after its {@code reconfigure}, a store may run the change and lose the answer).
     */
    private static WebEndpointResponse<Object> apply(String name, Runnable change, String field,
            Supplier<Object> after) {
        try {
            change.run();
        }
        catch (InvalidSettingException ex) {
            throw ex;
        }
        catch (RuntimeException ex) {
            String detail = "'" + name + "' failed while the change was made (" + ex + "); its settings may or may not"
                    + " have changed: read it with GET /actuator/pools/" + name + " and write them again if needed";
            logger.warn(detail, ex);
            return EndpointProblem.unavailable(detail, field);
        }
        return new WebEndpointResponse<>(after.get());
    }

    /** @return the write's fields by name, in the operation's order (a {@code null} value: not given) */
    private static Map<String, @Nullable String> fields(@Nullable String capacity, @Nullable String coreSize,
            @Nullable String maxWait, @Nullable String maxBlockingTasks, @Nullable String nonblocking,
            @Nullable String size) {
        Map<String, @Nullable String> fields = new LinkedHashMap<>();
        fields.put("capacity", capacity);
        fields.put("coreSize", coreSize);
        fields.put("maxWait", maxWait);
        fields.put("maxBlockingTasks", maxBlockingTasks);
        fields.put("nonblocking", nonblocking);
        fields.put("size", size);
        return fields;
    }

    private static WebEndpointResponse<Object> changeExecutor(ExecutorAdapter executor, @Nullable String capacity,
            @Nullable String maxWait, @Nullable String maxBlockingTasks, @Nullable String nonblocking,
            @Nullable String size, @Nullable String coreSize) {
        try {
            new ExecutorChange(fields(capacity, coreSize, maxWait, maxBlockingTasks, nonblocking, size))
                    .applyTo(executor);
            return new WebEndpointResponse<>(ExecutorDescriptor.of(executor));
        }
        catch (InvalidSettingException ex) {
            return EndpointProblem.badRequest(ex);
        }
    }

    /** One pool, scheduler, semaphore or other executor in the endpoint's answer. */
    public sealed interface Entry extends OperationResponseBody
            permits PoolDescriptor, SchedulerDescriptor, SemaphoreDescriptor, ExecutorDescriptor {
    }

    /**
     * The answer of {@code GET /actuator/pools}.
     *
     * @param pools      the pools by bean name
     * @param schedulers the schedulers by bean name
     * @param semaphores the semaphores by bean name
     * @param executors  the application's other executors by bean name, and the web server's request thread pool
     *                   as {@code webServer}
     */
    public record PoolsDescriptor(Map<String, PoolDescriptor> pools, Map<String, SchedulerDescriptor> schedulers,
            Map<String, SemaphoreDescriptor> semaphores, Map<String, ExecutorDescriptor> executors)
            implements OperationResponseBody {
    }

    /**
     * A pool's state, from one {@link PoolStats} snapshot, and the settings that can change at run time. When the pool
     * cannot be read (a method of a {@code Pool} class of the application's own throws), every figure and setting is
     * {@code null}, left out of the JSON rather than invented, and {@code error} says why.
     *
     * @param capacity         the most workers, -1 when unlimited; with an adaptive capacity, the limit now
     * @param adaptive         the adaptive limit the capacity follows ({@code algorithm}, {@code min},
     *                         {@code max}), or {@code null} for a capacity that changes only by hand
     * @param running          workers alive: busy plus idle
     * @param busy             workers running a task now
     * @param waiting          {@code queued + blocked}
     * @param queued           tasks in the queue
     * @param blocked          callers blocked in {@code execute}
     * @param free             workers that may still be started, -1 when unlimited
     * @param closed           whether the pool was released
     * @param completed        tasks that ran to the end since the pool was created
     * @param failed           tasks that threw
     * @param rejected         tasks refused: overload, closed pool, interrupted or timed-out wait
     * @param overdue          tasks reported overdue (ran longer than the run timeout, or waited longer than the
     *                         queue timeout to start) since the pool was created
     * @param maxWait          the longest a caller waits in {@code execute}, such as {@code "200ms"}; {@code null}
     *                         when there is no limit, or when the pool does not expose its options (a pool of the
     *                         application's own that implements only the shared methods of {@link Pool})
     * @param maxBlockingTasks the most callers blocked at once, 0 for no limit; {@code null} when the pool does not
     *                         expose its options
     * @param nonblocking      whether the pool refuses at once instead of making callers wait; {@code null} when the
     *                         pool does not expose its options
     * @param recentOverdue    the latest overdue tasks, newest first (at most {@value PoolOverdueLog#RECENT})
     * @param error            why the pool could not be read, or {@code null}
     */
    public record PoolDescriptor(@Nullable Integer capacity, @Nullable AdaptiveSettings adaptive,
            @Nullable Integer running, @Nullable Integer busy, @Nullable Integer waiting, @Nullable Integer queued,
            @Nullable Integer blocked, @Nullable Integer free, @Nullable Boolean closed, @Nullable Long completed,
            @Nullable Long failed, @Nullable Long rejected, @Nullable Long overdue, @Nullable String maxWait,
            @Nullable Integer maxBlockingTasks, @Nullable Boolean nonblocking, List<PoolOverdueLog.Entry> recentOverdue,
            @Nullable String error) implements Entry {

        /**
         * Reads a pool's state, without overdue entries.
         *
         * @param pool a pool
         * @return its state now
         */
        public static PoolDescriptor of(Pool pool) {
            return of(pool, List.of());
        }

        /**
         * Reads a pool's state.
         *
         * @param pool          a pool
         * @param recentOverdue its latest overdue tasks, newest first
         * @return its state now; when a read of the pool throws, no figure and the error
         */
        public static PoolDescriptor of(Pool pool, List<PoolOverdueLog.Entry> recentOverdue) {
            // Any method of a pool of the application's own may throw. Every read of the pool is in this try, so
            // that one broken pool costs its own entry only (never the list, nor the health check), and a figure is
            // either the pool's or absent: none is made up, not even -1, which reads as "unlimited" here.
            try {
                PoolStats s = pool.stats();
                PoolOptions options = ExposedOptions.of(pool); // null: the waiting rules are unknown, and shown so
                Duration maxWait = (options != null) ? options.maxWait() : null;
                return new PoolDescriptor(s.capacity(), AdaptiveSettings.of(pool), s.running(), s.busy(), s.waiting(),
                        s.queued(), s.blocked(), s.free(), s.closed(), s.completed(), s.failed(), s.rejected(),
                        s.overdue(), (maxWait != null) ? shown(maxWait) : null,
                        (options != null) ? options.maxBlockingTasks() : null,
                        (options != null) ? options.nonblocking() : null, recentOverdue, null);
            }
            catch (RuntimeException ex) {
                return new PoolDescriptor(null, null, null, null, null, null, null, null, null, null, null, null, null,
                        null, null, null, recentOverdue, String.valueOf(ex));
            }
        }

        /**
         * @return a wait in milliseconds, as Spring Boot prints it, or in the unit that shows it whole when it is no
         *         whole number of them ({@code 500us}): never rounded down, to {@code 0ms} (fail at once) say; one too
         *         long for that unit (centuries) in whole seconds
         */
        static String shown(Duration wait) {
            int nanos = wait.getNano();
            ChronoUnit unit = (nanos % 1_000_000 == 0) ? ChronoUnit.MILLIS
                    : (nanos % 1_000 == 0) ? ChronoUnit.MICROS : ChronoUnit.NANOS;
            try {
                return DurationStyle.SIMPLE.print(wait, unit);
            }
            catch (ArithmeticException tooLong) { // more than 292 years of nanoseconds (or far more of millis)
                return DurationStyle.SIMPLE.print(wait, ChronoUnit.SECONDS);
            }
        }
    }

    /**
     * A scheduler's state: its jobs not yet due, and its worker pool's figures from one {@link PoolStats} snapshot.
     *
     * @param pending   jobs whose time has not yet come
     * @param capacity  the scheduler's workers
     * @param running   workers alive
     * @param busy      workers running a job now
     * @param waiting   {@code queued + blocked}
     * @param queued    due jobs waiting for a worker
     * @param blocked   always 0: the scheduler's queue is unbounded
     * @param free      workers that may still be started
     * @param closed    whether the scheduler was shut down
     * @param completed jobs that ran to the end
     * @param failed    jobs that threw
     * @param rejected  jobs refused
     * @param overdue   job runs reported overdue (ran longer than the run timeout, or waited longer than the queue
     *                  timeout to start)
     * @param recentOverdue the latest overdue job runs, newest first (at most {@value PoolOverdueLog#RECENT})
     */
    public record SchedulerDescriptor(int pending, int capacity, int running, int busy, int waiting, int queued,
            int blocked, int free, boolean closed, long completed, long failed, long rejected, long overdue,
            List<PoolOverdueLog.Entry> recentOverdue) implements Entry {

        /**
         * Reads a scheduler's state, without overdue entries.
         *
         * @param scheduler a scheduler
         * @return its state now
         */
        public static SchedulerDescriptor of(DelayScheduler scheduler) {
            return of(scheduler, List.of());
        }

        /**
         * Reads a scheduler's state.
         *
         * @param scheduler     a scheduler
         * @param recentOverdue its latest overdue job runs, newest first
         * @return its state now
         */
        public static SchedulerDescriptor of(DelayScheduler scheduler, List<PoolOverdueLog.Entry> recentOverdue) {
            PoolStats s = scheduler.stats();
            return new SchedulerDescriptor(scheduler.pending(), s.capacity(), s.running(), s.busy(), s.waiting(),
                    s.queued(), s.blocked(), s.free(), s.closed(), s.completed(), s.failed(), s.rejected(),
                    s.overdue(), recentOverdue);
        }
    }

    /**
     * A semaphore's state. When its figures cannot be read (a cluster-wide semaphore whose store is unreachable, a
     * {@code PermitSemaphore} class of the application's own that throws), the numbers are -1 and {@code error} says
     * why.
     *
     * @param size      the total weight; with an adaptive size, the limit now
     * @param adaptive  the adaptive limit the size follows ({@code algorithm}, {@code min}, {@code max}), or
     *                  {@code null} for a size that changes only by hand
     * @param used      the weight held
     * @param waiting   requests waiting in line
     * @param available {@code size - used}
     * @param scope     {@link PermitSemaphore#scope()}: {@code "local"} for a {@link WeightedSemaphore} in this JVM,
     *                  {@code "cluster"} for one shared by several instances; {@code null} when {@code scope()}
     *                  itself throws
     * @param error     why the figures could not be read, or {@code null}
     */
    public record SemaphoreDescriptor(long size, @Nullable AdaptiveSettings adaptive, long used, int waiting,
            long available, @Nullable String scope, @Nullable String error) implements Entry {

        /**
         * Reads a semaphore's state.
         *
         * @param semaphore a semaphore
         * @return its state now
         */
        public static SemaphoreDescriptor of(PermitSemaphore semaphore) {
            // Every read of the semaphore is in this try, as in PoolDescriptor.of: one that throws costs this entry
            // only. One that escaped would fail the whole list and the health check (read on a reader thread of
            // SemaphoreReads, it would surface there as resultNow's IllegalStateException).
            @Nullable String scope = null; // kept when only the figures fail
            try {
                scope = semaphore.scope();
                SemaphoreStats stats = semaphore.stats(); // one read: one script run for a cluster semaphore
                return new SemaphoreDescriptor(stats.size(), AdaptiveSettings.of(semaphore), stats.used(),
                        stats.waiting(), stats.available(), scope, null);
            }
            catch (RuntimeException ex) {
                return new SemaphoreDescriptor(-1, null, -1, -1, -1, scope, String.valueOf(ex));
            }
        }
    }
}
