package io.github.poolkit.internal.pool;

import io.github.poolkit.internal.NamedThreadFactory;

import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Runs the overdue checks of every pool with a {@code runTimeout} or {@code queueTimeout} ({@link OverdueWatch}) on
 * one shared daemon thread, {@code poolkit-overdue-1}, and tells each pool's listener on a thread of that pool's own,
 * {@code poolkit-overdue-<pool>-<n>} ({@link #reporterFor}). Why the split: the check reads clocks and worker fields
 * and takes each worker's stack at the moment it is found overdue, which is quick, so one thread serves every pool
 * and a pool without a timeout has no check at all; a report calls the task's {@code toString()} and the listener (a
 * log line, an event, a counter), which the application owns and may be slow, so each pool reports on its own
 * thread: a slow one delays its own later reports, never another pool's, nor the detection or the stack taken of any
 * task. A pool's reporting thread starts at its first report and ends after {@value #REPORTER_IDLE_SECONDS} s without
 * one, so fifty watched pools with nothing overdue cost two threads (the check's and {@link CoarseClock}'s). Reports
 * of different pools may run at once.
 *
 * <p>A check holds its pool only weakly, as the {@link Purger} does ({@link WeakPeriodic}), so a pool dropped without
 * being released can still be collected; its check then cancels itself. Each pool is checked every
 * {@link OverdueWatch#periodNanos()}.
 */
final class OverdueChecker {

    private static final System.Logger LOG = System.getLogger("io.github.poolkit");
    private static final long REPORTER_IDLE_SECONDS = 10;

    /** The shared checking thread, made when the first watched pool is created. */
    private static final class Threads {
        static final ScheduledThreadPoolExecutor CHECKS = WeakPeriodic.timer("poolkit-overdue");
    }

    private OverdueChecker() {
    }

    /**
     * Checks {@code pool} every {@code periodNanos} until the returned future is cancelled or the pool is collected.
     *
     * @return the handle that stops the checks
     */
    static Future<?> schedule(PoolLifecycle pool, long periodNanos) {
        return WeakPeriodic.schedule(Threads.CHECKS, pool, periodNanos, OverdueChecker::check);
    }

    /**
     * {@return where one pool's reports run, in the order given: a daemon thread of its own, named
     * {@code poolkit-overdue-<pool>-<n>}, started when a report comes and ended when none has come for a while}
     *
     * @param poolName the pool's name
     */
    static Executor reporterFor(String poolName) {
        ThreadPoolExecutor reporter = new ThreadPoolExecutor(1, 1, REPORTER_IDLE_SECONDS, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), NamedThreadFactory.daemon("poolkit-overdue-" + poolName));
        reporter.allowCoreThreadTimeOut(true);
        return reporter;
    }

    private static void check(PoolLifecycle p) {
        try {
            p.checkOverdue();
        } catch (Throwable e) { // a periodic task that throws is never run again: keep checking
            LOG.log(System.Logger.Level.WARNING, "the overdue check of pool '" + p.name() + "' failed", e);
        }
    }
}
