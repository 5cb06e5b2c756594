package io.github.poolkit;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadFactory;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * The immutable options of a {@link WorkerPool}, {@link FuncPool}, {@link MultiPool} or {@link DelayScheduler}, named
 * after their counterparts in ants. Build them with {@link #builder()}, or take {@link #defaults()}.
 *
 * <p>Options are checked together, against the pool's capacity, by {@link #validate(int)}, which every pool calls when
 * it is created: {@code expiry(-1s)} is fine with {@code disablePurge(true)}, and {@code preAlloc} is checked against the
 * capacity. An invalid option or combination throws an {@link InvalidOptionException} that names the option (as the
 * builder spells it, or {@code "capacity"}), the value and the fix.
 *
 * <table>
 *   <caption>Options and defaults</caption>
 *   <tr><th>option</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>{@code expiry}</td><td>1s</td><td>idle workers unused for longer are stopped, checked every expiry</td></tr>
 *   <tr><td>{@code preAlloc}</td><td>false</td><td>allocate the idle-worker store for the capacity up front</td></tr>
 *   <tr><td>{@code maxBlockingTasks}</td><td>0</td><td>at most this many callers blocked in execute; 0 = no limit</td></tr>
 *   <tr><td>{@code nonblocking}</td><td>false</td><td>execute never blocks, it throws {@link PoolOverloadException}</td></tr>
 *   <tr><td>{@code panicHandler}</td><td>log it</td><td>called once for each task that throws</td></tr>
 *   <tr><td>{@code disablePurge}</td><td>false</td><td>idle workers are never stopped</td></tr>
 *   <tr><td>{@code queueCapacity}</td><td>0</td><td>0: no queue; n: a FIFO queue of n tasks; -1: unbounded</td></tr>
 *   <tr><td>{@code threadFactory}</td><td>platform threads {@code <name>-<n>}</td><td>where workers run</td></tr>
 *   <tr><td>{@code name}</td><td>{@code pool}</td><td>used in thread names, logs and metrics</td></tr>
 *   <tr><td>{@code listener}</td><td>none</td><td>told of every finished and refused task</td></tr>
 *   <tr><td>{@code maxWait}</td><td>none</td><td>the longest a caller blocks in execute; then
 *       {@link PoolOverloadException}; zero: do not wait</td></tr>
 *   <tr><td>{@code virtualThreads}</td><td>false</td><td>each task on a fresh, unpooled virtual thread</td></tr>
 *   <tr><td>{@code taskDecorator}</td><td>none</td><td>wraps every task when it is submitted</td></tr>
 *   <tr><td>{@code adaptiveCapacity}</td><td>none</td><td>the capacity follows an {@link AdaptiveLimit}</td></tr>
 *   <tr><td>{@code runTimeout}</td><td>none</td><td>a task still running after this long is reported, once, as
 *       overdue ({@link PoolListener#taskOverdue})</td></tr>
 *   <tr><td>{@code queueTimeout}</td><td>none</td><td>a task not started this long after it was accepted (queued, or
 *       its caller blocked) is reported, once, as overdue; it keeps its place</td></tr>
 *   <tr><td>{@code interruptOverdue}</td><td>false</td><td>also interrupt the worker of a task overdue by
 *       {@code runTimeout}</td></tr>
 * </table>
 */
public final class PoolOptions {

    /** The expiry used when none (or zero) is given. */
    public static final Duration DEFAULT_EXPIRY = Duration.ofSeconds(1);

    /** The name used when none is given. */
    public static final String DEFAULT_NAME = "pool";

    /** The largest capacity that an idle-worker store can be pre-allocated for ({@code preAlloc}). */
    public static final int MAX_PREALLOC_CAPACITY = 1 << 24;

    private static final PoolOptions DEFAULTS = new Builder().build();

    private final Duration expiry;
    private final boolean preAlloc;
    private final int maxBlockingTasks;
    private final boolean nonblocking;
    private final Consumer<Throwable> panicHandler;
    private final boolean disablePurge;
    private final int queueCapacity;
    private final ThreadFactory threadFactory;
    private final String name;
    private final PoolListener listener;
    private final Duration maxWait;
    private final boolean virtualThreads;
    private final UnaryOperator<Runnable> taskDecorator;
    private final AdaptiveLimit adaptiveCapacity;
    private final Duration runTimeout;
    private final Duration queueTimeout;
    private final boolean interruptOverdue;

    private PoolOptions(Builder b) {
        this.expiry = b.expiry;
        this.preAlloc = b.preAlloc;
        this.maxBlockingTasks = b.maxBlockingTasks;
        this.nonblocking = b.nonblocking;
        this.panicHandler = b.panicHandler;
        this.disablePurge = b.disablePurge;
        this.queueCapacity = b.queueCapacity;
        this.threadFactory = b.threadFactory;
        this.name = b.name;
        this.listener = b.listener;
        this.maxWait = b.maxWait;
        this.virtualThreads = b.virtualThreads;
        this.taskDecorator = b.taskDecorator;
        this.adaptiveCapacity = b.adaptiveCapacity;
        this.runTimeout = b.runTimeout;
        this.queueTimeout = b.queueTimeout;
        this.interruptOverdue = b.interruptOverdue;
    }

    /** {@return the default options} */
    public static PoolOptions defaults() {
        return DEFAULTS;
    }

    /** {@return a builder holding the defaults} */
    public static Builder builder() {
        return new Builder();
    }

    /** {@return a builder holding these options, to derive others from them} */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** {@return how long a worker may stay idle before it is stopped, and how often that is checked} */
    public Duration expiry() {
        return expiry;
    }

    /** {@return whether the idle-worker store is allocated for the full capacity up front} */
    public boolean preAlloc() {
        return preAlloc;
    }

    /** {@return the most callers that may be blocked in {@code execute} at once; 0 means no limit} */
    public int maxBlockingTasks() {
        return maxBlockingTasks;
    }

    /** {@return whether {@code execute} throws {@link PoolOverloadException} instead of blocking} */
    public boolean nonblocking() {
        return nonblocking;
    }

    /** {@return the handler for tasks that throw, or {@code null} to log them through {@link System.Logger}} */
    public Consumer<Throwable> panicHandler() {
        return panicHandler;
    }

    /** {@return whether idle workers are kept forever} */
    public boolean disablePurge() {
        return disablePurge;
    }

    /** {@return 0 for no queue, {@code n > 0} for a FIFO queue of n tasks, -1 for an unbounded one} */
    public int queueCapacity() {
        return queueCapacity;
    }

    /** {@return the factory of worker threads, or {@code null} for platform threads named {@code <name>-<n>}} */
    public ThreadFactory threadFactory() {
        return threadFactory;
    }

    /** {@return the name used in thread names, logs and metrics} */
    public String name() {
        return name;
    }

    /** {@return the task listener, or {@code null}} */
    public PoolListener listener() {
        return listener;
    }

    /**
     * Returns the longest a caller blocks in {@code execute}/{@code invoke}.
     *
     * @return the longest wait, or {@code null} when callers wait without limit
     */
    public Duration maxWait() {
        return maxWait;
    }

    /**
     * Returns whether each task runs on a fresh, unpooled virtual thread.
     *
     * @return {@code true} for unpooled virtual threads
     */
    public boolean virtualThreads() {
        return virtualThreads;
    }

    /**
     * Returns the decorator applied to every task when it is submitted.
     *
     * @return the decorator, or {@code null} for none
     */
    public UnaryOperator<Runnable> taskDecorator() {
        return taskDecorator;
    }

    /**
     * Returns the limit the pool's capacity follows.
     *
     * @return the limit, or {@code null} for a capacity that changes only through {@code tune}
     */
    public AdaptiveLimit adaptiveCapacity() {
        return adaptiveCapacity;
    }

    /**
     * Returns how long a task may run before it is reported as overdue.
     *
     * @return the run timeout, or {@code null} when running tasks are not watched
     */
    public Duration runTimeout() {
        return runTimeout;
    }

    /**
     * Returns how long an accepted task may wait to start before it is reported as overdue.
     *
     * @return the queue timeout, or {@code null} when waiting tasks are not watched
     */
    public Duration queueTimeout() {
        return queueTimeout;
    }

    /**
     * Returns whether the worker of a task overdue by {@link #runTimeout()} is also interrupted.
     *
     * @return {@code true} to interrupt it
     */
    public boolean interruptOverdue() {
        return interruptOverdue;
    }

    /**
     * Checks these options together, for a pool of {@code capacity} workers. Every pool calls this when it is created;
     * a tool that builds options from its own configuration may call it earlier, to report every problem at start-up.
     *
     * @param capacity the pool's capacity; {@code <= 0} means unlimited
     * @throws InvalidOptionException naming the first invalid option (or {@code "capacity"}), its value and the fix
     */
    public void validate(int capacity) {
        if (expiry.isNegative() && !disablePurge) {
            throw new InvalidOptionException("expiry", expiry, "must not be negative",
                    "give a positive duration (zero means the default, 1s), or set disablePurge(true)");
        }
        if (maxBlockingTasks < 0) {
            throw new InvalidOptionException("maxBlockingTasks", maxBlockingTasks, "must be >= 0",
                    "use 0 for no limit, or the most callers that may wait at once");
        }
        if (queueCapacity < -1) {
            throw new InvalidOptionException("queueCapacity", queueCapacity, "must be -1, 0 or positive",
                    "use -1 for an unbounded queue, 0 for none, or the most tasks the queue holds");
        }
        if (maxWait != null && maxWait.isNegative()) {
            throw negativeMaxWait(maxWait);
        }
        if (preAlloc && capacity <= 0) {
            throw new InvalidOptionException("preAlloc", true, "needs a bounded capacity, but capacity was " + capacity
                    + " (unlimited)", "give a capacity > 0, or set preAlloc(false)");
        }
        if (preAlloc && capacity > MAX_PREALLOC_CAPACITY) {
            throw new InvalidOptionException("capacity", capacity, "is too large to pre-allocate for (preAlloc)",
                    "use a capacity <= " + MAX_PREALLOC_CAPACITY + ", or set preAlloc(false)");
        }
        if (virtualThreads && preAlloc) {
            throw new InvalidOptionException("preAlloc", true, "cannot be combined with virtualThreads (virtual"
                    + " threads are not pooled: there is no idle-worker store)",
                    "set preAlloc(false), or virtualThreads(false)");
        }
        if (adaptiveCapacity != null && capacity <= 0) {
            throw new InvalidOptionException("adaptiveCapacity", adaptiveCapacity, "needs a bounded capacity, but"
                    + " capacity was " + capacity + " (unlimited)", "give a capacity > 0, or drop adaptiveCapacity");
        }
        if (adaptiveCapacity != null && preAlloc) {
            throw new InvalidOptionException("adaptiveCapacity", adaptiveCapacity, "cannot be combined with preAlloc"
                    + " (a pre-allocated pool cannot change its capacity)",
                    "set preAlloc(false), or drop adaptiveCapacity");
        }
        if (virtualThreads && threadFactory != null) {
            throw new InvalidOptionException("threadFactory", threadFactory, "cannot be combined with virtualThreads"
                    + " (each task starts a virtual thread named <name>-<n>)",
                    "drop the threadFactory, or set virtualThreads(false)");
        }
        requirePositive("runTimeout", runTimeout);
        requirePositive("queueTimeout", queueTimeout);
        if (interruptOverdue && runTimeout == null) {
            throw new InvalidOptionException("interruptOverdue", true, "needs a runTimeout (it interrupts the worker"
                    + " of a task that runs longer than that)", "set runTimeout(...), or interruptOverdue(false)");
        }
    }

    private static void requirePositive(String option, Duration timeout) {
        if (timeout != null && (timeout.isZero() || timeout.isNegative())) {
            throw new InvalidOptionException(option, timeout, "must be positive",
                    "give a duration > 0, or null to turn it off");
        }
    }

    private static InvalidOptionException negativeMaxWait(Duration maxWait) {
        return new InvalidOptionException("maxWait", maxWait, "must not be negative",
                "use Duration.ZERO to fail at once, or null to wait without limit");
    }

    @Override
    public String toString() {
        return "PoolOptions[name=" + name + ", expiry=" + expiry + ", preAlloc=" + preAlloc
                + ", maxBlockingTasks=" + maxBlockingTasks + ", nonblocking=" + nonblocking
                + ", disablePurge=" + disablePurge + ", queueCapacity=" + queueCapacity + ", maxWait=" + maxWait
                + ", virtualThreads=" + virtualThreads + ", runTimeout=" + runTimeout + ", queueTimeout=" + queueTimeout
                + ", interruptOverdue=" + interruptOverdue
                + (adaptiveCapacity == null ? "" : ", adaptiveCapacity=" + adaptiveCapacity) + "]";
    }

    /** Builds {@link PoolOptions}. Not thread-safe; {@link #build()} may be called more than once. */
    public static final class Builder {

        private Duration expiry = DEFAULT_EXPIRY;
        private boolean preAlloc;
        private int maxBlockingTasks;
        private boolean nonblocking;
        private Consumer<Throwable> panicHandler;
        private boolean disablePurge;
        private int queueCapacity;
        private ThreadFactory threadFactory;
        private String name = DEFAULT_NAME;
        private PoolListener listener;
        private Duration maxWait;
        private boolean virtualThreads;
        private UnaryOperator<Runnable> taskDecorator;
        private AdaptiveLimit adaptiveCapacity;
        private Duration runTimeout;
        private Duration queueTimeout;
        private boolean interruptOverdue;

        private Builder() {
        }

        private Builder(PoolOptions o) {
            this.expiry = o.expiry;
            this.preAlloc = o.preAlloc;
            this.maxBlockingTasks = o.maxBlockingTasks;
            this.nonblocking = o.nonblocking;
            this.panicHandler = o.panicHandler;
            this.disablePurge = o.disablePurge;
            this.queueCapacity = o.queueCapacity;
            this.threadFactory = o.threadFactory;
            this.name = o.name;
            this.listener = o.listener;
            this.maxWait = o.maxWait;
            this.virtualThreads = o.virtualThreads;
            this.taskDecorator = o.taskDecorator;
            this.adaptiveCapacity = o.adaptiveCapacity;
            this.runTimeout = o.runTimeout;
            this.queueTimeout = o.queueTimeout;
            this.interruptOverdue = o.interruptOverdue;
        }

        /**
         * Idle workers unused for longer than this are stopped; the check runs every {@code expiry}. Zero means the
         * default (1s); a negative value is an error when the pool is created, unless {@link #disablePurge} is set.
         *
         * @param expiry the idle time
         * @return this builder
         */
        public Builder expiry(Duration expiry) {
            Objects.requireNonNull(expiry, "expiry");
            this.expiry = expiry.isZero() ? DEFAULT_EXPIRY : expiry;
            return this;
        }

        /**
         * Whether to allocate the idle-worker store for the full capacity up front (a ring instead of a growable
         * stack). An error with unlimited capacity; {@code tune} is then a no-op.
         *
         * @param preAlloc whether to pre-allocate
         * @return this builder
         */
        public Builder preAlloc(boolean preAlloc) {
            this.preAlloc = preAlloc;
            return this;
        }

        /**
         * At most this many callers may be blocked in {@code execute} at once; the next one gets a
         * {@link PoolOverloadException}. 0 (the default) means no limit; negative values are an error.
         *
         * @param maxBlockingTasks the limit
         * @return this builder
         */
        public Builder maxBlockingTasks(int maxBlockingTasks) {
            this.maxBlockingTasks = maxBlockingTasks;
            return this;
        }

        /**
         * Whether {@code execute} throws {@link PoolOverloadException} instead of blocking when no worker is free
         * and the queue (if any) is full. Wins over {@link #maxBlockingTasks}.
         *
         * @param nonblocking whether never to block
         * @return this builder
         */
        public Builder nonblocking(boolean nonblocking) {
            this.nonblocking = nonblocking;
            return this;
        }

        /**
         * Called once, on the worker, with what a task threw. The default logs it with its stack trace through
         * {@link System.Logger}, naming the pool. A handler that throws is itself logged; the worker survives.
         *
         * @param panicHandler the handler, or {@code null} for the default
         * @return this builder
         */
        public Builder panicHandler(Consumer<Throwable> panicHandler) {
            this.panicHandler = panicHandler;
            return this;
        }

        /**
         * Whether idle workers are kept forever instead of being stopped after {@link #expiry}.
         *
         * @param disablePurge whether to keep idle workers
         * @return this builder
         */
        public Builder disablePurge(boolean disablePurge) {
            this.disablePurge = disablePurge;
            return this;
        }

        /**
         * 0 (the default): no queue, callers block (or fail) when every worker is busy, as in ants. {@code n > 0}: up
         * to n tasks wait in a FIFO queue before callers block. -1: an unbounded FIFO queue, so {@code execute} never
         * blocks (as in gammazero/workerpool). Anything below -1 is an error.
         *
         * @param queueCapacity the queue size
         * @return this builder
         */
        public Builder queueCapacity(int queueCapacity) {
            this.queueCapacity = queueCapacity;
            return this;
        }

        /**
         * Where workers run. The default makes non-daemon platform threads named {@code <name>-<n>};
         * {@code Thread.ofVirtual().name("x-", 0).factory()} gives virtual-thread workers.
         *
         * @param threadFactory the factory, or {@code null} for the default
         * @return this builder
         */
        public Builder threadFactory(ThreadFactory threadFactory) {
            this.threadFactory = threadFactory;
            return this;
        }

        /**
         * The pool's name, used in thread names, logs and metrics.
         *
         * @param name a non-blank name
         * @return this builder
         */
        public Builder name(String name) {
            Objects.requireNonNull(name, "name");
            if (name.isBlank()) {
                throw new IllegalArgumentException("name must not be blank");
            }
            this.name = name;
            return this;
        }

        /**
         * Told of every task that finishes or is refused, for metrics.
         *
         * @param listener the listener, or {@code null} for none
         * @return this builder
         */
        public Builder listener(PoolListener listener) {
            this.listener = listener;
            return this;
        }

        /**
         * The longest a caller blocks in {@code execute}/{@code invoke} when the pool cannot take its task; then it
         * gets {@link PoolOverloadException} and the task is not run. {@code null} (the default): wait without limit;
         * {@link Duration#ZERO}: do not wait, as {@link #nonblocking(boolean)}.
         *
         * @param maxWait the longest wait, {@code >= 0}, or {@code null} for no limit
         * @return this builder
         * @throws InvalidOptionException if {@code maxWait} is negative
         */
        public Builder maxWait(Duration maxWait) {
            if (maxWait != null && maxWait.isNegative()) {
                throw negativeMaxWait(maxWait);
            }
            this.maxWait = maxWait;
            return this;
        }

        /**
         * Whether tasks run on virtual threads that are not pooled: each accepted task starts a fresh virtual thread
         * named {@code <name>-<n>}, and {@code capacity} bounds the tasks in flight. A virtual thread never runs a
         * second task: when a task ends, the next queued task, or a blocked caller's, starts on a fresh virtual thread
         * of its own, so ThreadLocals, MDC entries and interrupt status never pass from one task to the next. Every
         * blocking, queueing, overload, tune and release rule is unchanged; {@code expiry} and {@code disablePurge}
         * have no effect.
         * Cannot be combined with {@code preAlloc} or a {@code threadFactory} ({@link PoolOptions#validate(int)}).
         *
         * @param virtualThreads whether to run each task on a fresh virtual thread
         * @return this builder
         */
        public Builder virtualThreads(boolean virtualThreads) {
            this.virtualThreads = virtualThreads;
            return this;
        }

        /**
         * Wraps every task when it is submitted, on the submitting thread, before the pool decides where it runs: the
         * place to capture the caller's context (MDC, tracing, security) and restore it around the task. A
         * {@link DelayScheduler} decorates a job once, when it is scheduled. The decorator must not return
         * {@code null}; whatever it throws reaches the caller, and the task is then not accepted.
         *
         * @param taskDecorator the decorator, or {@code null} for none (the default)
         * @return this builder
         */
        public Builder taskDecorator(UnaryOperator<Runnable> taskDecorator) {
            this.taskDecorator = taskDecorator;
            return this;
        }

        /**
         * Makes the pool's capacity follow {@code limit}: the pool starts at {@code limit.limit()} (the capacity it is
         * created with only has to be bounded), feeds the limit a sample for each finished task (its run time, the
         * busy workers when it started, itself included, and {@code dropped = false}) and for each task refused for
         * overload ({@link PoolOverloadException}: {@code rttNanos = 0}, {@code dropped = true}), and after each
         * sample {@code tune}s to the new limit when it changed, so {@code capacity()} and {@code stats().capacity()}
         * report the current limit. A manual {@code tune} holds until the next sample.
         *
         * <p>Cost: with a limit set, each task counts itself in and out of one shared counter, reads the clock twice
         * and hands a sample to the limit (the built-in limits take a small lock); {@code tune}, which takes the pool's
         * lock, runs only when the limit changes. Without one, the task path pays nothing. Cannot be combined with an
         * unlimited capacity or {@code preAlloc}, nor changed while the pool runs; a {@link MultiPool} refuses it
         * (give each pool its own limit).
         *
         * @param limit the limit, or {@code null} (the default) for a capacity that changes only through {@code tune}
         * @return this builder
         */
        public Builder adaptiveCapacity(AdaptiveLimit limit) {
            this.adaptiveCapacity = limit;
            return this;
        }

        /**
         * A task still running this long after it started is <em>overdue</em>: it is reported once, while it runs,
         * to {@link PoolListener#taskOverdue} with its worker's stack, no later than
         * {@code runTimeout + max(runTimeout / 4, 100ms)} after it started, and counted in
         * {@link PoolStats#overdue()}. The task is not stopped (see {@link #interruptOverdue}). Zero or negative is an
         * error when the pool is created. Each task then costs its worker a read of a coarse shared clock (advanced
         * every 4 ms by one daemon thread) and a few plain stores; without
         * a timeout, nothing.
         *
         * @param runTimeout the longest expected run, or {@code null} (the default) not to watch running tasks
         * @return this builder
         */
        public Builder runTimeout(Duration runTimeout) {
            this.runTimeout = runTimeout;
            return this;
        }

        /**
         * A task not yet started this long after it was accepted (queued, or its caller blocked in {@code execute})
         * is <em>overdue</em>: it is reported once to {@link PoolListener#taskOverdue}, no later than
         * {@code queueTimeout + max(queueTimeout / 4, 100ms)} after it was accepted, and keeps its place. Zero or
         * negative is an error when the pool is created. Each queued task then costs a read of the coarse clock and a
         * plain store.
         *
         * @param queueTimeout the longest expected wait, or {@code null} (the default) not to watch waiting tasks
         * @return this builder
         */
        public Builder queueTimeout(Duration queueTimeout) {
            this.queueTimeout = queueTimeout;
            return this;
        }

        /**
         * Whether the worker of a task overdue by {@link #runTimeout} is also interrupted when it is reported (only
         * if it still runs that same task), so that a task blocked in an interruptible call can give up. Needs a
         * {@code runTimeout}. Costs each task one more volatile store and load.
         *
         * @param interruptOverdue whether to interrupt overdue tasks
         * @return this builder
         */
        public Builder interruptOverdue(boolean interruptOverdue) {
            this.interruptOverdue = interruptOverdue;
            return this;
        }

        /** {@return the options (checked when a pool is created, see {@link PoolOptions#validate(int)})} */
        public PoolOptions build() {
            return new PoolOptions(this);
        }
    }
}
