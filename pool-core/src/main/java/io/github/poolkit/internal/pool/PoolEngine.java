package io.github.poolkit.internal.pool;

import io.github.poolkit.internal.Durations;
import io.github.poolkit.PoolClosedException;
import io.github.poolkit.PoolListener;
import io.github.poolkit.PoolOptions;
import io.github.poolkit.PoolOverloadException;
import io.github.poolkit.PoolStats;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * What {@code WorkerPool} and {@code FuncPool} are made of (ants' {@code poolCommon}): a {@link PoolCore} (the
 * workers, the queue, the line of blocked callers, and the lock and protocol that keep them consistent), a
 * {@link TaskRunner} (how a task runs, and who is told), and the options, some of which can change while the pool runs
 * ({@link #reconfigure}). This class composes them into the pool's life cycle and figures; the two pools differ only
 * in how a task runs.
 */
public final class PoolEngine {

    /**
     * The body of a pool whose tasks are {@link Runnable}s: it runs each. Such a pool runs its own submitted futures
     * ({@link io.github.poolkit.internal.CountedRun}) so that each counts its task before it completes.
     */
    public static final Consumer<Object> RUNNABLES = task -> ((Runnable) task).run();

    private final String name;
    private final TaskRunner runner;
    private final PoolCore core;
    /** The options and the wait rules they give, swapped together by {@link #reconfigure} (under its monitor). */
    private volatile Settings settings;

    /** Options in force, and what they allow a caller that cannot be served at once. */
    private record Settings(PoolOptions options, WaitRules waitRules) {
        Settings(PoolOptions options) {
            this(options, WaitRules.of(options));
        }
    }

    /**
     * Creates an open pool with no workers yet.
     *
     * @param capacity the most workers; {@code <= 0} means unlimited; with an adaptive capacity, the limit's value
     *                 instead
     * @param options  the options, already {@linkplain PoolOptions#validate(int) validated} for this capacity
     * @param body     runs one task, as the caller gave it, on a worker thread
     */
    public PoolEngine(int capacity, PoolOptions options, Consumer<Object> body) {
        this(capacity, options, body, WorkerThreads.of(options));
    }

    /** A pool as above, on the given threads (the ones its options ask for, or, in tests, a factory that fails). */
    PoolEngine(int capacity, PoolOptions options, Consumer<Object> body, WorkerThreads threads) {
        this.name = options.name();
        this.settings = new Settings(options);
        AdaptiveCapacity adaptive = options.adaptiveCapacity() == null ? null
                : new AdaptiveCapacity(name, options.adaptiveCapacity(), this);
        this.runner = new TaskRunner(options, body, adaptive);
        this.core = new PoolCore(adaptive == null ? capacity : adaptive.initial(), options, threads, runner,
                this::waitRules);
    }

    /**
     * Accepts a task: hands it to an idle worker, else starts a worker while there is room, else queues it while the
     * queue has room, else fails fast or blocks (at most {@code maxWait}) until one of those becomes possible.
     *
     * @param task the task; {@code null} is carried as is (a FuncPool argument)
     * @throws PoolClosedException        if the pool is, or becomes, closed
     * @throws PoolOverloadException      if the pool cannot take the task now and the caller may not wait (longer)
     * @throws RejectedExecutionException if interrupted while blocked, or no worker thread could be started
     */
    public void execute(Object task) {
        execute(task, WaitRules.NO_LIMIT);
    }

    /**
     * Accepts a task as {@link #execute(Object)} does, blocking at most {@code timeoutNanos} (or {@code maxWait},
     * whichever is shorter): for timed {@code invokeAll}/{@code invokeAny}.
     *
     * @param task         the task
     * @param timeoutNanos the caller's own limit on the wait; {@code <= 0} does not wait
     */
    public void execute(Object task, long timeoutNanos) {
        admit(runner.carry(task), timeoutNanos, true);
    }

    /**
     * Accepts a task as {@link #execute(Object, long)} does, as a first try that another pool may make good
     * ({@code MultiPool}'s round robin): an overload is neither counted nor told to the listener here, so that a
     * refusal the caller never sees is reported nowhere; the caller reports it ({@link #rejected}) if it stands.
     * Any other refusal is reported as {@code execute} reports it.
     *
     * @param task         the task
     * @param timeoutNanos the caller's own limit on the wait; {@code <= 0} does not wait
     */
    public void tryExecute(Object task, long timeoutNanos) {
        admit(runner.carry(task), timeoutNanos, false);
    }

    /**
     * Accepts a task as {@link #execute(Object, long)} does, one its caller has been trying to place since
     * {@code submittedNanos} ({@code MultiPool}'s retry on another pool): the wait the listener hears of counts from
     * then, the first pool's included.
     *
     * @param task           the task
     * @param timeoutNanos   the caller's own limit on the wait that is left; {@code <= 0} does not wait
     * @param submittedNanos when the caller submitted it, in {@link System#nanoTime()} terms
     */
    public void executeSince(Object task, long timeoutNanos, long submittedNanos) {
        admit(runner.carry(task, submittedNanos), timeoutNanos, true);
    }

    private void admit(Object carried, long timeoutNanos, boolean reportOverload) {
        try {
            core.admit(carried, timeoutNanos);
        } catch (RejectedExecutionException e) {
            if (reportOverload || !(e instanceof PoolOverloadException)) {
                runner.rejected(e);
            }
            throw e;
        }
    }

    /**
     * Counts a task refused on the pool's behalf, not by {@link #execute} (a scheduler that was shut down refusing a
     * job), and tells the listener, as a refusal of {@code execute} is.
     *
     * @param reason the exception the caller receives
     */
    public void rejected(RuntimeException reason) {
        runner.rejected(reason);
    }

    /**
     * Adds a listener to the running pool, told after those it has (see {@code Pool.addListener}).
     *
     * @param listener the listener, not null
     */
    public void addListener(PoolListener listener) {
        runner.addListener(Objects.requireNonNull(listener, "listener"));
    }

    /** Changes the capacity (see {@link PoolLifecycle#tune}). */
    public void tune(int capacity) {
        core.lifecycle.tune(capacity);
    }

    /**
     * Closes the pool if it is open: new tasks are refused, blocked callers get {@link PoolClosedException}, idle
     * workers stop, running and queued tasks finish. A second call closes nothing again. When the last task was a
     * pool's own future (submitted) and was seen done, the pool is terminated when this returns, on every call: workers
     * that finished their future and took nothing since are retired on their behalf, or waited for while they complete
     * it or look for work (microseconds; {@link PoolLifecycle#retireFinishedWorkers}): never terminated before the
     * future is done.
     *
     * @return whether this call closed the pool
     */
    public boolean release() {
        boolean closed = core.lifecycle.transitionTo(PoolCore.State.SHUTDOWN) != null;
        core.lifecycle.retireFinishedWorkers(); // also after another's close: a future may have finished since
        return closed;
    }

    /**
     * Closes the pool like {@link #release()}, also taking the queued tasks out and interrupting running ones.
     *
     * @return the tasks that were queued and will not run, as the callers gave them
     */
    public List<Object> shutdownNow() {
        List<Object> drained = core.lifecycle.transitionTo(PoolCore.State.STOP);
        core.lifecycle.retireFinishedWorkers();
        return drained == null ? List.of() : drained.stream().map(runner::unwrap).toList();
    }

    /**
     * Releases the pool, then waits until it is terminated ({@link #isTerminated()}).
     *
     * @throws PoolClosedException  if the pool was already closed
     * @throws TimeoutException     if workers are still running, or accepted tasks still queued, after the timeout
     * @throws InterruptedException if interrupted while waiting
     */
    public void releaseTimeout(Duration timeout) throws TimeoutException, InterruptedException {
        // Counted as a waiter in the step that closes the pool, under the lock: no reboot until it returns (none can
        // come in between), while a call that finds the pool closed already is no waiter, not even for an instant.
        boolean closed = core.lifecycle.transitionTo(PoolCore.State.SHUTDOWN, true) != null;
        try {
            core.lifecycle.retireFinishedWorkers(); // as release() does
            if (!closed) {
                throw new PoolClosedException("pool '" + name + "' is already closed");
            }
            if (!core.termination.await(Durations.toNanosSaturated(timeout), TimeUnit.NANOSECONDS)) {
                throw new TimeoutException("pool '" + name + "' still has " + core.running() + " workers running and "
                        + core.queuedCount() + " tasks queued after " + timeout);
            }
        } finally {
            if (closed) {
                core.lifecycle.waiting(-1); // counted by the close above, and only then
            }
        }
    }

    /**
     * Reopens a closed pool (no-op when open): it accepts tasks again and purges idle workers again.
     *
     * @throws IllegalStateException if a {@link #closeAndAwait()} or {@link #releaseTimeout} is waiting for the pool
     */
    public void reboot() {
        core.lifecycle.reboot();
    }

    /**
     * Waits until the pool is terminated ({@link #isTerminated()}).
     *
     * @return whether the pool terminated in time
     * @throws InterruptedException if interrupted while waiting
     */
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        return core.termination.await(timeout, unit);
    }

    /**
     * Releases the pool and waits until it terminates, as {@link java.util.concurrent.ExecutorService#close()} does:
     * if interrupted while waiting, stops the pool with {@link #shutdownNow()}, keeps waiting, and returns with the
     * interrupt status set.
     */
    public void closeAndAwait() {
        boolean interrupted = false;
        core.lifecycle.waiting(1); // no reboot until it returns (counted first: none can come in between)
        try {
            release();
            while (!core.isTerminated()) {
                try {
                    core.termination.await(1, TimeUnit.DAYS);
                } catch (InterruptedException e) {
                    if (!interrupted) {
                        shutdownNow();
                        interrupted = true;
                    }
                }
            }
        } finally {
            core.lifecycle.waiting(-1);
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** {@return the options the pool was created with, as changed since by {@link #reconfigure}} */
    public PoolOptions options() {
        return settings.options();
    }

    /**
     * Changes the options that can change live ({@link LiveOptions}). A caller reads them once, as it enters
     * {@link #execute}, so callers already blocked keep the rules they entered with.
     *
     * @param changed the new options; every option that cannot change live must equal the current one
     * @throws io.github.poolkit.InvalidOptionException if an option is invalid, or differs but cannot change live;
     *                                                  nothing is changed then
     */
    public void reconfigure(PoolOptions changed) {
        changed.validate(core.capacity());
        synchronized (this) { // one reconfiguration at a time; never held while anything waits
            LiveOptions.requireOnlyLiveChanges(settings.options(), changed);
            settings = new Settings(changed);
        }
    }

    /** {@return the wait rules in force, read by a caller that the pool cannot serve at once} */
    private WaitRules waitRules() {
        return settings.waitRules();
    }

    /** {@return the pool's name} */
    public String name() {
        return name;
    }

    /** {@return the capacity, -1 when unlimited} */
    public int capacity() {
        return core.capacity();
    }

    /** {@return workers alive: busy, idle and not yet purged, or starting} */
    public int running() {
        return core.running();
    }

    /** {@return workers idle now, waiting for a task (a snapshot that may already be stale)} */
    public int idleWorkers() {
        return core.idle.size();
    }

    /** {@return {@code max(0, capacity - running)}, -1 when unlimited} */
    public int free() {
        int c = core.capacity();
        return c < 0 ? -1 : Math.max(0, c - core.running());
    }

    /** {@return callers blocked in execute plus queued tasks} */
    public int waiting() {
        return core.blockedCallers() + core.queuedCount();
    }

    /** {@return a snapshot of the pool's figures} */
    public PoolStats stats() {
        int running = core.running();
        WorkerSet.Tally tally = core.tally();
        // Unpooled, every place held is a busy worker: one read for both figures. Pooled, the two are read apart (a
        // worker may start between them, and its task too): capped, so that busy never exceeds running either way.
        int busy = core.pooled() ? Math.min(tally.busy(), running) : running;
        return new PoolStats(core.capacity(), running, busy, core.queuedCount(), core.blockedCallers(),
                tally.completed(), tally.failed(), runner.rejectedCount(), isClosed(), core.overdueCount());
    }

    /** {@return whether the pool has been released (and not rebooted)} */
    public boolean isClosed() {
        return !core.isOpen();
    }

    /** {@return whether the pool is closed, every worker has left and no accepted task waits in the queue} */
    public boolean isTerminated() {
        return core.isTerminated();
    }

    @Override
    public String toString() {
        return "pool '" + name + "' [capacity=" + capacity() + ", running=" + running() + ", waiting=" + waiting()
                + ", " + (core.isOpen() ? "open" : isTerminated() ? "terminated" : "closed") + "]";
    }
}
