package io.github.poolkit.internal.pool;

import io.github.poolkit.internal.NamedThreadFactory;

import java.lang.ref.WeakReference;
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
 * <p>A check holds its pool only weakly, as the {@link Purger} does, so a pool dropped without being released can
 * still be collected; its check then cancels itself. Each pool is checked every {@link OverdueWatch#periodNanos()}.
 */
final class OverdueChecker implements Runnable {

    private static final System.Logger LOG = System.getLogger("io.github.poolkit");

    /** The shared threads, made when the first watched pool is created. */
    private static final class Threads {
        static final ScheduledThreadPoolExecutor CHECKS = checks();
        static final ThreadPoolExecutor REPORTS = reports();

        private static ScheduledThreadPoolExecutor checks() {
            ScheduledThreadPoolExecutor timer =
                    new ScheduledThreadPoolExecutor(1, NamedThreadFactory.daemon("poolkit-overdue"));
            timer.setRemoveOnCancelPolicy(true);
            return timer;
        }

        private static ThreadPoolExecutor reports() {
            ThreadPoolExecutor reporter = new ThreadPoolExecutor(1, 1, 30, TimeUnit.SECONDS,
                    new LinkedBlockingQueue<>(), NamedThreadFactory.daemon("poolkit-overdue-report"));
            reporter.allowCoreThreadTimeOut(true);
            return reporter;
        }
    }

    private final WeakReference<PoolLifecycle> pool;
    private volatile Future<?> future;

    private OverdueChecker(PoolLifecycle pool) {
        this.pool = new WeakReference<>(pool);
    }

    /**
     * Checks {@code pool} every {@code periodNanos} until the returned future is cancelled or the pool is collected.
     *
     * @return the handle that stops the checks
     */
    static Future<?> schedule(PoolLifecycle pool, long periodNanos) {
        OverdueChecker checker = new OverdueChecker(pool);
        checker.future = Threads.CHECKS.scheduleWithFixedDelay(checker, periodNanos, periodNanos,
                TimeUnit.NANOSECONDS);
        return checker.future;
    }

    /** Runs {@code report} on the reporting thread (in the order given). */
    static void report(Runnable report) {
        Threads.REPORTS.execute(report);
    }

    @Override
    public void run() {
        PoolLifecycle p = pool.get();
        if (p == null) {
            Future<?> f = future;
            if (f != null) {
                f.cancel(false);
            }
            return;
        }
        try {
            p.checkOverdue();
        } catch (Throwable e) { // a periodic task that throws is never run again: keep checking
            LOG.log(System.Logger.Level.WARNING, "the overdue check of pool '" + p.name() + "' failed", e);
        }
    }
}
