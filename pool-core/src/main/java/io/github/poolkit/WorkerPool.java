package io.github.poolkit;

import io.github.poolkit.internal.pool.PoolEngine;
import io.github.poolkit.internal.DecoratedTask;
import io.github.poolkit.internal.SubmittedTask;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.UnaryOperator;

/**
 * A pool of at most {@code capacity} worker threads that run submitted tasks: the Java counterpart of ants'
 * {@code Pool}, and a full {@link java.util.concurrent.ExecutorService}.
 *
 * <p>{@link #execute} hands a task to an idle worker, else starts a new worker while {@code running() < capacity()},
 * else puts it in the queue if one is configured ({@link PoolOptions.Builder#queueCapacity}) and has room, else fails
 * fast with {@link PoolOverloadException} ({@code nonblocking}, or {@code maxBlockingTasks} callers already blocked) or
 * blocks the caller until a worker frees up, at most {@code maxWait} ({@link PoolOptions.Builder#maxWait}; then
 * {@link PoolOverloadException}, and the task never runs). Blocked callers form a FIFO line: a worker that finishes
 * takes the task of the caller first in line (to run it next, or into the queue slot it just freed) and wakes that
 * caller, so blocked callers are served in arrival order. Idle workers are reused most-recently-used first and stopped
 * after {@code expiry} without work. The capacity can be changed at run time with {@link #tune}, and the waiting rules
 * with {@link #reconfigure}; {@link #stats()} counts completed, failed and refused tasks.
 *
 * <p>With {@link PoolOptions.Builder#virtualThreads virtualThreads(true)} workers are not pooled: each accepted task
 * runs on a fresh virtual thread of its own, which ends with it (a queued task, or a blocked caller's, starts its own
 * when a slot frees), and the capacity bounds the tasks in flight; every other rule is the same.
 *
 * <pre>{@code
 * try (WorkerPool pool = WorkerPool.create(8, PoolOptions.builder().name("io").build())) {
 *     pool.execute(() -> handle(request));        // blocks while all 8 workers are busy
 *     Future<Report> f = pool.submit(() -> buildReport());
 * }                                               // close(): waits for running tasks
 * }</pre>
 *
 * <p>Errors: {@link PoolClosedException} on a released pool (also for callers blocked when it is released);
 * {@link PoolOverloadException} when the pool may not block; a {@link RejectedExecutionException} whose cause is an
 * {@link InterruptedException} when a blocked caller is interrupted (its interrupt status is kept); a
 * {@link NullPointerException} for a null task. Nothing else escapes {@code execute}: an exception thrown by a task
 * goes to the panic handler ({@link PoolOptions.Builder#panicHandler}), and the worker carries on. Tasks submitted with
 * {@link #submit} report their exceptions through the returned {@link java.util.concurrent.Future} instead, and count
 * as failed in {@link #stats()} before that future completes.
 *
 * <p>A task that submits to its own full, blocking pool waits for a worker that may never come (ants #197): give such
 * pools a queue, make them {@code nonblocking}, or leave the capacity unlimited.
 *
 * <p>Memory consistency effects: actions in a thread before it submits a task to the pool happen-before the task
 * begins to run; actions of a task happen-before {@code awaitTermination} returns {@code true} and, for
 * {@code submit}, before the result is retrieved with {@code Future.get()}.
 *
 * <p>All methods are thread-safe. The metric methods ({@link #running()}, {@link #free()}, {@link #waiting()}) read
 * without locking and return a snapshot that may already be stale.
 */
public final class WorkerPool extends PoolExecutorService implements Pool {

    private final PoolEngine engine;
    private final UnaryOperator<Runnable> decorator;

    private WorkerPool(int capacity, PoolOptions options) {
        Objects.requireNonNull(options, "options").validate(capacity);
        this.engine = new PoolEngine(capacity, options, PoolEngine.RUNNABLES);
        this.decorator = options.taskDecorator();
    }

    /**
     * Creates a pool with the default options.
     *
     * @param capacity the most workers; {@code <= 0} means unlimited
     * @return an open pool with no workers started yet
     */
    public static WorkerPool create(int capacity) {
        return create(capacity, PoolOptions.defaults());
    }

    /**
     * Creates a pool.
     *
     * @param capacity the most workers; {@code <= 0} means unlimited
     * @param options  the options, checked together here ({@link PoolOptions#validate(int)})
     * @return an open pool with no workers started yet
     * @throws InvalidOptionException if an option is invalid (it names the option, the value and the fix)
     */
    public static WorkerPool create(int capacity, PoolOptions options) {
        return new WorkerPool(capacity, options);
    }

    /**
     * Runs the task on a worker (ants' {@code Submit}). May block: see the class description.
     *
     * @param task the task
     * @throws NullPointerException       if the task is null
     * @throws PoolClosedException        if the pool is closed, or is released while the caller is blocked
     * @throws PoolOverloadException      if the pool cannot take the task now and may not block
     * @throws RejectedExecutionException if the caller is interrupted while blocked (cause
     *                                    {@link InterruptedException}, interrupt status set), or no worker thread
     *                                    could be started
     */
    @Override
    public void execute(Runnable task) {
        engine.execute(decorate(task));
    }

    @Override
    void execute(Runnable task, long timeoutNanos) {
        engine.execute(decorate(task), timeoutNanos);
    }

    /**
     * As {@link #execute(Runnable, long)}, for a task {@link #decorate} has decorated already, submitted at
     * {@code submittedNanos}: a second try, whose wait counts from the first.
     */
    void executeDecorated(Runnable decorated, long timeoutNanos, long submittedNanos) {
        engine.executeSince(decorated, timeoutNanos, submittedNanos);
    }

    /**
     * As {@link #executeDecorated}, as a first try that another pool may make good: an overload is not reported to the
     * listeners nor counted here ({@link #refused} reports it if it stands).
     */
    void tryDecorated(Runnable decorated, long timeoutNanos) {
        engine.tryExecute(decorated, timeoutNanos);
    }

    /**
     * Decorates a task; a future of {@code submit} is decorated in place, so the workers still see and count it, and
     * any other task is kept with its decoration, so that an overdue report still names the task itself.
     */
    Runnable decorate(Runnable task) {
        Objects.requireNonNull(task, "task");
        if (decorator == null) {
            return task;
        }
        return task instanceof SubmittedTask<?> future ? future.decorate(decorator)
                : new DecoratedTask(decorator.apply(task), task);
    }

    @Override
    public int capacity() {
        return engine.capacity();
    }

    @Override
    public int running() {
        return engine.running();
    }

    @Override
    public int free() {
        return engine.free();
    }

    @Override
    public int waiting() {
        return engine.waiting();
    }

    @Override
    public String name() {
        return engine.name();
    }

    @Override
    public PoolStats stats() {
        return engine.stats();
    }

    @Override
    public PoolOptions options() {
        return engine.options();
    }

    @Override
    public void reconfigure(PoolOptions options) {
        engine.reconfigure(Objects.requireNonNull(options, "options"));
    }

    /** {@inheritDoc} Growing also starts workers for queued tasks at once. */
    @Override
    public void tune(int capacity) {
        engine.tune(capacity);
    }

    /**
     * Counts a task refused on this pool's behalf, and tells the listeners: by a {@link DelayScheduler} that was shut
     * down, or by a {@link MultiPool} (closed, or when its retry on another pool did not make a refusal good).
     */
    void refused(RuntimeException reason) {
        engine.rejected(reason);
    }

    /** {@return workers idle now, waiting for a task (a snapshot; for {@link MultiPool}'s choice of a pool)} */
    int idleWorkers() {
        return engine.idleWorkers();
    }

    @Override
    public void addListener(PoolListener listener) {
        engine.addListener(listener);
    }

    @Override
    public boolean isClosed() {
        return engine.isClosed();
    }

    /**
     * {@inheritDoc} Same as {@link #shutdown()}. When the last task was submitted ({@code submit}, {@code invokeAll},
     * {@code invokeAny}) and its future was seen done, not cancelled (a future cancelled while its task runs, as
     * {@code invokeAny} and a timed {@code invokeAll} cancel the tasks they no longer need, is done before its task
     * has ended), the pool is terminated when this returns, although the worker
     * that completed the future is still on its way out: such a worker, holding no task, is retired on its behalf,
     * or, already looking for its next task, waited for (microseconds; at most 100 ms; not at all while a task runs
     * or is queued). This holds for a second call too, made after a task that was running at the first one has
     * ended. A task given to {@code execute} counts as running until its worker has left it; so does code that runs
     * after a future completes (a task decorator's own code around the task, an adaptive capacity's sample). A pool
     * closed while its last future completes is not terminated before that future is done (the close waits for it
     * as above), so once {@link #awaitTermination} returns {@code true} every future of the tasks it ran is done.
     */
    @Override
    public void release() {
        engine.release();
    }

    @Override
    public void releaseTimeout(Duration timeout) throws TimeoutException, InterruptedException {
        engine.releaseTimeout(Objects.requireNonNull(timeout, "timeout"));
    }

    /**
     * {@inheritDoc} {@link #isShutdown()} and {@link #isTerminated()} are then false again; workers still finishing
     * from before the release are reused.
     */
    @Override
    public void reboot() {
        engine.reboot();
    }

    /** Same as {@link #release()}. */
    @Override
    public void shutdown() {
        engine.release();
    }

    /**
     * Closes the pool, interrupts running tasks and returns the queued ones, which will not run.
     *
     * @return the tasks that were waiting in the queue, in queue order, as they were submitted (without the task
     *         decorator's wrapping; a future of {@code submit} is the future itself)
     */
    @Override
    public List<Runnable> shutdownNow() {
        return engine.shutdownNow().stream().map(DecoratedTask::submitted).toList();
    }

    @Override
    public boolean isShutdown() {
        return engine.isClosed();
    }

    /**
     * {@inheritDoc} Also false while accepted tasks wait in the queue with no worker to run them (the thread factory
     * failed to start one): the pool retries the start on its own (see {@link Pool#releaseTimeout}), and
     * {@link #shutdownNow()} hands them back, as {@code ThreadPoolExecutor} does.
     */
    @Override
    public boolean isTerminated() {
        return engine.isTerminated();
    }

    /**
     * Blocks until the pool is terminated ({@link #isTerminated()}: closed, every worker retired, nothing left queued),
     * the timeout passes, or the caller is interrupted.
     */
    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        return engine.awaitTermination(timeout, unit);
    }

    /**
     * Releases the pool and waits until its running and queued tasks have finished, as
     * {@link java.util.concurrent.ExecutorService#close()} does: if interrupted while waiting, stops the pool with
     * {@link #shutdownNow()}, keeps waiting, and returns with the interrupt status set.
     */
    @Override
    public void close() {
        engine.closeAndAwait();
    }

    @Override
    public String toString() {
        return engine.toString();
    }
}
