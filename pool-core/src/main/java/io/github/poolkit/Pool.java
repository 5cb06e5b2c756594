package io.github.poolkit;

import java.time.Duration;
import java.util.concurrent.TimeoutException;

/**
 * What every pool kind shares ({@link WorkerPool}, {@link FuncPool}, {@link MultiPool}), so that tools such as a
 * metrics exporter, a health check or an admin endpoint can treat them alike.
 *
 * <p>All methods are thread-safe. The metric methods ({@link #running()}, {@link #free()}, {@link #waiting()}) read
 * without locking and return a snapshot that may already be stale; {@link #stats()} takes the pool's lock briefly.
 */
public interface Pool extends AutoCloseable {

    /** {@return the pool's name ({@link PoolOptions#name()}), used in thread names, logs and metrics} */
    String name();

    /** {@return the most workers (or, for a {@link MultiPool}, their sum), or -1 when unlimited} */
    int capacity();

    /**
     * Returns the workers alive.
     *
     * @return the workers alive: busy, or idle and not yet purged; a worker counts from the moment the pool decides
     *         to start it until its thread leaves the pool (with unpooled virtual threads: the tasks in flight)
     */
    int running();

    /** {@return {@code max(0, capacity() - running())}, or -1 when unlimited} */
    int free();

    /** {@return callers blocked in {@code execute}/{@code invoke} plus tasks in the queue} */
    int waiting();

    /**
     * Reads every figure of the pool at once, for a metrics scrape or a health check.
     *
     * @return a snapshot, read under the pool's lock for a moment (a scrape waits for it like a caller would); its
     *         fields may not add up exactly under load, but each is a value the pool really had during the call
     */
    PoolStats stats();

    /**
     * Changes the capacity at run time. No-op when the pool is unlimited, when {@code capacity <= 0}, or with
     * {@code preAlloc}. Growing wakes blocked callers at once; shrinking stops surplus idle workers at once and busy
     * ones as they finish their task. Never blocks. For a {@link MultiPool} the value is the capacity of each pool.
     *
     * @param capacity the new capacity
     */
    void tune(int capacity);

    /**
     * Returns the options in force: those the pool was created with, as changed since by {@link #reconfigure}.
     * poolkit's pools all answer; a pool of another kind need not (the default throws), and tools then do without.
     *
     * @return the current options
     * @throws UnsupportedOperationException if this pool does not expose its options (the default)
     */
    default PoolOptions options() {
        throw new UnsupportedOperationException("pool '" + name() + "' (" + getClass().getName()
                + ") does not expose its options: implement Pool.options() to expose them");
    }

    /**
     * Changes, at run time, the options that can change live: {@code maxWait}, {@code maxBlockingTasks} and
     * {@code nonblocking}. They apply to callers that arrive after the call; callers already blocked keep waiting
     * under the rules they entered with (a shorter {@code maxWait} does not cut their wait short). Typical use:
     * {@code pool.reconfigure(pool.options().toBuilder().maxWait(Duration.ofMillis(200)).build())}.
     *
     * @param options the new options; every other option must equal the current one
     * @throws InvalidOptionException        if an option is invalid, or differs from the current value but cannot
     *                                       change while the pool runs (the exception names it; a restart is needed);
     *                                       nothing is changed then
     * @throws UnsupportedOperationException if this pool cannot change its options while it runs (the default;
     *                                       poolkit's pools all can)
     */
    default void reconfigure(PoolOptions options) {
        throw new UnsupportedOperationException("pool '" + name() + "' (" + getClass().getName()
                + ") cannot change its options while it runs: implement Pool.reconfigure(PoolOptions) to allow it");
    }

    /**
     * Adds a listener to the running pool, beside the one in its options (which stays as it is:
     * {@code options().listener()} does not change). For tools that find a pool already built, such as a metrics
     * binder or a framework's overdue-task log.
     *
     * <p>From the call on, the listener is told, after the listeners the pool already has, in the order they were
     * added: {@link PoolListener#taskFinished} for each task accepted after the call returns (a task accepted before
     * is never reported to it: the pool took no acceptance time for it that this listener could be given, and a
     * partial wait would be a false figure), {@link PoolListener#taskRejected} for each refusal, and
     * {@link PoolListener#taskOverdue} for each overdue task found after the call, whenever it was accepted. Calls
     * are made on the same threads as those of the options' listener, and a listener that throws is logged while the
     * others are still told. Adding several listeners, or one twice, tells each every time. A listener cannot be
     * removed; it lives as long as the pool.
     *
     * <p>Cost: a pool that never gets a listener pays nothing for this; one with a listener pays what a listener in
     * its options costs (one small allocation per task to carry its acceptance time), however many are added.
     *
     * <p>This default throws, so that a {@code Pool} written by an application still compiles; poolkit's own pools
     * implement it ({@link MultiPool}: every pool it spreads tasks over).
     *
     * @param listener the listener; must be fast (see {@link PoolListener})
     * @throws NullPointerException          if {@code listener} is null
     * @throws UnsupportedOperationException if this pool cannot take a listener once built (this default)
     */
    default void addListener(PoolListener listener) {
        throw new UnsupportedOperationException(getClass().getName() + " cannot take a listener once built:"
                + " give it in the pool's options (PoolOptions.Builder.listener), or implement Pool.addListener");
    }

    /** {@return whether the pool has been released and not rebooted} */
    boolean isClosed();

    /**
     * Closes the pool: new tasks are rejected, blocked callers get {@link PoolClosedException} (their tasks were not
     * accepted, even if the pool is rebooted before they return), idle workers stop, running and queued tasks finish.
     * Does not wait for any task; a second call closes nothing again.
     */
    void release();

    /**
     * Releases the pool, then waits until it has terminated: every worker has left and no accepted task waits in its
     * queue. (Tasks can be left queued with no worker only when the thread factory failed to start one. The pool then
     * tries again on its own, 100 ms later, doubling the wait after each failure up to 10 s, so they run once a
     * thread can be started; until then this may time out, and the tasks are handed back by {@code shutdownNow()}, or
     * dropped by a {@link #close()} that is interrupted.)
     *
     * @param timeout how long to wait
     * @throws PoolClosedException  if the pool was already closed
     * @throws TimeoutException     if workers are still running, or accepted tasks still queued, after the timeout
     *                              (the pool stays closed)
     * @throws InterruptedException if interrupted while waiting
     */
    void releaseTimeout(Duration timeout) throws TimeoutException, InterruptedException;

    /**
     * Reopens a released pool; no-op when open. It then accepts tasks again; callers refused by the release stay
     * refused.
     *
     * @throws IllegalStateException if a {@link #close()} or {@link #releaseTimeout} is waiting for the pool to finish
     *                               (reboot after it returns: a pool reopened under it would never finish)
     */
    void reboot();

    /** Releases the pool and waits until its running and queued tasks have finished. */
    @Override
    void close();
}
