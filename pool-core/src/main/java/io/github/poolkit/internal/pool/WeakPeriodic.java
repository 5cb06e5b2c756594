package io.github.poolkit.internal.pool;

import io.github.poolkit.internal.NamedThreadFactory;
import java.lang.ref.WeakReference;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A pool's periodic chore on one of poolkit's shared daemon threads: the purge of expired idle workers
 * ({@link Purger}) and the overdue check ({@link OverdueChecker}). It holds its pool only weakly, so a pool that is
 * dropped without being released can still be collected; the chore then cancels itself.
 *
 * <p>Invariant: the chore is handed the pool on each run and holds no reference to it of its own (an unbound method
 * reference such as {@code PoolLifecycle::purgeExpiredWorkers}); otherwise the timer's queue would keep the pool alive.
 */
final class WeakPeriodic implements Runnable {

    private final WeakReference<PoolLifecycle> pool;
    private final Consumer<PoolLifecycle> chore;
    private volatile Future<?> future;

    private WeakPeriodic(PoolLifecycle pool, Consumer<PoolLifecycle> chore) {
        this.pool = new WeakReference<>(pool);
        this.chore = chore;
    }

    /**
     * Makes a shared timer: one daemon thread named {@code <name>-1}, made when the first chore is scheduled, and a
     * queue that a cancelled chore leaves at once (one cancelled just as a run ends leaves when its next run falls
     * due, and does not run: harmless, as a chore holds its pool only weakly).
     *
     * @param name the thread's name without its number
     * @return the timer
     */
    static ScheduledThreadPoolExecutor timer(String name) {
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, NamedThreadFactory.daemon(name));
        timer.setRemoveOnCancelPolicy(true);
        return timer;
    }

    /**
     * Runs {@code chore} on {@code pool} every {@code periodNanos} until the returned future is cancelled or the pool
     * is collected.
     *
     * @param timer       the shared timer
     * @param pool        the pool, held weakly
     * @param periodNanos the period (and the first delay)
     * @param chore       what to do to the pool, holding no reference to it
     * @return the handle that stops the chore
     */
    static Future<?> schedule(ScheduledExecutorService timer, PoolLifecycle pool, long periodNanos,
            Consumer<PoolLifecycle> chore) {
        WeakPeriodic periodic = new WeakPeriodic(pool, chore);
        periodic.future = timer.scheduleWithFixedDelay(periodic, periodNanos, periodNanos, TimeUnit.NANOSECONDS);
        return periodic.future;
    }

    @Override
    public void run() {
        PoolLifecycle p = pool.get();
        if (p != null) {
            chore.accept(p);
            return;
        }
        Future<?> f = future;
        if (f != null) {
            f.cancel(false);
        }
    }
}
