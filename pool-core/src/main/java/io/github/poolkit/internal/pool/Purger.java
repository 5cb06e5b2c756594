package io.github.poolkit.internal.pool;

import io.github.poolkit.internal.NamedThreadFactory;
import java.lang.ref.WeakReference;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Runs every pool's periodic purge of expired idle workers on one shared daemon thread ({@code poolkit-purger}),
 * instead of one ticker thread per pool. A purge holds its pool only weakly, so a pool that is dropped without being
 * released can still be collected once its workers have expired; its purge then cancels itself.
 */
final class Purger implements Runnable {

    private static final class Timer {
        static final ScheduledThreadPoolExecutor INSTANCE = create();

        private static ScheduledThreadPoolExecutor create() {
            ScheduledThreadPoolExecutor timer =
                    new ScheduledThreadPoolExecutor(1, NamedThreadFactory.daemon("poolkit-purger"));
            timer.setRemoveOnCancelPolicy(true);
            return timer;
        }
    }

    private final WeakReference<PoolLifecycle> pool;
    private volatile Future<?> future;

    private Purger(PoolLifecycle pool) {
        this.pool = new WeakReference<>(pool);
    }

    /**
     * Purges {@code pool} every {@code periodNanos} until the returned future is cancelled or the pool is collected.
     *
     * @param pool        the pool
     * @param periodNanos the expiry
     * @return the handle that stops the purges
     */
    static Future<?> schedule(PoolLifecycle pool, long periodNanos) {
        Purger purger = new Purger(pool);
        purger.future = Timer.INSTANCE.scheduleWithFixedDelay(purger, periodNanos, periodNanos, TimeUnit.NANOSECONDS);
        return purger.future;
    }

    @Override
    public void run() {
        PoolLifecycle p = pool.get();
        if (p != null) {
            p.purgeExpiredWorkers();
            return;
        }
        Future<?> f = future;
        if (f != null) {
            f.cancel(false);
        }
    }
}
