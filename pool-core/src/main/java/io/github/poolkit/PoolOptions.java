package io.github.poolkit;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.StringJoiner;
import java.util.concurrent.ThreadFactory;
import java.util.function.Consumer;
import java.util.function.ObjIntConsumer;
import java.util.function.UnaryOperator;

/**
 * The immutable options of a {@link WorkerPool}, {@link FuncPool}, {@link MultiPool} or {@link DelayScheduler}, named
 * after their counterparts in ants. Build them with {@link #builder()}, or take {@link #defaults()}; {@link #OPTIONS}
 * lists them all, each with its meaning and default.
 *
 * <p>Options are checked together, against the pool's capacity, by {@link #validate(int)}, which every pool calls when
 * it is created: {@code expiry(-1s)} is fine with {@code disablePurge(true)}, and {@code preAlloc} is checked against
 * the capacity. An invalid option or combination throws an {@link InvalidOptionException} that names the option (as the
 * builder spells it, or {@code "capacity"}), the value and the fix.
 */
public final class PoolOptions {

    private static final boolean LIVE = true;
    private static final boolean FIXED = false;
    private static final ObjIntConsumer<PoolOptions> NO_RULE = (o, capacity) -> { };

    /*
     * The option table: every option of a pool, described once, as a PoolOption constant holding its name (as the
     * builder and the accessor spell it), the type of its values, its default, whether a running pool may change it
     * (LIVE, an allow-list: FIXED unless it says otherwise), its builder method and its rule. PoolOptions and its
     * builder keep one value per option; the defaults, validate (the rules, in OPTIONS' order, which is the order in
     * which problems are reported), toString, the pools' reconfigure (only LIVE options may differ), and the Spring
     * Boot starter's binding of properties, refresh of changed properties and endpoint writes all iterate OPTIONS
     * instead of naming options. Adding an option: a constant here, in OPTIONS, an accessor and a builder method (and,
     * for the starter, a property of the same name in its properties class); a pool reads it where it applies.
     */

    /** Idle workers unused for longer are stopped, checked every expiry; default 1s (also for zero). */
    public static final PoolOption<Duration> EXPIRY = new PoolOption<>("expiry", Duration.class, Duration.ofSeconds(1),
            FIXED, Builder::expiry, (o, capacity) -> OptionRules.refuse(o.expiry().isNegative() && !o.disablePurge(),
                    "expiry", o.expiry(), "must not be negative",
                    "give a positive duration (zero means the default, 1s), or set disablePurge(true)"));
    /** At most this many callers blocked in {@code execute}; 0 (the default) means no limit. Changes live. */
    public static final PoolOption<Integer> MAX_BLOCKING_TASKS = new PoolOption<>("maxBlockingTasks", Integer.class, 0,
            LIVE, Builder::maxBlockingTasks, (o, capacity) -> OptionRules.refuse(o.maxBlockingTasks() < 0,
                    "maxBlockingTasks", o.maxBlockingTasks(), "must be >= 0",
                    "use 0 for no limit, or the most callers that may wait at once"));
    /** 0 (the default): no queue; n: a FIFO queue of n tasks; -1: an unbounded one. */
    public static final PoolOption<Integer> QUEUE_CAPACITY = new PoolOption<>("queueCapacity", Integer.class, 0, FIXED,
            Builder::queueCapacity, (o, capacity) -> OptionRules.refuse(o.queueCapacity() < -1, "queueCapacity",
                    o.queueCapacity(), "must be -1, 0 or positive",
                    "use -1 for an unbounded queue, 0 for none, or the most tasks the queue holds"));
    /** The longest a caller blocks in {@code execute}; {@code null} (the default): no limit. Changes live. */
    public static final PoolOption<Duration> MAX_WAIT = new PoolOption<>("maxWait", Duration.class, null, LIVE,
            Builder::maxWait, (o, capacity) -> OptionRules.notNegative(o.maxWait()));
    /** Whether the capacity is fixed, as with ants' {@code PreAlloc} ({@code tune} a no-op); default false. */
    public static final PoolOption<Boolean> PRE_ALLOC = new PoolOption<>("preAlloc", Boolean.class, false, FIXED,
            Builder::preAlloc, OptionRules::preAlloc);
    /** The limit the capacity follows; {@code null} (the default): the capacity changes only by {@code tune}. */
    public static final PoolOption<AdaptiveLimit> ADAPTIVE_CAPACITY = new PoolOption<>("adaptiveCapacity",
            AdaptiveLimit.class, null, FIXED, Builder::adaptiveCapacity, OptionRules::adaptiveCapacity);
    /** Where workers run; {@code null} (the default): platform threads named {@code <name>-<n>}. */
    public static final PoolOption<ThreadFactory> THREAD_FACTORY = new PoolOption<>("threadFactory",
            ThreadFactory.class, null, FIXED, Builder::threadFactory, OptionRules::threadFactory);
    /** A task running longer is reported as overdue; {@code null} (the default): not watched. */
    public static final PoolOption<Duration> RUN_TIMEOUT = new PoolOption<>("runTimeout", Duration.class, null, FIXED,
            Builder::runTimeout, (o, capacity) -> OptionRules.positive("runTimeout", o.runTimeout()));
    /** A task waiting longer to start is reported as overdue; {@code null} (the default): not watched. */
    public static final PoolOption<Duration> QUEUE_TIMEOUT = new PoolOption<>("queueTimeout", Duration.class, null,
            FIXED, Builder::queueTimeout, (o, capacity) -> OptionRules.positive("queueTimeout", o.queueTimeout()));
    /** Whether the worker of a task overdue by {@code runTimeout} is also interrupted; default false. */
    public static final PoolOption<Boolean> INTERRUPT_OVERDUE = new PoolOption<>("interruptOverdue", Boolean.class,
            false, FIXED, Builder::interruptOverdue, OptionRules::interruptOverdue);
    /** The pool's name, used in thread names, logs and metrics; default {@code pool}. */
    public static final PoolOption<String> NAME = new PoolOption<>("name", String.class, "pool", FIXED, Builder::name,
            NO_RULE);
    /** Whether {@code execute} fails instead of blocking; default false. Changes live. */
    public static final PoolOption<Boolean> NONBLOCKING = new PoolOption<>("nonblocking", Boolean.class, false, LIVE,
            Builder::nonblocking, NO_RULE);
    /** Whether idle workers are kept forever; default false. */
    public static final PoolOption<Boolean> DISABLE_PURGE = new PoolOption<>("disablePurge", Boolean.class, false,
            FIXED, Builder::disablePurge, NO_RULE);
    /** Whether each task runs on a fresh, unpooled virtual thread; default false. */
    public static final PoolOption<Boolean> VIRTUAL_THREADS = new PoolOption<>("virtualThreads", Boolean.class, false,
            FIXED, Builder::virtualThreads, NO_RULE);
    /** Called with what a task threw, or a worker's failed start; {@code null} (the default): logged. */
    public static final PoolOption<Consumer<Throwable>> PANIC_HANDLER = new PoolOption<>("panicHandler",
            Consumer.class, null, FIXED, Builder::panicHandler, NO_RULE);
    /** Told of every finished and refused task; {@code null} (the default): none. */
    public static final PoolOption<PoolListener> LISTENER = new PoolOption<>("listener", PoolListener.class, null,
            FIXED, Builder::listener, NO_RULE);
    /** Wraps every task when it is submitted; {@code null} (the default): none. */
    public static final PoolOption<UnaryOperator<Runnable>> TASK_DECORATOR = new PoolOption<>("taskDecorator",
            UnaryOperator.class, null, FIXED, Builder::taskDecorator, NO_RULE);

    /** Every option, in the order in which {@link #validate(int)} checks them. */
    public static final List<PoolOption<?>> OPTIONS = List.of(EXPIRY, MAX_WAIT, MAX_BLOCKING_TASKS, QUEUE_CAPACITY,
            PRE_ALLOC, ADAPTIVE_CAPACITY, THREAD_FACTORY, RUN_TIMEOUT, QUEUE_TIMEOUT, INTERRUPT_OVERDUE, NAME,
            NONBLOCKING, DISABLE_PURGE, VIRTUAL_THREADS, PANIC_HANDLER, LISTENER, TASK_DECORATOR);

    /** The expiry used when none (or zero) is given. */
    public static final Duration DEFAULT_EXPIRY = EXPIRY.defaultValue();

    /** The name used when none is given. */
    public static final String DEFAULT_NAME = NAME.defaultValue();

    /** The largest capacity that {@code preAlloc} may fix (a bound kept from ants' pre-allocated worker queue). */
    public static final int MAX_PREALLOC_CAPACITY = 1 << 24;

    private static final PoolOptions DEFAULTS = new Builder().build();

    /** One value per option, at its {@link PoolOption#index}. */
    final Object[] values;

    private PoolOptions(Builder b) {
        this.values = b.values.clone();
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
        return EXPIRY.get(this);
    }

    /** {@return whether the capacity is fixed ({@link Builder#preAlloc}): {@code tune} is then a no-op} */
    public boolean preAlloc() {
        return PRE_ALLOC.get(this);
    }

    /** {@return the most callers that may be blocked in {@code execute} at once; 0 means no limit} */
    public int maxBlockingTasks() {
        return MAX_BLOCKING_TASKS.get(this);
    }

    /** {@return whether {@code execute} throws {@link PoolOverloadException} instead of blocking} */
    public boolean nonblocking() {
        return NONBLOCKING.get(this);
    }

    /** {@return the handler for tasks that throw, or {@code null} to log them through {@link System.Logger}} */
    public Consumer<Throwable> panicHandler() {
        return PANIC_HANDLER.get(this);
    }

    /** {@return whether idle workers are kept forever} */
    public boolean disablePurge() {
        return DISABLE_PURGE.get(this);
    }

    /** {@return 0 for no queue, {@code n > 0} for a FIFO queue of n tasks, -1 for an unbounded one} */
    public int queueCapacity() {
        return QUEUE_CAPACITY.get(this);
    }

    /** {@return the factory of worker threads, or {@code null} for platform threads named {@code <name>-<n>}} */
    public ThreadFactory threadFactory() {
        return THREAD_FACTORY.get(this);
    }

    /** {@return the name used in thread names, logs and metrics} */
    public String name() {
        return NAME.get(this);
    }

    /** {@return the task listener, or {@code null}} */
    public PoolListener listener() {
        return LISTENER.get(this);
    }

    /** {@return the longest a caller blocks in {@code execute}/{@code invoke}, or {@code null} for no limit} */
    public Duration maxWait() {
        return MAX_WAIT.get(this);
    }

    /** {@return {@code true} when each task runs on a fresh, unpooled virtual thread} */
    public boolean virtualThreads() {
        return VIRTUAL_THREADS.get(this);
    }

    /** {@return the decorator applied to every task when it is submitted, or {@code null} for none} */
    public UnaryOperator<Runnable> taskDecorator() {
        return TASK_DECORATOR.get(this);
    }

    /** {@return the limit the capacity follows, or {@code null} for one that changes only through {@code tune}} */
    public AdaptiveLimit adaptiveCapacity() {
        return ADAPTIVE_CAPACITY.get(this);
    }

    /** {@return how long a task may run before it is reported overdue, or {@code null} when not watched} */
    public Duration runTimeout() {
        return RUN_TIMEOUT.get(this);
    }

    /** {@return how long an accepted task may wait to start before it is reported overdue, or {@code null}} */
    public Duration queueTimeout() {
        return QUEUE_TIMEOUT.get(this);
    }

    /** {@return {@code true} when the worker of a task overdue by {@link #runTimeout()} is also interrupted} */
    public boolean interruptOverdue() {
        return INTERRUPT_OVERDUE.get(this);
    }

    /**
     * Checks these options together, for a pool of {@code capacity} workers: each option's rule, in the
     * table's order. Every pool calls this when it is created; a tool that builds options from its own configuration
     * may call it earlier, to report every problem at start-up.
     *
     * @param capacity the pool's capacity; {@code <= 0} means unlimited
     * @throws InvalidOptionException naming the first invalid option (or {@code "capacity"}), its value and the fix
     */
    public void validate(int capacity) {
        for (PoolOption<?> option : OPTIONS) {
            option.check(this, capacity);
        }
    }

    /** {@return every option that is set (not {@code null}), in the table's order} */
    @Override
    public String toString() {
        StringJoiner text = new StringJoiner(", ", "PoolOptions[", "]");
        for (PoolOption<?> option : OPTIONS) {
            if (values[option.index] != null) {
                text.add(option.name() + "=" + values[option.index]);
            }
        }
        return text.toString();
    }

    /** Builds {@link PoolOptions}. Not thread-safe; {@link #build()} may be called more than once. */
    public static final class Builder {

        private final Object[] values;

        private Builder() {
            values = new Object[OPTIONS.size()];
            for (PoolOption<?> option : OPTIONS) {
                values[option.index] = option.defaultValue();
            }
        }

        private Builder(PoolOptions o) {
            values = o.values.clone();
        }

        private Builder put(PoolOption<?> option, Object value) {
            values[option.index] = value;
            return this;
        }

        /**
         * Idle workers unused for longer than this are stopped; the check runs every {@code expiry}, or every
         * millisecond if that is shorter (so that a tiny expiry does not keep a processor busy). Zero means the
         * default (1s); a negative value is an error when the pool is created, unless {@link #disablePurge} is set.
         *
         * @param expiry the idle time
         * @return this builder
         */
        public Builder expiry(Duration expiry) {
            Objects.requireNonNull(expiry, "expiry");
            return put(EXPIRY, expiry.isZero() ? DEFAULT_EXPIRY : expiry);
        }

        /**
         * Whether the capacity is fixed, as with ants' {@code PreAlloc}: {@code tune} is then a no-op; an error with
         * unlimited capacity. (ants allocates its worker queue up front; this pool's idle store needs none.)
         *
         * @param preAlloc whether the capacity is fixed
         * @return this builder
         */
        public Builder preAlloc(boolean preAlloc) {
            return put(PRE_ALLOC, preAlloc);
        }

        /**
         * At most this many callers may be blocked in {@code execute} at once; the next one gets a
         * {@link PoolOverloadException}. 0 (the default) means no limit; negative values are an error.
         *
         * @param maxBlockingTasks the limit
         * @return this builder
         */
        public Builder maxBlockingTasks(int maxBlockingTasks) {
            return put(MAX_BLOCKING_TASKS, maxBlockingTasks);
        }

        /**
         * Whether {@code execute} throws {@link PoolOverloadException} instead of blocking when no worker is free
         * and the queue (if any) is full. Wins over {@link #maxBlockingTasks}.
         *
         * @param nonblocking whether never to block
         * @return this builder
         */
        public Builder nonblocking(boolean nonblocking) {
            return put(NONBLOCKING, nonblocking);
        }

        /**
         * Called once, on the worker, with what a task threw, and with a worker's failed start (on the thread that
         * tried); by default logged with its stack through {@link System.Logger}. One that throws is logged too.
         *
         * @param panicHandler the handler, or {@code null} for the default
         * @return this builder
         */
        public Builder panicHandler(Consumer<Throwable> panicHandler) {
            return put(PANIC_HANDLER, panicHandler);
        }

        /**
         * Whether idle workers are kept forever instead of being stopped after {@link #expiry}.
         *
         * @param disablePurge whether to keep idle workers
         * @return this builder
         */
        public Builder disablePurge(boolean disablePurge) {
            return put(DISABLE_PURGE, disablePurge);
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
            return put(QUEUE_CAPACITY, queueCapacity);
        }

        /**
         * Where workers run. The default makes non-daemon platform threads named {@code <name>-<n>};
         * {@code Thread.ofVirtual().name("x-", 0).factory()} gives virtual-thread workers. The factory must return a
         * thread it has not started (the pool starts it); one that returns a started thread
         * ({@code Thread::startVirtualThread}) has every task refused with {@code RejectedExecutionException}.
         *
         * @param threadFactory the factory, or {@code null} for the default
         * @return this builder
         */
        public Builder threadFactory(ThreadFactory threadFactory) {
            return put(THREAD_FACTORY, threadFactory);
        }

        /**
         * The pool's name, used in thread names, logs and metrics.
         *
         * @param name a non-blank name
         * @return this builder
         * @throws InvalidOptionException if {@code name} is blank
         */
        public Builder name(String name) {
            Objects.requireNonNull(name, "name");
            if (name.isBlank()) {
                throw new InvalidOptionException("name", name, "must not be blank",
                        "give a name with at least one visible character, such as \"reports\"");
            }
            return put(NAME, name);
        }

        /**
         * Told of every task that finishes or is refused, for metrics.
         *
         * @param listener the listener, or {@code null} for none
         * @return this builder
         */
        public Builder listener(PoolListener listener) {
            return put(LISTENER, listener);
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
                throw OptionRules.negativeMaxWait(maxWait);
            }
            return put(MAX_WAIT, maxWait);
        }

        /**
         * Whether tasks run on unpooled virtual threads: each accepted task starts a fresh virtual thread named
         * {@code <name>-<n>}, and {@code capacity} bounds the tasks in flight. A virtual thread never runs a second
         * task: the next queued task, or a blocked caller's, starts on a fresh one, so ThreadLocals, MDC entries and
         * interrupt status never pass from one task to the next. That thread inherits no InheritableThreadLocal values
         * (not the submitter's either: carry context with a {@link #taskDecorator}) and has the context class loader of
         * the thread that created the pool. Other rules are unchanged; {@code expiry}, {@code disablePurge} have no
         * effect; not with {@code preAlloc} or a {@code threadFactory} ({@link PoolOptions#validate(int)}).
         *
         * @param virtualThreads whether to run each task on a fresh virtual thread
         * @return this builder
         */
        public Builder virtualThreads(boolean virtualThreads) {
            return put(VIRTUAL_THREADS, virtualThreads);
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
            return put(TASK_DECORATOR, taskDecorator);
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
            return put(ADAPTIVE_CAPACITY, limit);
        }

        /**
         * A task still running this long after it started is <em>overdue</em>: found while it runs, it is reported once
         * to {@link PoolListener#taskOverdue} with its worker's stack, not before {@code runTimeout} (but for a stall
         * of the clock's thread, by up to that stall) and no later than {@code runTimeout + max(runTimeout / 4, 100ms)}
         * after it started, and counted in {@link PoolStats#overdue()}. The task is not stopped (see {@link
         * #interruptOverdue}). Each task costs its worker a read of a coarse clock (advanced every 4 ms by one daemon
         * thread) and a few plain stores; without a timeout, nothing.
         *
         * @param runTimeout the longest expected run, {@code > 0}, or {@code null} (the default) not to watch runs
         * @return this builder
         * @throws InvalidOptionException if {@code runTimeout} is zero or negative
         */
        public Builder runTimeout(Duration runTimeout) {
            OptionRules.positive("runTimeout", runTimeout);
            return put(RUN_TIMEOUT, runTimeout);
        }

        /**
         * A task not yet started this long after it was accepted (queued, or its caller blocked in {@code execute})
         * is <em>overdue</em>: it is reported once to {@link PoolListener#taskOverdue}, no later than
         * {@code queueTimeout + max(queueTimeout / 4, 100ms)} after it was accepted, and keeps its place. Each queued
         * task then costs a read of the coarse clock and a plain store.
         *
         * @param queueTimeout the longest expected wait, {@code > 0}, or {@code null} (the default) not to watch
         * @return this builder
         * @throws InvalidOptionException if {@code queueTimeout} is zero or negative
         */
        public Builder queueTimeout(Duration queueTimeout) {
            OptionRules.positive("queueTimeout", queueTimeout);
            return put(QUEUE_TIMEOUT, queueTimeout);
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
            return put(INTERRUPT_OVERDUE, interruptOverdue);
        }

        /** {@return the options (checked when a pool is created, see {@link PoolOptions#validate(int)})} */
        public PoolOptions build() {
            return new PoolOptions(this);
        }
    }
}
