package io.github.poolkit.internal.pool;

import io.github.poolkit.OverdueTask;
import io.github.poolkit.PoolListener;
import io.github.poolkit.PoolOptions;
import io.github.poolkit.PoolOverloadException;

import java.time.Duration;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * Runs a pool's tasks and reports on them: the body that runs one task, the panic handler for a task that throws,
 * the listener told of every finished and refused task, and the counts a pool's stats show (completed and failed per
 * worker, see {@link Worker}; refused here).
 *
 * <p>A task travels through the pool in the form {@link #carry} gives it: the caller's object, a stand-in for
 * {@code null} (a {@code FuncPool} argument; null means "no task" in the pool's slots), and, only when a listener is
 * set, wrapped with the time it was submitted. {@link #unwrap} turns it back.
 */
final class TaskRunner {

    /** Stands for a {@code null} task (a {@code FuncPool} argument), since null means "no task" in the slots. */
    private static final Object NULL_TASK = new Object();

    private static final System.Logger LOG = System.getLogger("io.github.poolkit");

    private final String poolName;
    private final Consumer<Object> body;
    private final Consumer<Throwable> panicHandler;
    private final PoolListener listener;
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
        this.panicHandler = options.panicHandler() != null ? options.panicHandler() : this::logPanic;
        this.listener = options.listener();
        this.adaptive = adaptive;
        this.watchRuns = options.runTimeout() != null;
        this.interruptOverdue = options.interruptOverdue();
    }

    /** {@return the task in the form the pool carries it} */
    Object carry(Object task) {
        Object carried = task == null ? NULL_TASK : task;
        return listener == null ? carried : new TimedTask(carried, System.nanoTime());
    }

    /** {@return the task as the caller gave it} */
    Object unwrap(Object carried) {
        Object task = carried instanceof TimedTask t ? t.task() : carried;
        return task == NULL_TASK ? null : task;
    }

    /**
     * Runs a task on worker {@code w}'s thread, counting it on the worker and telling the panic handler and the
     * listener; nothing it throws escapes.
     */
    void run(Worker w, Object carried) {
        long submitted = carried instanceof TimedTask t ? t.submittedNanos() : 0;
        long started = listener == null && adaptive == null ? 0 : System.nanoTime();
        int inFlight = adaptive == null ? 0 : adaptive.started();
        Throwable failure = null;
        w.countStarted();
        if (watchRuns) {
            w.beginWatched(carried);
        }
        try {
            body.accept(unwrap(carried));
        } catch (Throwable e) {
            failure = e;
            panic(e);
        }
        if (watchRuns) {
            w.endWatched(interruptOverdue);
        }
        w.countFinished(failure == null ? Worker.Outcome.COMPLETED : Worker.Outcome.FAILED);
        if (adaptive != null) {
            adaptive.finished(System.nanoTime() - started, inFlight);
        }
        if (listener != null) {
            try {
                listener.taskFinished(started - submitted, System.nanoTime() - started, failure);
            } catch (Throwable e) {
                LOG.log(System.Logger.Level.WARNING, "the listener of pool '" + poolName + "' threw", e);
            }
        }
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
        if (listener == null) {
            return;
        }
        try {
            listener.taskOverdue(new OverdueTask(poolName, kind, TaskDescription.of(unwrap(carried)), thread,
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
        if (listener != null) {
            try {
                listener.taskRejected(reason);
            } catch (Throwable e) {
                LOG.log(System.Logger.Level.WARNING, "the listener of pool '" + poolName + "' threw", e);
            }
        }
    }

    /** {@return tasks refused since the pool was created} */
    long rejectedCount() {
        return rejected.sum();
    }

    /** Hands a failure to the panic handler; a handler that throws is logged. */
    void panic(Throwable e) {
        try {
            panicHandler.accept(e);
        } catch (Throwable handlerFailure) {
            handlerFailure.addSuppressed(e);
            LOG.log(System.Logger.Level.ERROR, "the panic handler of pool '" + poolName + "' threw", handlerFailure);
        }
    }

    private void logPanic(Throwable e) {
        LOG.log(System.Logger.Level.ERROR, "a task of pool '" + poolName + "' threw", e);
    }

    /** A task with the time it was submitted; only made when a {@link PoolListener} is set. */
    private record TimedTask(Object task, long submittedNanos) {
    }
}
