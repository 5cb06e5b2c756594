package io.github.poolkit.autoconfigure;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties under {@code poolkit}: the primary worker pool ({@code poolkit.pool}), named pools
 * ({@code poolkit.pools.<name>}), the primary weighted semaphore ({@code poolkit.semaphore}), named semaphores
 * ({@code poolkit.semaphores.<name>}) and the delay scheduler ({@code poolkit.scheduler}).
 *
 * <p>Implementation overview: plain mutable holders filled by Spring Boot's binder once, at start-up, and only read
 * afterwards. The primary pool and the named pools share one shape, {@link Pool}, whose nullable fields tell an unset
 * key from a value: a named pool's unset key is inherited from {@code poolkit.pool}, and a key unset there takes
 * poolkit's default ({@link PoolSettings}). Named semaphores ({@link NamedSemaphore}) inherit their size from
 * {@link Semaphore}. The {@code enabled} switch is never inherited. Values are checked by the same rules as poolkit's
 * core library, all together before any bean is created (and again when each bean is created), so bad values stop
 * start-up with one report naming every property at fault; so does a key under {@code poolkit.} that none of these
 * properties binds, named with the nearest key that exists.
 */
@ConfigurationProperties("poolkit")
public class PoolkitProperties {

    /** The primary WorkerPool, bean "workerPool"; also the defaults of the named pools. */
    private final Pool pool = new Pool();

    /** More WorkerPool beans, one per key (the bean name); unset keys are inherited from poolkit.pool. */
    private final Map<String, Pool> pools = new LinkedHashMap<>();

    /** The primary WeightedSemaphore, bean "weightedSemaphore"; also the defaults of the named semaphores. */
    private final Semaphore semaphore = new Semaphore();

    /** More WeightedSemaphore beans, one per key (the bean name); unset keys are inherited from poolkit.semaphore. */
    private final Map<String, NamedSemaphore> semaphores = new LinkedHashMap<>();

    /** The DelayScheduler, bean "delayScheduler". */
    private final Scheduler scheduler = new Scheduler();

    /** Creates the properties, every key at its default; Spring Boot binds {@code poolkit.*} onto them. */
    public PoolkitProperties() {
    }

    /** {@return the primary pool's settings} */
    public Pool getPool() {
        return pool;
    }

    /** {@return the named pools' settings, by bean name, in declaration order} */
    public Map<String, Pool> getPools() {
        return pools;
    }

    /** {@return the primary semaphore's settings} */
    public Semaphore getSemaphore() {
        return semaphore;
    }

    /** {@return the named semaphores' settings, by bean name, in declaration order} */
    public Map<String, NamedSemaphore> getSemaphores() {
        return semaphores;
    }

    /** {@return the scheduler's settings} */
    public Scheduler getScheduler() {
        return scheduler;
    }

    /**
     * Settings of one worker pool: the primary one ({@code poolkit.pool}) or a named one ({@code poolkit.pools.<name>}),
     * both of this one shape. A key left unset ({@code null}) on a named pool takes the value of the same key under
     * {@code poolkit.pool}; a key unset there too takes poolkit's default (listed on each key). {@code enabled} is never
     * inherited.
     */
    public static class Pool {

        /** Whether to create this pool's bean. Not inherited: a named pool is created unless it says otherwise. */
        private boolean enabled = true;

        /** Most tasks running at once (workers alive); zero or negative means unlimited. Default: 256. */
        private Integer capacity;

        /**
         * How long an idle worker may stay unused before it is stopped, also the interval of that check. Zero means
         * the default; negative is only valid with disable-purge. Default: 1s.
         */
        private Duration expiry;

        /** Whether a submit fails at once with PoolOverloadException instead of blocking when no worker is free. */
        private Boolean nonblocking;

        /** Most callers that may be blocked in a submit at once; 0 means no limit. Default: 0. */
        private Integer maxBlockingTasks;

        /**
         * Longest a caller may block in a submit before it gets PoolOverloadException; 0 fails at once (as
         * nonblocking). Unset: callers wait without limit.
         */
        private Duration maxWait;

        /** Whether to allocate the idle-worker store for the full capacity up front; needs a positive capacity. */
        private Boolean preAlloc;

        /** Whether idle workers are kept forever instead of being stopped after the expiry. */
        private Boolean disablePurge;

        /**
         * Tasks that may wait in a FIFO queue when every worker is busy: 0 for no queue (callers block), n for a
         * queue of n tasks, -1 for an unbounded queue (a submit never blocks). Default: 0.
         */
        private Integer queueCapacity;

        /**
         * Whether each task runs on a fresh virtual thread (not pooled) instead of a pooled platform worker; capacity
         * then bounds the tasks in flight. Unset: follows spring.threads.virtual.enabled.
         */
        private Boolean virtualThreads;

        /**
         * How long running and queued tasks may take to finish on context close (and on a context stop). All pools and
         * the scheduler drain together against one deadline: the longest shutdown-timeout that is set (named pools
         * inherit this one); with none set anywhere, spring.lifecycle.timeout-per-shutdown-phase (30s by default).
         * At the deadline running tasks are interrupted, and tasks that never started are logged and handed to the
         * application in a PoolTasksAbandonedEvent.
         */
        private Duration shutdownTimeout;

        /**
         * A capacity that follows the latency of the pool's tasks; each key unset here is inherited from
         * poolkit.pool.adaptive.
         */
        private final Adaptive adaptive = new Adaptive();

        /**
         * A task still running this long after it started is reported as overdue, once, while it runs: a WARN log
         * line with the worker's stack, a PoolTaskOverdueEvent, the poolkit.pool.tasks.overdue counter and the
         * pool's recentOverdue in the pools endpoint. The task is not stopped (see interrupt-overdue). The scheduler
         * and named pools inherit it. Unset: running tasks are not watched.
         */
        private Duration runTimeout;

        /**
         * A task not yet started this long after it was accepted (queued, or its caller blocked in a submit) is
         * reported as overdue, once, as with run-timeout; it keeps its place. The scheduler and named pools inherit
         * it. Unset: waiting tasks are not watched.
         */
        private Duration queueTimeout;

        /**
         * Whether the worker of a task overdue by run-timeout is also interrupted (only while it still runs that
         * task), so that a task blocked in an interruptible call gives up. Needs run-timeout. Default: false.
         */
        private Boolean interruptOverdue;

        /** Creates one pool's settings, every key unset (inherited or defaulted) and {@code enabled} true. */
        public Pool() {
        }

        /** {@return the adaptive capacity's settings} */
        public Adaptive getAdaptive() {
            return adaptive;
        }

        /** {@return whether to create this pool} */
        public boolean isEnabled() {
            return enabled;
        }

        /**
         * Sets whether to create this pool.
         *
         * @param enabled whether to create this pool
         */
        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        /** {@return the capacity, or {@code null} when unset} */
        public Integer getCapacity() {
            return capacity;
        }

        /**
         * Sets the capacity; zero or negative means unlimited.
         *
         * @param capacity the capacity; zero or negative means unlimited
         */
        public void setCapacity(Integer capacity) {
            this.capacity = capacity;
        }

        /** {@return the expiry, or {@code null} when unset} */
        public Duration getExpiry() {
            return expiry;
        }

        /**
         * Sets how long an idle worker may stay unused.
         *
         * @param expiry how long an idle worker may stay unused
         */
        public void setExpiry(Duration expiry) {
            this.expiry = expiry;
        }

        /** {@return whether a submit fails instead of blocking, or {@code null} when unset} */
        public Boolean getNonblocking() {
            return nonblocking;
        }

        /**
         * Sets whether a submit fails instead of blocking.
         *
         * @param nonblocking whether a submit fails instead of blocking
         */
        public void setNonblocking(Boolean nonblocking) {
            this.nonblocking = nonblocking;
        }

        /** {@return the most callers blocked at once, or {@code null} when unset} */
        public Integer getMaxBlockingTasks() {
            return maxBlockingTasks;
        }

        /**
         * Sets the most callers blocked at once; 0 means no limit.
         *
         * @param maxBlockingTasks the most callers blocked at once; 0 means no limit
         */
        public void setMaxBlockingTasks(Integer maxBlockingTasks) {
            this.maxBlockingTasks = maxBlockingTasks;
        }

        /** {@return the longest a caller blocks, or {@code null} when unset (no limit)} */
        public Duration getMaxWait() {
            return maxWait;
        }

        /**
         * Sets the longest a caller blocks; zero fails at once.
         *
         * @param maxWait the longest a caller blocks; zero fails at once
         */
        public void setMaxWait(Duration maxWait) {
            this.maxWait = maxWait;
        }

        /** {@return whether to pre-allocate, or {@code null} when unset} */
        public Boolean getPreAlloc() {
            return preAlloc;
        }

        /**
         * Sets whether to pre-allocate the idle-worker store.
         *
         * @param preAlloc whether to pre-allocate the idle-worker store
         */
        public void setPreAlloc(Boolean preAlloc) {
            this.preAlloc = preAlloc;
        }

        /** {@return whether idle workers are kept forever, or {@code null} when unset} */
        public Boolean getDisablePurge() {
            return disablePurge;
        }

        /**
         * Sets whether idle workers are kept forever.
         *
         * @param disablePurge whether idle workers are kept forever
         */
        public void setDisablePurge(Boolean disablePurge) {
            this.disablePurge = disablePurge;
        }

        /** {@return the queue capacity, or {@code null} when unset} */
        public Integer getQueueCapacity() {
            return queueCapacity;
        }

        /**
         * Sets the queue capacity: 0 none, n bounded, -1 unbounded.
         *
         * @param queueCapacity the queue capacity: 0 none, n bounded, -1 unbounded
         */
        public void setQueueCapacity(Integer queueCapacity) {
            this.queueCapacity = queueCapacity;
        }

        /** {@return whether tasks run on virtual threads, or {@code null} when unset} */
        public Boolean getVirtualThreads() {
            return virtualThreads;
        }

        /**
         * Sets whether tasks run on virtual threads.
         *
         * @param virtualThreads whether tasks run on virtual threads
         */
        public void setVirtualThreads(Boolean virtualThreads) {
            this.virtualThreads = virtualThreads;
        }

        /** {@return the shutdown timeout, or {@code null} when unset} */
        public Duration getShutdownTimeout() {
            return shutdownTimeout;
        }

        /**
         * Sets how long to wait for tasks on context close.
         *
         * @param shutdownTimeout how long to wait for tasks on context close
         */
        public void setShutdownTimeout(Duration shutdownTimeout) {
            this.shutdownTimeout = shutdownTimeout;
        }

        /** {@return how long a task may run before it is reported overdue, or {@code null} when unset} */
        public Duration getRunTimeout() {
            return runTimeout;
        }

        /**
         * Sets how long a task may run before it is reported overdue.
         *
         * @param runTimeout how long a task may run before it is reported overdue
         */
        public void setRunTimeout(Duration runTimeout) {
            this.runTimeout = runTimeout;
        }

        /** {@return how long a task may wait to start before it is reported overdue, or {@code null} when unset} */
        public Duration getQueueTimeout() {
            return queueTimeout;
        }

        /**
         * Sets how long a task may wait to start before it is reported overdue.
         *
         * @param queueTimeout how long a task may wait to start before it is reported overdue
         */
        public void setQueueTimeout(Duration queueTimeout) {
            this.queueTimeout = queueTimeout;
        }

        /** {@return whether overdue tasks are interrupted, or {@code null} when unset} */
        public Boolean getInterruptOverdue() {
            return interruptOverdue;
        }

        /**
         * Sets whether the worker of a task overdue by the run timeout is interrupted.
         *
         * @param interruptOverdue whether the worker of a task overdue by the run timeout is interrupted
         */
        public void setInterruptOverdue(Boolean interruptOverdue) {
            this.interruptOverdue = interruptOverdue;
        }
    }

    /** Settings of the primary weighted semaphore ({@code poolkit.semaphore}), inherited by the named ones. */
    public static class Semaphore {

        /** Whether to create the primary WeightedSemaphore bean "weightedSemaphore". */
        private boolean enabled = true;

        /** Total weight of the permits; must not be negative. */
        private long size = 64;

        /** Creates the primary semaphore's settings, every key at its default. */
        public Semaphore() {
        }

        /** {@return whether to create the primary semaphore} */
        public boolean isEnabled() {
            return enabled;
        }

        /**
         * Sets whether to create the primary semaphore.
         *
         * @param enabled whether to create the primary semaphore
         */
        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        /** {@return the total weight of the permits} */
        public long getSize() {
            return size;
        }

        /**
         * Sets the total weight of the permits.
         *
         * @param size the total weight of the permits
         */
        public void setSize(long size) {
            this.size = size;
        }
    }

    /**
     * Settings of one named weighted semaphore ({@code poolkit.semaphores.<name>}); an unset size is inherited from
     * {@code poolkit.semaphore.size}, and {@code enabled} defaults to {@code true}.
     */
    public static class NamedSemaphore {

        /** Whether to create this semaphore's bean. Not inherited from poolkit.semaphore.enabled. */
        private boolean enabled = true;

        /**
         * Total weight of the permits; must not be negative (and at most 2^53 - 1 with scope cluster). Default:
         * poolkit.semaphore.size.
         */
        private Long size;

        /**
         * Where the permits live: "local" (a WeightedSemaphore in this JVM) or "cluster" (one semaphore shared, through
         * the application's Redis, by every instance that uses this name; needs io.github.poolkit:pool-redis).
         */
        private Scope scope = Scope.LOCAL;

        /**
         * For a cluster semaphore: how long a grant outlives its holder's last renewal (holders renew every third of
         * it), so the permits of an instance that died come back after at most this long.
         */
        private Duration leaseTime = Duration.ofSeconds(30);

        /**
         * A size that follows how long permits are held (scope local only); unset keys take their defaults, not
         * poolkit.semaphore's.
         */
        private final Adaptive adaptive = new Adaptive();

        /** Creates one named semaphore's settings: the size unset (inherited), every other key at its default. */
        public NamedSemaphore() {
        }

        /** {@return the adaptive size's settings} */
        public Adaptive getAdaptive() {
            return adaptive;
        }

        /** {@return whether to create this semaphore} */
        public boolean isEnabled() {
            return enabled;
        }

        /**
         * Sets whether to create this semaphore.
         *
         * @param enabled whether to create this semaphore
         */
        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        /** {@return the size, or {@code null} to inherit} */
        public Long getSize() {
            return size;
        }

        /**
         * Sets the size, or {@code null} to inherit.
         *
         * @param size the size, or {@code null} to inherit
         */
        public void setSize(Long size) {
            this.size = size;
        }

        /** {@return where the permits live} */
        public Scope getScope() {
            return scope;
        }

        /**
         * Sets where the permits live.
         *
         * @param scope where the permits live
         */
        public void setScope(Scope scope) {
            this.scope = scope;
        }

        /** {@return the lease time of a cluster semaphore's grants} */
        public Duration getLeaseTime() {
            return leaseTime;
        }

        /**
         * Sets the lease time of a cluster semaphore's grants.
         *
         * @param leaseTime the lease time of a cluster semaphore's grants
         */
        public void setLeaseTime(Duration leaseTime) {
            this.leaseTime = leaseTime;
        }
    }

    /** Where a named semaphore's permits live. */
    public enum Scope {
        /** In this JVM: a WeightedSemaphore. */
        LOCAL,
        /** Shared by every instance of the service through Redis: a RedisPermitSemaphore. */
        CLUSTER
    }

    /**
     * An adaptive limit: a pool's capacity or a semaphore's size that follows the latency of the work it guards
     * ({@code io.github.poolkit.AdaptiveLimit}). Every key is {@code null} when unset.
     */
    public static class Adaptive {

        /**
         * How the limit adapts: "none" (a fixed capacity or size, the default), "gradient" (follows the ratio of the
         * baseline to the recent latency, settling where latency starts to grow) or "aimd" (adds about one per round
         * trip, takes a tenth off on each rejection or slowdown).
         */
        private Algorithm algorithm;

        /** The smallest the limit gets; must be at least 1. Default: 1. */
        private Integer min;

        /**
         * The largest the limit gets; must be at least min. Default: the pool's capacity (256 when unset), or the
         * semaphore's size.
         */
        private Integer max;

        /** Creates the settings, every key unset. */
        public Adaptive() {
        }

        /** {@return the algorithm, or {@code null} when unset} */
        public Algorithm getAlgorithm() {
            return algorithm;
        }

        /**
         * Sets the algorithm.
         *
         * @param algorithm the algorithm, or {@code null} to inherit
         */
        public void setAlgorithm(Algorithm algorithm) {
            this.algorithm = algorithm;
        }

        /** {@return the smallest limit, or {@code null} when unset} */
        public Integer getMin() {
            return min;
        }

        /**
         * Sets the smallest limit.
         *
         * @param min the smallest limit, or {@code null} to inherit
         */
        public void setMin(Integer min) {
            this.min = min;
        }

        /** {@return the largest limit, or {@code null} when unset} */
        public Integer getMax() {
            return max;
        }

        /**
         * Sets the largest limit.
         *
         * @param max the largest limit, or {@code null} to inherit
         */
        public void setMax(Integer max) {
            this.max = max;
        }
    }

    /** How an adaptive limit adapts. */
    public enum Algorithm {
        /** It does not: the capacity or size is fixed. */
        NONE,
        /** {@code AdaptiveLimit.gradient}: short-term against baseline round-trip time. */
        GRADIENT,
        /** {@code AdaptiveLimit.aimd}: additive increase, multiplicative decrease. */
        AIMD
    }

    /** Settings of the delay scheduler ({@code poolkit.scheduler}). */
    public static class Scheduler {

        /** Whether to create the DelayScheduler bean "delayScheduler". */
        private boolean enabled = true;

        /** Workers that run due jobs; must be positive. */
        private int workers = 4;

        /**
         * How long due, running and still-pending one-shot jobs may take on context close (running jobs also on a
         * context stop, which pauses the scheduler). The scheduler and all pools share one deadline: the longest
         * shutdown-timeout that is set; with none set anywhere, spring.lifecycle.timeout-per-shutdown-phase (30s by
         * default). At the deadline running jobs are interrupted, and jobs that never ran are logged and handed to
         * the application in a PoolTasksAbandonedEvent.
         */
        private Duration shutdownTimeout;

        /** Creates the scheduler's settings, every key at its default. */
        public Scheduler() {
        }

        /** {@return whether to create the scheduler} */
        public boolean isEnabled() {
            return enabled;
        }

        /**
         * Sets whether to create the scheduler.
         *
         * @param enabled whether to create the scheduler
         */
        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        /** {@return the number of workers} */
        public int getWorkers() {
            return workers;
        }

        /**
         * Sets the number of workers.
         *
         * @param workers the number of workers
         */
        public void setWorkers(int workers) {
            this.workers = workers;
        }

        /** {@return the shutdown timeout, or {@code null} when unset} */
        public Duration getShutdownTimeout() {
            return shutdownTimeout;
        }

        /**
         * Sets how long to wait for jobs on context close.
         *
         * @param shutdownTimeout how long to wait for jobs on context close
         */
        public void setShutdownTimeout(Duration shutdownTimeout) {
            this.shutdownTimeout = shutdownTimeout;
        }
    }
}
