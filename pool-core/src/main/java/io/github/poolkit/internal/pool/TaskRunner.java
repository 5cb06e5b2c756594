package io.github.poolkit.internal.pool;

import io.github.poolkit.OverdueTask;
import io.github.poolkit.PoolListener;
import io.github.poolkit.PoolOptions;
import io.github.poolkit.PoolOverloadException;
import io.github.poolkit.internal.CountedRun;

import java.time.Duration;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * Runs a pool's tasks and reports on them: the body that runs one task, the panic handler for a task that throws,
 * the listener told of every finished and refused task, and the counts a pool's stats show (completed and failed per
 * worker, see {@link Worker}; refused here).
 *
 * <p>A task travels through the pool in the form {@link #carry} gives it: the caller's object, a stand-in for
 * {@code null} (a {@code FuncPool} argument; null means "no task" in the pool's slots), and, only when a listener is
 * set, wrapped with the time it was submitted and the listener in force then. {@link #unwrap} turns it back.
 *
 * <p>Listeners. Invariants: {@link #listener} is null (nobody is told) or the listener of the options, followed by
 * those added by {@link #addListener}, in order (a {@link ListenerChain} when there are several); it only grows, and
 * only under this runner's monitor, by one volatile write of a new value (never by changing a chain in place). The
 * task path reads it once per task, in {@link #carry} (a volatile read: no lock, no allocation beyond the timed
 * wrapper a listener needs); {@link #run} reads none, but tells the listener the task carries, so a task is reported
 * finished only to the listeners it was accepted under (its wait is measured from its acceptance), never to one added
 * after it was accepted. Refusals and overdue reports read the field once each, when they happen.
 */
final class TaskRunner {

    /** A submission time that means "now" to {@link #carry(Object, long)}, which then reads the clock. */
    private static final long SUBMITTED_NOW = Long.MIN_VALUE;

    /** Stands for a {@code null} task (a {@code FuncPool} argument), since null means "no task" in the slots. */
    private static final Object NULL_TASK = new Object();

    private static final System.Logger LOG = System.getLogger("io.github.poolkit");

    private final String poolName;
    private final Consumer<Object> body;
    /** Whether tasks are Runnables ({@link PoolEngine#RUNNABLES}), so that a submitted future may count itself. */
    private final boolean runsFutures;
    private final Consumer<Throwable> panicHandler;
    /** Who is told of tasks, or null: see the class comment for its invariants. */
    private volatile PoolListener listener;
    /** The limit the capacity follows; null (nothing paid) unless {@code adaptiveCapacity} is set. */
    private final AdaptiveCapacity adaptive;
    /** Whether the worker publishes each task it runs for the overdue checker (a run timeout is set). */
    private final boolean watchRuns;
    /** Whether the checker may interrupt an overdue task ({@link Worker#endWatched}). */
    private final boolean interruptOverdue;
    /** Tasks refused; rejection is not the hot path. */
    private final LongAdder rejected = new LongAdder();

    /**
     * @param options the pool's options (name, panic handler, listener)
     * @param body    runs one task, as the caller gave it
     * @param adaptive the adaptive capacity to feed, or null
     */
    TaskRunner(PoolOptions options, Consumer<Object> body, AdaptiveCapacity adaptive) {
        this.poolName = options.name();
        this.body = body;
        this.runsFutures = body == PoolEngine.RUNNABLES;
        this.panicHandler = options.panicHandler() != null ? options.panicHandler() : this::logPanic;
        this.listener = options.listener();
        this.adaptive = adaptive;
        this.watchRuns = options.runTimeout() != null;
        this.interruptOverdue = options.interruptOverdue();
    }

    /** {@return the task in the form the pool carries it, submitted now} */
    Object carry(Object task) {
        return carry(task, SUBMITTED_NOW);
    }

    /**
     * {@return the task in the form the pool carries it, submitted at {@code submittedNanos}} For a task its caller
     * has been trying to place since then (a {@code MultiPool}'s retry on another pool): its wait counts from there.
     * {@link #SUBMITTED_NOW} reads the clock, only when a listener is told.
     */
    Object carry(Object task, long submittedNanos) {
        Object carried = task == null ? NULL_TASK : task;
        PoolListener told = listener;
        return told == null ? carried
                : new TimedTask(carried, submittedNanos == SUBMITTED_NOW ? System.nanoTime() : submittedNanos, told);
    }

    /**
     * Adds a listener after those already told: it hears of the tasks accepted from now on, of refusals and of
     * overdue tasks found from now on.
     */
    void addListener(PoolListener added) {
        synchronized (this) {
            PoolListener current = listener;
            listener = current == null ? added : ListenerChain.of(poolName, current, added);
        }
    }

    /** {@return the task as the caller gave it} */
    Object unwrap(Object carried) {
        Object task = carried instanceof TimedTask t ? t.task() : carried;
        return task == NULL_TASK ? null : task;
    }

    /**
     * @param carried a task, as the pool carries it
     * @return whether it is a future (of a pool whose tasks are Runnables) already done, a cancelled one say: it will
     *         not run its work when a worker takes it
     */
    boolean isSettledFuture(Object carried) {
        return runsFutures && unwrap(carried) instanceof Future<?> future && future.isDone();
    }

    /**
     * Runs a task on worker {@code w}'s thread, counting it on the worker and telling the panic handler and the
     * listener; nothing it throws escapes.
     *
     * <p>A pool's own future ({@link CountedRun}: a submitted task, a scheduled job) counts its task itself, as
     * completed or failed, and has the listener told ({@link #futureEnded}), before it completes (invariant: whoever
     * sees the future done sees the count and what the listener recorded); a submitted task's exception goes to the
     * future and the listener, not the panic handler (a scheduled job re-throws its own, which then reaches the panic
     * handler, uncounted here); one that ran nothing on this worker (cancelled before it started, done already, or
     * being run by its caller's own {@code run()}) is neither counted nor reported. Any other task costs one type
     * check for this.
     */
    void run(Worker w, Object carried) {
        TimedTask timed = carried instanceof TimedTask t ? t : null;
        long started = timed == null && adaptive == null ? 0 : System.nanoTime();
        int inFlight = adaptive == null ? 0 : adaptive.started();
        Object task = unwrap(carried);
        CountedRun future = runsFutures && task instanceof CountedRun f ? f : null;
        Throwable failure = null;
        if (future != null) {
            w.runEnded = CountedRun.NOT_COUNTED;
            if (timed != null) {
                w.timedRun = timed; // told as the future counts its task, before it completes (futureEnded)
                w.timedRunStarted = started;
            }
        }
        w.countStarted();
        if (watchRuns) {
            w.beginWatched(carried);
        }
        try {
            if (future == null) {
                body.accept(task);
            } else {
                future.runCounted(w);
            }
        } catch (Throwable e) {
            failure = e;
        }
        // the task's run time, for the sample and the listener: not the panic handler's, nor the sample's own
        long ranUntil = timed == null && adaptive == null ? 0 : System.nanoTime();
        if (watchRuns) {
            w.endWatched(interruptOverdue); // the watch times the task, not the panic handler after it
        }
        if (failure != null) {
            panic(failure);
        }
        boolean ran = true;
        if (future == null) {
            w.countFinished(failure == null ? Worker.Outcome.COMPLETED : Worker.Outcome.FAILED);
        } else {
            Object ended = w.runEnded; // the worker's, not the future's: see CountedRun
            if (ended == CountedRun.NOT_COUNTED && failure == null) {
                // it ran nothing here: cancelled before it started, done already, or being run by its caller (a
                // future's own run()), who counts nothing on the pool
                w.uncountStarted();
                ran = false;
            } else if (ended == CountedRun.NOT_COUNTED) {
                w.countFinished(failure == null ? Worker.Outcome.COMPLETED : Worker.Outcome.FAILED);
            } else if (failure == null && ended != CountedRun.RETURNED) {
                failure = (Throwable) ended; // counted as failed already; the listener is told what it threw
            }
        }
        if (adaptive != null) {
            adaptive.finished(ranUntil - started, inFlight, ran); // one that never ran is no sample
        }
        if (timed != null && ran && (future == null || w.timedRun != null)) {
            tell(timed, started, ranUntil, failure); // not told yet: not a future, or one that did not count its task
        }
        if (future != null && timed != null) {
            w.timedRun = null;
        }
    }

    /**
     * Called on worker {@code w}'s thread by a pool's own future that has just counted its task, before the future
     * completes: tells the listener the task carried then, so that whoever sees the future done also sees what the
     * listener recorded (a meter); {@link #run} then tells nobody again.
     *
     * @param failure what the task threw, or {@code null}
     */
    void futureEnded(Worker w, Throwable failure) {
        TimedTask timed = w.timedRun;
        if (timed != null) {
            w.timedRun = null;
            tell(timed, w.timedRunStarted, System.nanoTime(), failure);
        }
    }

    /** Tells a task's listener that it ran from {@code started} to {@code ended}; a listener that throws is logged. */
    private void tell(TimedTask timed, long started, long ended, Throwable failure) {
        try {
            timed.listener().taskFinished(started - timed.submittedNanos(), ended - started, failure);
        } catch (Throwable e) {
            LOG.log(System.Logger.Level.WARNING, "the listener of pool '" + poolName + "' threw", e);
        }
    }

    /**
     * {@return whether code runs after a task's future completed: the adaptive capacity's sample of its time (the
     * limit's own code, which may change the capacity)}
     */
    boolean samplesAfterTask() {
        return adaptive != null;
    }

    /** {@return whether anybody is told of overdue tasks (else they are only counted)} */
    boolean hasListener() {
        return listener != null;
    }

    /**
     * Tells the listener of an overdue task (on a thread of poolkit's own); whatever the listener throws is logged.
     *
     * @param carried the task, as the pool carries it
     */
    void overdue(OverdueTask.Kind kind, Object carried, String thread, long elapsedNanos, StackTraceElement[] stack) {
        PoolListener told = listener;
        if (told == null) {
            return;
        }
        try {
            told.taskOverdue(new OverdueTask(poolName, kind, TaskDescription.of(unwrap(carried)), thread,
                    Duration.ofNanos(elapsedNanos), stack));
        } catch (Throwable e) {
            LOG.log(System.Logger.Level.WARNING, "the listener of pool '" + poolName + "' threw", e);
        }
    }

    /** Counts a refused task, tells the listener, and, for an overload, the adaptive capacity. */
    void rejected(RuntimeException reason) {
        rejected.increment();
        if (adaptive != null && reason instanceof PoolOverloadException) {
            adaptive.rejected();
        }
        PoolListener told = listener;
        if (told != null) {
            try {
                told.taskRejected(reason);
            } catch (Throwable e) {
                LOG.log(System.Logger.Level.WARNING, "the listener of pool '" + poolName + "' threw", e);
            }
        }
    }

    /** {@return tasks refused since the pool was created} */
    long rejectedCount() {
        return rejected.sum();
    }

    /**
     * Hands a failure to the panic handler; a handler that throws is logged. Invariant: nothing escapes, as every
     * caller relies on (a worker that must survive its task, a caller whose task is already queued). A handler may
     * throw back the very exception it was given, which cannot suppress itself ({@link Throwable#addSuppressed}
     * would throw), so it is logged as it is.
     */
    void panic(Throwable e) {
        try {
            panicHandler.accept(e);
        } catch (Throwable handlerFailure) {
            if (handlerFailure != e) {
                handlerFailure.addSuppressed(e);
            }
            LOG.log(System.Logger.Level.ERROR, "the panic handler of pool '" + poolName + "' threw", handlerFailure);
        }
    }

    private void logPanic(Throwable e) {
        LOG.log(System.Logger.Level.ERROR, "a task of pool '" + poolName + "' threw", e);
    }

    /** A task with the time it was submitted and who is told when it ends; only made when a listener is set. */
    record TimedTask(Object task, long submittedNanos, PoolListener listener) {
    }
}
