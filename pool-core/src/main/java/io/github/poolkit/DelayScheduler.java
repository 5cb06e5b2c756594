package io.github.poolkit;

import io.github.poolkit.internal.Durations;
import io.github.poolkit.internal.ResultCallable;
import io.github.poolkit.internal.schedule.JobTimer;
import io.github.poolkit.internal.schedule.ShutDown;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Runs delayed and periodic jobs on a bounded {@link WorkerPool}, with one timer thread for any number of timers:
 * heartbeats, timeouts and reminders for hundreds of thousands of connections cost one small object each, not a
 * thread. A {@link ScheduledExecutorService} with the JDK's documented semantics, plus {@link #scheduleOnce},
 * {@link #scheduleRepeating} and {@link #pending()}.
 *
 * <pre>{@code
 * DelayScheduler scheduler = DelayScheduler.create(4);
 * ScheduledFuture<?> timeout = scheduler.scheduleOnce(connection::expire, Duration.ofSeconds(30));
 * ScheduledFuture<?> heartbeat = scheduler.scheduleRepeating(connection::ping, Duration.ofSeconds(5));
 * timeout.cancel(false); // O(log n): the timer is gone from the pending set at once
 * }</pre>
 *
 * <p><b>Threads.</b> Jobs run on a {@link WorkerPool} of {@code workers} workers, made from the given options with an
 * unbounded FIFO queue ({@code queueCapacity(-1)}), so that handing a due job to the pool never blocks and never
 * fails: options that would block or reject ({@code nonblocking}, {@code maxBlockingTasks}, a bounded or absent queue,
 * {@code preAlloc}) are overridden; the pool's name, thread factory, expiry, panic handler and listener are used as
 * given, and so are {@code runTimeout}, {@code queueTimeout} and {@code interruptOverdue}, which watch each run of a
 * job (its wait counts from the moment it fell due and was handed to the pool), reported as the job's task. A busy
 * pool delays jobs (they wait in its queue, in the order they fell due) but never stalls scheduling or the timer.
 * The timer is one platform daemon thread named {@code <name>-timer}; being a daemon, it does not keep the JVM alive
 * on its own.
 *
 * <p><b>Timing.</b> Deadlines are {@link System#nanoTime()} based, so wall-clock changes do not matter, and a job never
 * starts before its delay has elapsed; it starts later by the timer's wake-up latency plus however long it waits for a
 * free worker. Due jobs are handed to the pool in the order of their deadlines, and jobs with the same deadline in the
 * order they were scheduled, as with {@link ScheduledThreadPoolExecutor}. A job with no delay ({@code execute},
 * {@code submit}, a delay {@code <= 0}) is due when it is scheduled: the scheduling thread hands it to the pool itself,
 * at once, unless a job that fell due earlier still waits for the timer; then it goes behind that job.
 * Delays and periods longer than about 146 years are capped to that.
 *
 * <p><b>Futures.</b> Every {@code schedule*} method returns a
 * {@link java.util.concurrent.RunnableScheduledFuture} (so {@code isPeriodic()} is available by a cast), and
 * {@code submit} returns the same kind of future. Cancelling a pending job removes it from the pending set before
 * {@code cancel} returns, in O(log n), and it never runs. As in the JDK, {@code cancel} also succeeds on a job that
 * has started but not finished (the run goes on, interrupted if asked, and a periodic job then stops), and returns
 * {@code false} once the job has completed.
 *
 * <p><b>Periodic jobs.</b> A periodic job never overlaps itself: its next run is scheduled only when the current run
 * ends. At a fixed rate, a run that falls behind is followed at once by the next one. A run that throws ends the job:
 * its future completes exceptionally and no further run happens.
 *
 * <p><b>Failures.</b> A job that throws completes its future exceptionally (its {@code get} throws an
 * {@link java.util.concurrent.ExecutionException}) <em>and</em> the failure reaches the pool's panic handler (by
 * default: logged), once; a checked exception from a {@link Callable} reaches the handler wrapped in a
 * {@link java.util.concurrent.CompletionException}. A failure of a job that was cancelled meanwhile is dropped. If the
 * pool cannot start a worker thread for a due job (its thread factory threw or returned null), a periodic job only
 * skips that run, logged (logger {@code io.github.poolkit}, ERROR), and keeps its schedule, also when that run is its
 * first with no initial delay; a one-shot job fails with that {@link RejectedExecutionException}: its future, logged
 * the same way, or, for a job with no delay (handed to the pool by the scheduling call), the scheduling call, which
 * throws it.
 *
 * <p><b>Context.</b> A {@link PoolOptions.Builder#taskDecorator task decorator} in the options wraps each job once,
 * when it is scheduled, on the scheduling thread (the worker pool itself gets none): a job carries the context of the
 * thread that scheduled it (MDC, tracing, security), and a repeating job runs the same decorated body every period.
 * Tasks given to {@code execute}/{@code submit} are decorated when they are submitted.
 *
 * <p><b>Shutdown.</b> After {@link #shutdown()}, scheduling throws {@link RejectedExecutionException}; pending one-shot
 * jobs still run when due; every periodic job pending, or due and waiting for a free worker, is cancelled before
 * {@code shutdown} returns, and one running then is cancelled as its current run ends (not interrupted; till then it is
 * not done), as with {@link ScheduledThreadPoolExecutor}'s default policies; so {@link #close()} returns once the last
 * one-shot job has run. A scheduler with no pending one-shot job and nothing running is terminated when
 * {@code shutdown} returns. {@link #shutdownNow()} cancels every pending and queued job and interrupts running ones.
 *
 * <p><b>Counting.</b> Each run of a job counts in {@link #stats()} as completed or failed before its future completes,
 * and the listener is told then. A task given to {@code invokeAll}/{@code invokeAny} is run inside a job of its own,
 * so one that throws counts as completed (the job returned) and its listener hears no failure; its future reports the
 * exception as usual. Use {@code submit} for tasks whose failures must be counted.
 *
 * <p><b>Blocking.</b> Only the futures' {@code get}, {@link #awaitTermination}, {@link #close()} and
 * {@code invokeAll}/{@code invokeAny} wait. Scheduling, {@code cancel} and {@link #pending()} never wait for a job or
 * for a worker: they take the timer's lock, which is only ever held for O(log n) heap work (a shutdown's sweep
 * excepted).
 *
 * <p><b>Memory consistency.</b> Actions in a thread before it schedules a job happen-before the job runs; each run of
 * a periodic job happens-before the next; the actions of a job happen-before a successful return from its future's
 * {@code get}, and before {@code isDone} returns {@code true} for a job that completed (a cancel makes the future
 * done at once, while a run it did not stop may still be going on).
 *
 * <p>Implementation overview: this class checks arguments, converts times to nanoseconds and owns the lifecycle
 * methods; the pending set and the timer thread are in {@link JobTimer} (which states the invariants and the lock
 * discipline), the heap in {@code TimerHeap}, and each job (future, heap entry and pool task
 * in one object, with its state machine) in {@code ScheduledJob}. This class holds no
 * mutable state of its own.
 */
public final class DelayScheduler extends PoolExecutorService implements ScheduledExecutorService {

    private final JobTimer timer;
    private final WorkerPool pool;

    private DelayScheduler(JobTimer timer, WorkerPool pool) {
        this.timer = timer;
        this.pool = pool;
    }

    /** The name used when the options carry the default pool name. */
    public static final String DEFAULT_NAME = "scheduler";

    /**
     * Creates a scheduler whose jobs run on {@code workers} platform worker threads, with the default options.
     *
     * @param workers how many jobs may run at once; at least 1
     * @return the scheduler, ready to accept jobs
     * @throws IllegalArgumentException if {@code workers <= 0}
     */
    public static DelayScheduler create(int workers) {
        return create(workers, PoolOptions.defaults());
    }

    /**
     * Creates a scheduler whose jobs run on a {@link WorkerPool} of {@code workers} workers made from {@code options}
     * (with an unbounded queue: see the class comment for the options that are overridden).
     *
     * @param workers how many jobs may run at once; at least 1
     * @param options the pool's options; {@code options.name()} also names the timer thread {@code <name>-timer}
     *                (the default name {@code pool} becomes {@value #DEFAULT_NAME})
     * @return the scheduler, ready to accept jobs
     * @throws IllegalArgumentException if {@code workers <= 0}, or the options are invalid for a {@link WorkerPool}
     * @throws InvalidOptionException   if the options set an {@code adaptiveCapacity}: a scheduler's workers are fixed
     * @throws NullPointerException     if {@code options} is null
     */
    public static DelayScheduler create(int workers, PoolOptions options) {
        Objects.requireNonNull(options, "options");
        if (workers <= 0) {
            throw new IllegalArgumentException("workers must be at least 1, was " + workers
                    + ": a DelayScheduler needs a worker to run its jobs");
        }
        if (options.adaptiveCapacity() != null) {
            throw new InvalidOptionException("adaptiveCapacity", options.adaptiveCapacity(),
                    "is not supported by a DelayScheduler", "its jobs run on the fixed number of workers given to"
                    + " create(workers, options); leave adaptiveCapacity unset");
        }
        // The default pool name would give threads that clash with a default-named WorkerPool's.
        String name = options.name().equals(PoolOptions.DEFAULT_NAME) ? DEFAULT_NAME : options.name();
        PoolOptions.Builder builder = options.toBuilder()
                .name(name)
                .queueCapacity(-1)
                .preAlloc(false)
                .taskDecorator(null); // jobs are decorated when scheduled, on the scheduling thread, not by the timer
        for (PoolOption<?> option : PoolOptions.OPTIONS) {
            if (option.live()) { // the rules of a caller that must wait: with an unbounded queue, none ever does
                option.set(builder, option.defaultValue());
            }
        }
        PoolOptions poolOptions = builder.build();
        WorkerPool pool = WorkerPool.create(workers, poolOptions);
        return new DelayScheduler(JobTimer.start(name, pool, options.taskDecorator()), pool);
    }

    /**
     * Runs {@code job} once, after {@code delay}; a delay {@code <= 0} hands it to the pool at once.
     *
     * @param job   what to run
     * @param delay how long to wait
     * @return the job's future; cancelling it removes the job at once
     * @throws NullPointerException       if an argument is null
     * @throws RejectedExecutionException if this scheduler is shut down
     */
    public ScheduledFuture<?> scheduleOnce(Runnable job, Duration delay) {
        Objects.requireNonNull(job, "job");
        return scheduled(job, Durations.toNanosSaturated(Objects.requireNonNull(delay, "delay")), 0L);
    }

    /**
     * Runs {@code job} every {@code period}, the first time after one period: the same as
     * {@code scheduleAtFixedRate(job, period, period, NANOSECONDS)}. A period {@code <= 0} runs the job once, at once.
     *
     * @param job    what to run
     * @param period the interval between the starts of two runs
     * @return the job's future, which completes only when the job is cancelled or throws (or, for a period
     *         {@code <= 0}, when its one run ends)
     * @throws NullPointerException       if an argument is null
     * @throws RejectedExecutionException if this scheduler is shut down
     */
    public ScheduledFuture<?> scheduleRepeating(Runnable job, Duration period) {
        Objects.requireNonNull(job, "job");
        long nanos = Durations.toNanosSaturated(Objects.requireNonNull(period, "period"));
        if (nanos <= 0L) {
            return scheduled(job, 0L, 0L);
        }
        return scheduled(job, nanos, Math.min(nanos, JobTimer.MAX_DELAY_NANOS));
    }

    /**
     * The jobs whose time has not yet come: scheduled with a positive delay and not yet handed to the pool, plus the
     * periodic jobs waiting for their next run (and, for a moment, a job with no delay that waits for the timer to hand
     * over jobs that fell due before it). A job counts as soon as {@code schedule*} returns and stops counting as
     * soon as it is handed to the pool or its {@code cancel} returns. Exact when read (it takes the timer's lock
     * briefly).
     *
     * @return the number of pending jobs
     */
    public int pending() {
        return timer.pending();
    }

    /** {@return the scheduler's name: the name given in the options, or {@link #DEFAULT_NAME}} */
    public String name() {
        return pool.name();
    }

    /**
     * Adds a listener to the worker pool that runs the jobs, beside the one in the options, as
     * {@link Pool#addListener} does for a pool: from the call on, it is told of each run of a job handed to the pool
     * after the call ({@link PoolListener#taskFinished}: its wait counts from the moment it fell due), of each run the
     * pool refuses, and of each overdue run found after the call ({@code runTimeout}, {@code queueTimeout}).
     *
     * @param listener the listener; must be fast (see {@link PoolListener})
     * @throws NullPointerException if {@code listener} is null
     */
    public void addListener(PoolListener listener) {
        pool.addListener(listener);
    }

    /**
     * Reads the figures of the worker pool that runs the jobs, in one snapshot: {@code capacity} is the number of
     * workers, {@code running} and {@code busy} its worker threads alive and running a job, {@code queued} the jobs
     * whose time has come and that wait for a free worker (a job cancelled while waiting there counts until a worker
     * skips it, and is then not counted), {@code blocked} is always 0 (handing a job to the pool never
     * blocks), and the counters count runs: each run of a periodic job is one task, counted before the run completes
     * its future (so a {@code stats()} read after {@code get()} returns sees it). Jobs whose time has not yet come
     * are not in it: they are {@link #pending()}. {@code rejected} also counts the jobs refused because the scheduler
     * was shut down (and the listener hears of them, as of the pool's own refusals).
     *
     * @return a snapshot of the worker pool's figures; {@code closed} is true once the scheduler is shut down
     */
    public PoolStats stats() {
        PoolStats s = pool.stats();
        return s.closed() || !isShutdown() ? s : new PoolStats(s.capacity(), s.running(), s.busy(), s.queued(),
                s.blocked(), s.completed(), s.failed(), s.rejected(), true, s.overdue());
    }

    /**
     * Runs {@code command} once after {@code delay}; a delay {@code <= 0} hands it to the pool at once.
     *
     * @throws NullPointerException       if {@code command} or {@code unit} is null
     * @throws RejectedExecutionException if this scheduler is shut down
     */
    @Override
    public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
        Objects.requireNonNull(command, "command");
        return scheduled(command, Objects.requireNonNull(unit, "unit").toNanos(delay), 0L);
    }

    /**
     * Calls {@code callable} once after {@code delay}; a delay {@code <= 0} hands it to the pool at once. Its result
     * is the future's.
     *
     * @throws NullPointerException       if {@code callable} or {@code unit} is null
     * @throws RejectedExecutionException if this scheduler is shut down
     */
    @Override
    public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
        Objects.requireNonNull(callable, "callable");
        try {
            return timer.schedule(callable, Objects.requireNonNull(unit, "unit").toNanos(delay));
        } catch (ShutDown e) {
            throw refused(e);
        }
    }

    /**
     * Runs {@code command} after {@code initialDelay}, then every {@code period} measured from the previous run's
     * scheduled start. Runs never overlap: a run that ends late is followed at once by the next.
     *
     * @throws NullPointerException       if {@code command} or {@code unit} is null
     * @throws IllegalArgumentException   if {@code period <= 0}
     * @throws RejectedExecutionException if this scheduler is shut down
     */
    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
        return schedulePeriodic(command, initialDelay, period, unit, "period", 1L);
    }

    /**
     * Runs {@code command} after {@code initialDelay}, then again {@code delay} after the end of each run.
     *
     * @throws NullPointerException       if {@code command} or {@code unit} is null
     * @throws IllegalArgumentException   if {@code delay <= 0}
     * @throws RejectedExecutionException if this scheduler is shut down
     */
    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
        return schedulePeriodic(command, initialDelay, delay, unit, "delay", -1L);
    }

    /**
     * Runs {@code command} on the pool as soon as a worker is free: {@code schedule(command, 0, NANOSECONDS)}. Never
     * blocks. If the command throws, the pool's panic handler gets the exception.
     *
     * @throws NullPointerException       if {@code command} is null
     * @throws RejectedExecutionException if this scheduler is shut down
     */
    @Override
    public void execute(Runnable command) {
        schedule(command, 0L, TimeUnit.NANOSECONDS);
    }

    /**
     * {@code schedule(task, 0, NANOSECONDS)}.
     *
     * @throws NullPointerException       if {@code task} is null
     * @throws RejectedExecutionException if this scheduler is shut down
     */
    @Override
    public Future<?> submit(Runnable task) {
        return schedule(task, 0L, TimeUnit.NANOSECONDS);
    }

    /**
     * {@code schedule(Executors.callable(task, result), 0, NANOSECONDS)}.
     *
     * @throws NullPointerException       if {@code task} is null
     * @throws RejectedExecutionException if this scheduler is shut down
     */
    @Override
    public <T> Future<T> submit(Runnable task, T result) {
        return schedule(new ResultCallable<>(task, result), 0L, TimeUnit.NANOSECONDS);
    }

    /**
     * {@code schedule(task, 0, NANOSECONDS)}.
     *
     * @throws NullPointerException       if {@code task} is null
     * @throws RejectedExecutionException if this scheduler is shut down
     */
    @Override
    public <T> Future<T> submit(Callable<T> task) {
        return schedule(task, 0L, TimeUnit.NANOSECONDS);
    }

    /**
     * Stops accepting jobs and cancels every periodic job pending, or due and waiting for a free worker, before
     * returning (its {@code get} then throws {@link java.util.concurrent.CancellationException}); a periodic job
     * running then finishes its run, uninterrupted, and is cancelled as it ends (not done till then). Pending one-shot
     * jobs still run when due; the timer thread exits after the last one, then the pool is released and drains its
     * queue. With no one-shot job pending, the pool is released before this returns, so a scheduler with nothing
     * running is then already terminated, also right after its last job's {@code get()} returned while the worker that
     * ran it was still finishing (see {@link WorkerPool#release()}). Does not wait for any job (see
     * {@link #awaitTermination} and {@link #close()}). A later call cancels nothing more, but once the one-shot jobs
     * pending or running at the first have been seen done, and a periodic job running at the first has been seen
     * cancelled as that run ended, it too returns the scheduler terminated.
     */
    @Override
    public void shutdown() {
        timer.shutdown();
    }

    /**
     * Stops accepting jobs, cancels every pending job and every job waiting in the pool's queue, and interrupts the
     * running ones (a running periodic job is cancelled when its run ends). Does not wait. A job that this cancels
     * and whose task is itself a future (one of {@code invokeAll}'s or {@code invokeAny}'s tasks, or a future given to
     * {@code execute}) cancels that future too, so no caller waits forever for a task that will never run (unlike
     * {@code ScheduledThreadPoolExecutor}, whose {@code invokeAll} then never returns).
     *
     * @return the cancelled jobs that never started (each is its own, now cancelled, {@link ScheduledFuture}): the
     *         pending ones (with any due job the timer had not yet handed to the pool, or was handing over but that
     *         had not started), then those taken from the pool's queue; each once. Every job accepted before this call
     *         is either in this list or run (or running), never both, but for one case: a periodic job that a worker
     *         had just taken from the queue but not started is cancelled by that worker instead, unrun and not
     *         listed (as {@code ScheduledThreadPoolExecutor} does); a one-shot job in that place still runs
     */
    @Override
    public List<Runnable> shutdownNow() {
        return timer.shutdownNow();
    }

    /** {@return whether {@link #shutdown()} or {@link #shutdownNow()} has been called} */
    @Override
    public boolean isShutdown() {
        return timer.isShutdown();
    }

    /** {@return whether shut down, the timer has finished and every job that was going to run has finished} */
    @Override
    public boolean isTerminated() {
        return timer.isTerminated();
    }

    /**
     * Blocks, interruptibly, until terminated after a shutdown, or the timeout elapses.
     *
     * @return whether terminated
     * @throws InterruptedException if interrupted while waiting
     */
    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        return timer.awaitTermination(timeout, Objects.requireNonNull(unit, "unit"));
    }

    /** As {@link #execute(Runnable)}, which never waits: {@code invokeAll} and {@code invokeAny} go through it. */
    @Override
    void execute(Runnable task, long timeoutNanos) {
        execute(task);
    }

    @Override
    public String toString() {
        return "DelayScheduler[" + timer + "]";
    }

    private ScheduledFuture<?> schedulePeriodic(Runnable command, long initialDelay, long period, TimeUnit unit,
                                                String what, long sign) {
        Objects.requireNonNull(command, "command");
        Objects.requireNonNull(unit, "unit");
        if (period <= 0L) {
            throw new IllegalArgumentException(what + " must be positive, was " + period + " " + unit
                    + "; use schedule(...) for a single run");
        }
        long periodNanos = Math.min(unit.toNanos(period), JobTimer.MAX_DELAY_NANOS);
        return scheduled(command, unit.toNanos(initialDelay), sign * periodNanos);
    }

    /** Schedules a job on the timer (see {@link JobTimer#schedule(Runnable, long, long)}), counting a refusal. */
    private ScheduledFuture<?> scheduled(Runnable job, long delayNanos, long period) {
        try {
            return timer.schedule(job, delayNanos, period);
        } catch (ShutDown e) {
            throw refused(e);
        }
    }

    /** A job refused because this scheduler is shut down: counted and told as the pool counts and tells its own. */
    private RejectedExecutionException refused(RejectedExecutionException e) {
        pool.refused(e);
        return e;
    }
}
