package io.github.poolkit.internal.pool;

import io.github.poolkit.internal.NamedThreadFactory;

import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Runs the overdue checks of every pool with a {@code runTimeout} or {@code queueTimeout} ({@link OverdueWatch}) on
 * one shared daemon thread, {@code poolkit-overdue-1}, and tells listeners on a second one,
 * {@code poolkit-overdue-report-1}: an application with fifty watched pools has two threads for this, not fifty, and
 * a pool without a timeout has no check at all. Why two threads and not one: the check reads clocks and worker
 * fields and takes each worker's stack at the moment it is found overdue, which is quick; a report calls the task's
 * {@code toString()} and the listener (a log line, an event, a counter), which the application owns and may be slow,
 * so a slow one delays later reports but never the detection, nor the stack taken, of another pool's tasks.
 *
 * <p>A check holds its pool only weakly, as the {@link Purger} does ({@link WeakPeriodic}), so a pool dropped without
 * being released can still be collected; its check then cancels itself. Each pool is checked every
 * {@link OverdueWatch#periodNanos()}.
 */
final class OverdueChecker {

    private static final System.Logger LOG = System.getLogger("io.github.poolkit");

    /** The shared threads, made when the first watched pool is created. */
    private static final class Threads {
        static final ScheduledThreadPoolExecutor CHECKS = WeakPeriodic.timer("poolkit-overdue");
        static final ThreadPoolExecutor REPORTS = reports();

        private static ThreadPoolExecutor reports() {
            ThreadPoolExecutor reporter = new ThreadPoolExecutor(1, 1, 30, TimeUnit.SECONDS,
                    new LinkedBlockingQueue<>(), NamedThreadFactory.daemon("poolkit-overdue-report"));
            reporter.allowCoreThreadTimeOut(true);
            return reporter;
        }
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

    /** Runs {@code report} on the reporting thread (in the order given). */
    static void report(Runnable report) {
        Threads.REPORTS.execute(report);
    }

    private static void check(PoolLifecycle p) {
        try {
            p.checkOverdue();
        } catch (Throwable e) { // a periodic task that throws is never run again: keep checking
            LOG.log(System.Logger.Level.WARNING, "the overdue check of pool '" + p.name() + "' failed", e);
        }
    }
}
