package io.github.poolkit.internal.pool;

import java.lang.ref.WeakReference;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Starts the threads of a pool's reserved workers (lock not held), and deals with a thread that cannot be started
 * (the thread factory threw or returned null, or {@code Thread.start} failed): the worker is retired, and the one
 * who asked for it hears of it: a caller whose task it was to run gets a {@link RejectedExecutionException} (the
 * task was not accepted); for a worker the pool wanted for queued work, the panic handler does.
 *
 * <p><b>Retry.</b> Tasks left queued with no worker counted to take them would otherwise wait for the next
 * {@code execute}, and in a closed pool for ever: {@code close()} would never return, even once threads can be made
 * again. So a failed start for queued work that leaves no worker schedules a retry: the first
 * {@link #FIRST_RETRY_NANOS} later, each that fails again doubling the wait up to {@link #MAX_RETRY_NANOS}; a failure
 * long after the last retry starts from the first wait again. Each failed start is still reported, so a factory that
 * keeps failing is heard of at most every {@code MAX_RETRY_NANOS} once the wait has grown. Retries run on one shared
 * daemon thread ({@code poolkit-restart}, made at the first such failure) and hold the pool only weakly.
 * ({@code ThreadPoolExecutor} has no such retry.)
 *
 * <p>Invariant: at most one retry per pool is pending ({@link #pending}). Only the thread that set {@code pending}
 * touches {@link #failures} and {@link #lastRetry}; the retry clears {@code pending} before it tries, so that its own
 * failure schedules the next one. A schedule that throws (the timer could not make its thread) clears it too, so the
 * next failed start schedules again; the retry it may have left in the timer's queue runs once the timer has a thread,
 * a second one then, which is harmless (a retry only reserves, under the lock, a worker the queue needs).
 */
final class WorkerLaunch {

    /** The wait before the first retry. */
    static final long FIRST_RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /** The longest wait between two retries. */
    static final long MAX_RETRY_NANOS = TimeUnit.SECONDS.toNanos(10);

    /** Who a worker is launched for: a failure to start its thread goes to the caller, or to the panic handler. */
    private enum Requester { CALLER, POOL }

    private static final class Timer {
        static final ScheduledThreadPoolExecutor INSTANCE = WeakPeriodic.timer("poolkit-restart");
    }

    private final PoolCore pool;
    private final WorkerThreads threads;
    private final TaskRunner runner;
    private final AtomicBoolean pending = new AtomicBoolean();
    /** Retries in a row so far; see the invariant. */
    private int failures;
    /** When the last retry was due ({@link System#nanoTime()}); see the invariant. */
    private long lastRetry;

    WorkerLaunch(PoolCore pool, WorkerThreads threads, TaskRunner runner) {
        this.pool = pool;
        this.threads = threads;
        this.runner = runner;
    }

    /**
     * Starts the thread of a worker reserved for a caller's task.
     *
     * @throws RejectedExecutionException if the thread cannot be started; the worker was retired
     */
    void forCaller(Worker w) {
        launch(w, Requester.CALLER);
    }

    /**
     * Starts the thread of a worker the pool reserved for itself, for queued work, unless a close that found nothing
     * queued has retired it meanwhile ({@link Worker#takeOutIfDone}): it needs no thread then.
     */
    void forPool(Worker w) {
        if (!w.isTakenOut()) {
            launch(w, Requester.POOL);
        }
    }

    private void launch(Worker w, Requester requester) {
        try {
            threads.start(w);
        } catch (Throwable e) {
            Worker replacement;
            pool.lock.lock();
            try {
                w.firstTask = null;
                if (!w.retired) { // a close may have taken out a worker started for the queue (Worker#takeOutIfDone)
                    pool.retire(w);
                }
                // Tasks may have been queued behind this worker while it was counted; keep them moving.
                replacement = requester == Requester.CALLER ? pool.reserveForQueue() : null;
            } finally {
                pool.lock.unlock();
            }
            if (replacement != null) {
                launch(replacement, Requester.POOL);
            }
            RejectedExecutionException r = new RejectedExecutionException("pool '" + pool.name()
                    + "' could not start a worker thread: " + e, e);
            if (requester == Requester.CALLER) {
                throw r;
            }
            runner.panic(r);
            retryIfStranded();
        }
    }

    /** After a start for queued work failed: schedules a retry if tasks are queued and no worker is counted. */
    private void retryIfStranded() {
        if (pool.queuedCount() == 0 || pool.running.get() != 0 || !pending.compareAndSet(false, true)) {
            return;
        }
        long now = System.nanoTime();
        if (now - lastRetry > 2 * MAX_RETRY_NANOS) {
            failures = 0; // a new episode
        }
        long delay = Math.min(MAX_RETRY_NANOS, FIRST_RETRY_NANOS << Math.min(failures, 16));
        failures++;
        lastRetry = now + delay;
        WeakReference<PoolCore> weak = new WeakReference<>(pool);
        try {
            Timer.INSTANCE.schedule(() -> retry(weak), delay, TimeUnit.NANOSECONDS);
        } catch (Throwable e) {
            // The timer could not make its thread (the reason the worker's start failed, most likely): nothing is
            // pending, so the next failed start schedules again; the failure goes where the failed start went.
            pending.set(false);
            runner.panic(new RejectedExecutionException("pool '" + pool.name()
                    + "' could not schedule a retry of its worker start: " + e, e));
        }
    }

    /** On the retry thread: holds the pool only weakly (this object and the lambda hold no strong reference to it). */
    private static void retry(WeakReference<PoolCore> weak) {
        PoolCore p = weak.get();
        if (p != null) {
            p.launch.pending.set(false); // from here, a failure schedules the next retry
            p.startWorkerForQueue(); // nothing if the queue is empty or the pool full
        }
    }
}
