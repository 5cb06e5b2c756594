package io.github.poolkit.internal.pool;

import java.util.concurrent.Future;
import java.util.concurrent.ScheduledThreadPoolExecutor;

/**
 * Runs every pool's periodic purge of expired idle workers on one shared daemon thread ({@code poolkit-purger}),
 * instead of one ticker thread per pool. A purge holds its pool only weakly ({@link WeakPeriodic}), so a pool that is
 * dropped without being released can still be collected once its workers have expired; its purge then cancels itself.
 */
final class Purger {

    private static final class Timer {
        static final ScheduledThreadPoolExecutor INSTANCE = WeakPeriodic.timer("poolkit-purger");
    }

    /**
     * The shortest period between two purges of a pool: a shorter expiry is still honoured (a worker idle longer is
     * stopped at the next purge), but purging every few nanoseconds kept the shared thread busy and took the pool's
     * lock without pause.
     */
    static final long MIN_PERIOD_NANOS = 1_000_000;

    private Purger() {
    }

    /**
     * Purges {@code pool} every {@code periodNanos}, or every {@link #MIN_PERIOD_NANOS} if that is longer, until the
     * returned future is cancelled or the pool is collected.
     *
     * @param pool        the pool
     * @param periodNanos the expiry
     * @return the handle that stops the purges
     */
    static Future<?> schedule(PoolLifecycle pool, long periodNanos) {
        return WeakPeriodic.schedule(Timer.INSTANCE, pool, Math.max(MIN_PERIOD_NANOS, periodNanos),
                PoolLifecycle::purgeExpiredWorkers);
    }
}
