package io.github.poolkit.internal.pool;

import io.github.poolkit.OverdueTask;
import io.github.poolkit.PoolOptions;
import io.github.poolkit.internal.Durations;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Finds a pool's overdue tasks ({@code runTimeout}, {@code queueTimeout}); run by the shared {@link OverdueChecker}
 * every {@link #periodNanos()}, never on a worker.
 *
 * <p>What the task path pays. Without a timeout: nothing (a branch on a final field; no clock read, no store).
 * With a {@code runTimeout}: the worker publishes each task and its start time in fields of its own
 * ({@link Worker#beginWatched}): a read of the {@link CoarseClock} (not a {@code System.nanoTime()} call), an opaque
 * and two release stores (plain stores on x86), no lock, no allocation, no shared write; {@code interruptOverdue}
 * adds one volatile store and load. With a {@code queueTimeout}: each queued task's accept time is kept in an array
 * beside its queue slot ({@link TaskQueue}), a read of the coarse clock and one plain store, and one array of longs
 * per queue segment of 1024 tasks; a blocked caller keeps its own.
 *
 * <p>What a check costs: RUN reads each live worker's published task (the worker list is copied under the pool's lock
 * once per check); QUEUE walks the queue from where the last check stopped to the first task that is not overdue
 * (FIFO: the rest are younger), and the caller line under the lock only when callers are blocked.
 *
 * <p>Each task is reported at most once per kind: a worker remembers the start of the task last reported (the
 * checker's own field), the queue scan never goes back, and a reported blocked caller's task is unwatched, also after
 * it moves into the queue. A RUN report takes the worker's stack, then checks that the worker still runs the same
 * task (same task, same start), so the stack is never another task's.
 *
 * <p>Timing: a check runs every {@code max(timeout / 8, 25ms)} of the shorter timeout, at most half the slack allowed
 * (a quarter for timeouts under 200 ms, whose slack of 100 ms a loaded machine's scheduling delays eat into most), so
 * a task is reported no later than {@code timeout + max(timeout / 4, 100ms)} unless the checking thread is starved.
 *
 * <p>Backlog: at most {@value #MAX_WAITING_REPORTS} reports wait for the listener ({@link #tell}). Each holds its
 * task and a stack, so a listener that hangs (a log appender blocked on a full disk) must not let them pile up for
 * the pool's life; reports found beyond that are dropped, still counted in {@link #reported()}, and logged.
 */
final class OverdueWatch {

    private static final System.Logger LOG = System.getLogger("io.github.poolkit");
    private static final long MIN_PERIOD_NANOS = 25_000_000L;
    /** The most reports handed to the reporting thread and not yet told to the listener. */
    static final int MAX_WAITING_REPORTS = 4096;

    private final PoolCore pool;
    private final TaskRunner runner;
    /** -1 when not watched. */
    private final long runTimeoutNanos;
    private final long queueTimeoutNanos;
    private final boolean interrupt;
    /** Where this pool's reports run: a thread of the pool's own ({@link OverdueChecker#reporterFor}). */
    private final Executor reporter;
    /** The queue index the next scan starts from; the checker's only. */
    private long queueScanFrom;
    /** Tasks reported so far; written by the checker only. */
    private volatile long reported;
    /**
     * Reports handed to the reporting thread and not yet told. Invariant: never below the number it holds, so never
     * above {@link #MAX_WAITING_REPORTS} either: the checker raises it before it hands reports on (and only it
     * raises it, so the room it reads can only grow until it hands them), the reporting thread lowers it after each
     * report is told.
     */
    private final AtomicInteger waitingReports = new AtomicInteger();
    /**
     * Reports dropped since the listener fell behind; 0 while it keeps up. The checker's only. It falls behind when a
     * report is dropped, and has caught up only once every report handed on has been told (none waiting), not merely
     * when a batch fits again: so a slow listener gets one warning as it falls behind and one when it has caught up,
     * not a pair per check.
     */
    private long droppedSinceBehind;

    private OverdueWatch(PoolCore pool, TaskRunner runner, PoolOptions options) {
        this.pool = pool;
        this.runner = runner;
        this.runTimeoutNanos = options.runTimeout() == null ? -1 : Durations.toNanosSaturated(options.runTimeout());
        this.queueTimeoutNanos = options.queueTimeout() == null ? -1
                : Durations.toNanosSaturated(options.queueTimeout());
        this.interrupt = options.interruptOverdue();
        this.reporter = OverdueChecker.reporterFor(options.name());
    }

    /** {@return the watch for a pool with a timeout, or null for one without} */
    static OverdueWatch of(PoolCore pool, TaskRunner runner, PoolOptions options) {
        return options.runTimeout() == null && options.queueTimeout() == null ? null
                : new OverdueWatch(pool, runner, options);
    }

    /** {@return whether waiting tasks are watched} */
    boolean watchesQueue() {
        return queueTimeoutNanos > 0;
    }

    /** {@return how often to check: {@code max(shorter timeout / 8, 25ms)}} */
    long periodNanos() {
        long shorter = runTimeoutNanos < 0 ? queueTimeoutNanos
                : queueTimeoutNanos < 0 ? runTimeoutNanos : Math.min(runTimeoutNanos, queueTimeoutNanos);
        return Math.max(shorter / 8, MIN_PERIOD_NANOS);
    }

    /** {@return tasks reported overdue since the pool was created} */
    long reported() {
        return reported;
    }

    /** One overdue task found by a check, to report. */
    private record Found(OverdueTask.Kind kind, Object task, String thread, long elapsedNanos,
                         StackTraceElement[] stack) {
    }

    /** Finds the overdue tasks (on the checker's thread), counts them and hands them to the pool's reporting thread. */
    void check() {
        if (droppedSinceBehind > 0 && waitingReports.get() == 0) {
            warn("the listener of pool '" + pool.name() + "' has caught up; " + droppedSinceBehind
                    + " overdue reports were dropped meanwhile");
            droppedSinceBehind = 0;
        }
        // Stamps come from the coarse clock: older than the timeout by the clock's lag, so that none is early.
        long now = System.nanoTime() - CoarseClock.lagBound(System.nanoTime());
        List<Found> found = new ArrayList<>(0);
        if (runTimeoutNanos > 0) {
            checkRuns(now, found);
        }
        if (queueTimeoutNanos > 0) {
            TaskQueue.OverdueSink sink = (task, waited) -> {
                if (!runner.isSettledFuture(task)) { // cancelled while it waited: it never runs, its caller gave up
                    found.add(new Found(OverdueTask.Kind.QUEUE, task, null, waited, new StackTraceElement[0]));
                }
            };
            queueScanFrom = scanWaiting(queueScanFrom, now, queueTimeoutNanos, sink);
        }
        if (found.isEmpty()) {
            return;
        }
        reported += found.size();
        if (runner.hasListener()) {
            tell(found);
        }
    }

    /**
     * Hands the reports to the pool's reporting thread, as many as the backlog has room for (the oldest first); the
     * rest are dropped. Logs when the listener falls behind ({@link #check} logs when it has caught up).
     */
    private void tell(List<Found> found) {
        int room = Math.max(0, MAX_WAITING_REPORTS - waitingReports.get());
        List<Found> told = found.size() <= room ? found : new ArrayList<>(found.subList(0, room));
        int dropped = found.size() - told.size();
        if (dropped > 0 && droppedSinceBehind == 0) {
            warn("the listener of pool '" + pool.name() + "' has fallen " + MAX_WAITING_REPORTS + " overdue reports"
                    + " behind: overdue tasks found from now until it catches up are counted (stats().overdue()) but"
                    + " not reported");
        }
        droppedSinceBehind += dropped;
        if (told.isEmpty()) {
            return;
        }
        waitingReports.addAndGet(told.size());
        try {
            reporter.execute(() -> told.forEach(f -> {
                try {
                    runner.overdue(f.kind(), f.task(), f.thread(), f.elapsedNanos(), f.stack());
                } finally {
                    waitingReports.decrementAndGet();
                }
            }));
        } catch (RuntimeException | Error e) { // no thread could be started for them: they were never handed on
            waitingReports.addAndGet(-told.size());
            throw e;
        }
    }

    /**
     * Logs a warning on a thread of its own, never on the shared checking thread: a listener falls behind when its
     * output hangs (a log appender on a full disk), and the log may be that same output; the checks of every pool must
     * go on. One per falling behind and catching up, so they stay few.
     */
    private static void warn(String message) {
        Thread.ofVirtual().name("poolkit-overdue-warning").start(() -> LOG.log(System.Logger.Level.WARNING, message));
    }

    private void checkRuns(long now, List<Found> found) {
        for (Worker w : workersSnapshot()) {
            Object task = w.watchedTask();
            if (task == null) {
                continue;
            }
            long since = w.watchedSince();
            Thread t = w.thread;
            if (since == w.reportedSince || now - since < runTimeoutNanos || t == null) {
                continue;
            }
            StackTraceElement[] stack = t.getStackTrace();
            if (w.watchedTask() != task || w.watchedSince() != since) {
                continue; // it ended meanwhile: the stack may be another task's
            }
            w.reportedSince = since;
            found.add(new Found(OverdueTask.Kind.RUN, task, t.getName(), Math.max(System.nanoTime() - since,
                    runTimeoutNanos), stack));
            if (interrupt) {
                w.interruptIfStillRunning(task, since);
            }
        }
    }

    /**
     * {@return the workers counted now: pooled ones copied under the pool's lock, which guards their list; unpooled
     * ones without it, as their set needs none (a scan of its whole table must not hold up callers on the lock)}
     */
    private List<Worker> workersSnapshot() {
        List<Worker> copy = new ArrayList<>();
        if (!pool.pooled()) {
            pool.workers.forEach(copy::add);
            return copy;
        }
        pool.lock.lock();
        try {
            pool.workers.forEach(copy::add);
        } finally {
            pool.lock.unlock();
        }
        return copy;
    }

    /**
     * Reports the blocked callers (under the pool's lock, only when there are any) and the queued tasks accepted at
     * least {@code timeoutNanos} before {@code now}, each once.
     *
     * @param from where the last scan of the queue stopped
     * @return where the next scan of the queue starts
     */
    private long scanWaiting(long from, long now, long timeoutNanos, TaskQueue.OverdueSink sink) {
        long next = pool.queue == null ? from : pool.queue.scanOverdue(from, now, timeoutNanos, sink);
        if (pool.blockedCallers() > 0) {
            pool.lock.lock();
            try {
                pool.line.scanOverdue(now, timeoutNanos, sink);
            } finally {
                pool.lock.unlock();
            }
        }
        return next;
    }
}
