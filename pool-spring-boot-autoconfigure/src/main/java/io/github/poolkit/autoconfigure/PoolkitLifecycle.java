package io.github.poolkit.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.context.SmartLifecycle;

import io.github.poolkit.DelayScheduler;
import io.github.poolkit.WorkerPool;

/**
 * Shuts down the pools and the scheduler that poolkit's auto-configuration created when the application context
 * closes, all within one deadline: first every one of them stops accepting tasks at once (a pool is released, the
 * scheduler shut down: its pending periodic jobs are cancelled, its pending one-shot jobs still run when due), then all
 * drain in parallel, each on its own workers, while this lifecycle waits for them against a single deadline: the
 * longest {@code shutdown-timeout} configured. The whole shutdown therefore takes at most that long, not the sum of
 * the timeouts. Whatever has not finished by then is logged at WARN, per pool, with what is left (tasks running and
 * waiting), and goes on in the background: no accepted task is dropped.
 *
 * <p>The phase, {@link #PHASE}, is below those of Spring Boot's web server (graceful shutdown at
 * {@code DEFAULT_PHASE - 1024}, server stop at {@code DEFAULT_PHASE - 2048}); lifecycles stop from the highest phase
 * down, so requests in flight, which may still submit tasks, are drained by the web server before any pool stops
 * accepting.
 *
 * <p>Since the scheduler and the pools stop accepting together, a scheduler job that runs during the shutdown and
 * submits to a poolkit pool gets {@code PoolClosedException}.
 *
 * <p>Implementation overview: {@link #manage} may be called from any thread (lazy beans are created late), so the
 * list is guarded by {@code this}; {@link #stop()} takes a snapshot under the lock and stops outside it, so a slow
 * pool never blocks registration. {@code running} is volatile: {@link #isRunning()} is a racy read, harmless because
 * the lifecycle processor calls start and stop from one thread.
 */
public class PoolkitLifecycle implements SmartLifecycle {

    /** The phase of this lifecycle: stopped after the web server has drained its requests and stopped. */
    public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 4096;

    private static final Log logger = LogFactory.getLog(PoolkitLifecycle.class);

    private final List<Managed> managed = new ArrayList<>();
    private volatile boolean running;

    /** Creates a lifecycle that manages nothing yet. */
    public PoolkitLifecycle() {
    }

    /**
     * Stops {@code pool} on {@link #stop()}; its tasks may take up to {@code timeout}.
     *
     * @param name    the bean name, for logs
     * @param pool    the pool
     * @param timeout how long its tasks may take to finish; the longest of all timeouts bounds the whole shutdown
     */
    public void manage(String name, WorkerPool pool, Duration timeout) {
        add(new Managed("Pool", name, pool, timeout,
                () -> pool.running() + " workers still running, " + pool.waiting() + " tasks waiting"));
    }

    /**
     * Stops {@code scheduler} on {@link #stop()}; its jobs may take up to {@code timeout}.
     *
     * @param name      the bean name, for logs
     * @param scheduler the scheduler
     * @param timeout   how long its due and running jobs may take; the longest of all timeouts bounds the shutdown
     */
    public void manage(String name, DelayScheduler scheduler, Duration timeout) {
        add(new Managed("Scheduler", name, scheduler, timeout,
                () -> scheduler.pending() + " one-shot jobs still pending, " + scheduler.stats().busy()
                        + " jobs running, " + scheduler.stats().queued() + " due jobs queued"));
    }

    private synchronized void add(Managed entry) {
        managed.add(entry);
    }

    @Override
    public void start() {
        running = true;
    }

    /**
     * Stops every managed pool and scheduler from accepting tasks, then waits for all of them until the longest
     * timeout has elapsed from the start of the call, and logs what is left of each that has not finished. An
     * interrupt ends the waiting early (everything is still stopped) and is kept.
     */
    @Override
    public void stop() {
        running = false;
        List<Managed> snapshot;
        synchronized (this) {
            snapshot = new ArrayList<>(managed);
        }
        // Invariant: every target stops accepting before any waiting starts, so no pool keeps taking work while
        // another drains.
        List<Managed> stopped = snapshot.stream().filter(entry -> !entry.target.isShutdown()).toList();
        stopped.forEach(entry -> entry.target.shutdown());
        Duration longest = stopped.stream().map(Managed::timeout).max(Comparator.naturalOrder())
                .orElse(Duration.ZERO);
        long deadline = System.nanoTime() + longest.toNanos();
        for (Managed entry : stopped) {
            if (!awaitUntil(entry.target, deadline)) {
                logger.warn(entry.kind + " '" + entry.name + "' did not finish within the shutdown deadline of "
                        + longest + ": " + entry.leftover.get() + "; they finish in the background");
            }
        }
    }

    /** @return whether {@code target} terminated by {@code deadline} ({@link System#nanoTime()}) */
    private static boolean awaitUntil(ExecutorService target, long deadline) {
        try {
            return !Thread.currentThread().isInterrupted()
                    && target.awaitTermination(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }

    /** A pool or scheduler with its bean name, its timeout and a description of what is left of its work. */
    private record Managed(String kind, String name, ExecutorService target, Duration timeout,
            Supplier<String> leftover) {
    }
}
