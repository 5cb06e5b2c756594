package io.github.poolkit.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.context.SmartLifecycle;

import io.github.poolkit.DelayScheduler;
import io.github.poolkit.PoolClosedException;
import io.github.poolkit.WorkerPool;

/**
 * Releases the pools and the scheduler that poolkit's auto-configuration created when the application context closes:
 * first the scheduler (its jobs may still submit to the pools), then the pools in the reverse order of their creation
 * (as Spring destroys beans). Each waits up to its {@code shutdown-timeout} for running and queued tasks; whatever has
 * not finished by then is logged at WARN with the pool's name and its counts, and goes on running in the background:
 * no accepted task is dropped.
 *
 * <p>The phase, {@link #PHASE}, is below that of Spring Boot's web server (graceful shutdown at
 * {@code DEFAULT_PHASE - 1024}, server stop at {@code DEFAULT_PHASE - 2048}), so requests in flight may still submit
 * tasks before the pools close. Stopping is synchronous and sequential.
 *
 * <p>Implementation overview: {@link #manage} may be called from any thread (lazy beans are created late), so the
 * lists are guarded by {@code this}; {@link #stop()} takes a snapshot under the lock and releases outside it, so a
 * slow pool never blocks registration. {@code running} is volatile: {@link #isRunning()} is a racy read, harmless
 * because the lifecycle processor calls start and stop from one thread.
 */
public class PoolkitLifecycle implements SmartLifecycle {

    /** The phase of this lifecycle: stopped after the web server. */
    public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 4096;

    private static final Log logger = LogFactory.getLog(PoolkitLifecycle.class);

    private final List<Managed<WorkerPool>> pools = new ArrayList<>();
    private final List<Managed<DelayScheduler>> schedulers = new ArrayList<>();
    private volatile boolean running;

    /** Creates a lifecycle that manages nothing yet. */
    public PoolkitLifecycle() {
    }

    /**
     * Releases {@code pool} on {@link #stop()}, waiting up to {@code timeout}.
     *
     * @param name    the bean name, for logs
     * @param pool    the pool
     * @param timeout how long to wait for its tasks
     */
    public synchronized void manage(String name, WorkerPool pool, Duration timeout) {
        pools.add(new Managed<>(name, pool, timeout));
    }

    /**
     * Shuts {@code scheduler} down on {@link #stop()}, before any pool, waiting up to {@code timeout}.
     *
     * @param name      the bean name, for logs
     * @param scheduler the scheduler
     * @param timeout   how long to wait for its jobs
     */
    public synchronized void manage(String name, DelayScheduler scheduler, Duration timeout) {
        schedulers.add(new Managed<>(name, scheduler, timeout));
    }

    @Override
    public void start() {
        running = true;
    }

    /**
     * Shuts down the schedulers, then releases the pools newest first, each waiting up to its timeout. Blocks until
     * all that is done; an interrupt stops the waiting (the pools are still released) and is kept.
     */
    @Override
    public void stop() {
        running = false;
        List<Managed<WorkerPool>> poolSnapshot;
        List<Managed<DelayScheduler>> schedulerSnapshot;
        synchronized (this) {
            poolSnapshot = new ArrayList<>(pools).reversed();
            schedulerSnapshot = new ArrayList<>(schedulers);
        }
        schedulerSnapshot.forEach(PoolkitLifecycle::stopScheduler);
        poolSnapshot.forEach(PoolkitLifecycle::stopPool);
    }

    private static void stopScheduler(Managed<DelayScheduler> managed) {
        DelayScheduler scheduler = managed.target;
        if (scheduler.isShutdown()) {
            return;
        }
        scheduler.shutdown();
        boolean finished;
        try {
            finished = scheduler.awaitTermination(managed.timeout.toNanos(), TimeUnit.NANOSECONDS);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            finished = false;
        }
        if (!finished) {
            logger.warn("Scheduler '" + managed.name + "' did not finish within " + managed.timeout + ": "
                    + scheduler.pending() + " one-shot jobs still pending; they run in the background");
        }
    }

    private static void stopPool(Managed<WorkerPool> managed) {
        WorkerPool pool = managed.target;
        if (pool.isClosed()) {
            return;
        }
        try {
            if (Thread.currentThread().isInterrupted()) {
                pool.release();
                warnUnfinished(managed, "stop was interrupted");
            }
            else {
                pool.releaseTimeout(managed.timeout);
            }
        }
        catch (TimeoutException ex) {
            warnUnfinished(managed, "it did not finish within " + managed.timeout);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            warnUnfinished(managed, "stop was interrupted");
        }
        catch (PoolClosedException ex) {
            // released by someone else in the meantime: nothing left for us to do
        }
    }

    private static void warnUnfinished(Managed<WorkerPool> managed, String why) {
        WorkerPool pool = managed.target;
        logger.warn("Pool '" + managed.name + "' released but " + why + ": " + pool.running()
                + " workers still running, " + pool.waiting() + " tasks waiting; they finish in the background");
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }

    /** A pool or scheduler with its bean name and shutdown timeout. */
    private record Managed<T>(String name, T target, Duration timeout) {
    }
}
