package io.github.poolkit;

import io.github.poolkit.internal.Durations;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Several {@link WorkerPool}s of equal capacity behind one {@link java.util.concurrent.ExecutorService}, with tasks
 * spread over them by a {@link LoadBalancing} strategy: the Java counterpart of ants' {@code MultiPool}. Spreading
 * submitters over several pools divides the contention on each pool's lock.
 *
 * <p>Each task goes to one pool chosen by the strategy and then follows that pool's {@link WorkerPool#execute}
 * semantics (it may block or be refused). Under {@link LoadBalancing#ROUND_ROBIN}, a task refused with
 * {@link PoolOverloadException} is retried once on the least-loaded of the other pools before the exception reaches
 * the caller; {@code maxWait} bounds the whole call, so the retry waits at most what is left of it.
 * The sub-pools are named {@code <name>-<index>}, so their threads are {@code <name>-<index>-<n>}.
 *
 * <p>Aggregates ({@link #running()}, {@link #free()}, {@link #waiting()}, {@link #capacity()}) are sums of per-pool
 * snapshots, read without locking. Memory consistency effects are those of {@link WorkerPool}.
 */
public final class MultiPool extends PoolExecutorService implements Pool {

    /** How {@link MultiPool#execute} picks a pool. */
    public enum LoadBalancing {
        /** Each task goes to the next pool in turn. */
        ROUND_ROBIN,
        /**
         * Each task goes to the pool with the fewest {@code running()} workers; on a tie, the first such pool with an
         * idle worker, else the one with the fewest {@code waiting()} tasks, else the first such pool.
         * ({@code running()} counts idle workers too, so full pools tie; with a queue, the shortest one then wins.)
         */
        LEAST_TASKS
    }

    /** The most sub-pools a multi-pool may have. */
    public static final int MAX_POOLS = 1 << 12;

    private final WorkerPool[] pools;
    private final LoadBalancing strategy;
    private final AtomicInteger next = new AtomicInteger();
    /** Whether it is open, in step with its sub-pools (and no reboot while a close waits). */
    private final MultiPoolLifecycle lifecycle;
    /**
     * Held by whoever reconfigures or tunes the sub-pools, from the first to the last (never while anything waits but
     * another such change), so that two changes at once apply one after the other and leave every sub-pool with the
     * options, or the capacity, of the one that came last.
     */
    private final Object reconfiguring = new Object();
    /** Tasks refused to a caller; a sub-pool's refusal that a retry on another pool made good is not counted. */
    private final LongAdder rejected = new LongAdder();
    private final String name;

    private MultiPool(int size, int capacityPerPool, LoadBalancing strategy, PoolOptions options) {
        if (size <= 0 || size > MAX_POOLS) {
            throw new InvalidOptionException("pools", size, "must be between 1 and " + MAX_POOLS,
                    "give the number of sub-pools (a few per core is plenty)");
        }
        Objects.requireNonNull(options, "options").validate(capacityPerPool);
        if (options.adaptiveCapacity() != null) {
            throw new InvalidOptionException("adaptiveCapacity", options.adaptiveCapacity(), "cannot be shared by the"
                    + " pools of a MultiPool", "drop adaptiveCapacity, or build WorkerPools with a limit each");
        }
        this.strategy = Objects.requireNonNull(strategy, "strategy");
        this.name = options.name();
        this.pools = new WorkerPool[size];
        for (int i = 0; i < size; i++) {
            pools[i] = WorkerPool.create(capacityPerPool, options.toBuilder().name(options.name() + "-" + i).build());
        }
        this.lifecycle = new MultiPoolLifecycle(name, pools);
    }

    /**
     * Creates a multi-pool with the default options.
     *
     * @param pools           how many pools; from 1 to {@link #MAX_POOLS}
     * @param capacityPerPool each pool's capacity; {@code <= 0} means unlimited
     * @param strategy        how tasks are spread
     * @return an open multi-pool
     * @throws InvalidOptionException if {@code pools} is not between 1 and {@link #MAX_POOLS}
     */
    public static MultiPool create(int pools, int capacityPerPool, LoadBalancing strategy) {
        return create(pools, capacityPerPool, strategy, PoolOptions.defaults());
    }

    /**
     * Creates a multi-pool; every pool gets these options (and the name {@code <name>-<index>}).
     *
     * @param pools           how many pools; from 1 to {@link #MAX_POOLS}
     * @param capacityPerPool each pool's capacity; {@code <= 0} means unlimited
     * @param strategy        how tasks are spread
     * @param options         the options of each pool
     * @return an open multi-pool
     * @throws InvalidOptionException if {@code pools} is not between 1 and {@link #MAX_POOLS} ({@code "pools"}) or an
     *                                option is invalid
     */
    public static MultiPool create(int pools, int capacityPerPool, LoadBalancing strategy, PoolOptions options) {
        return new MultiPool(pools, capacityPerPool, strategy, options);
    }

    /**
     * Runs the task on the pool the strategy picks, with that pool's blocking behaviour and errors (see
     * {@link WorkerPool#execute}).
     *
     * @param task the task
     */
    @Override
    public void execute(Runnable task) {
        execute(task, Long.MAX_VALUE);
    }

    /** As {@link #execute(Runnable)}, blocking at most {@code timeoutNanos} in all. */
    @Override
    void execute(Runnable task, long timeoutNanos) {
        Objects.requireNonNull(task, "task");
        try {
            place(task, timeoutNanos);
        } catch (RejectedExecutionException refused) {
            rejected.increment();
            throw refused;
        }
    }

    /**
     * Hands the task to the pool the strategy picks (and, under round robin, once more to another, for what is left of
     * the caller's wait: {@code maxWait} bounds the whole call).
     */
    private void place(Runnable task, long timeoutNanos) {
        if (lifecycle.isClosed()) {
            PoolClosedException closed = new PoolClosedException("multi-pool '" + name + "' is closed: it takes no"
                    + " new tasks (reboot() reopens it)");
            pools[0].refused(closed); // told to the listeners, which every sub-pool has (counted here by execute)
            throw closed;
        }
        long start = System.nanoTime();
        if (strategy == LoadBalancing.LEAST_TASKS) {
            pools[leastLoadedExcept(-1)].execute(task, timeoutNanos);
            return;
        }
        int i = Math.floorMod(next.getAndIncrement(), pools.length);
        // One call, however many tries: the task is decorated once (the sub-pools share the decorator), and the second
        // try has what is left of the wait the caller entered with, whatever a reconfigure changes meanwhile.
        PoolOptions entered = pools[i].options(); // one read here; what it means is worked out on a refusal only
        Runnable decorated = pools[i].decorate(task);
        try {
            pools[i].tryDecorated(decorated, timeoutNanos); // an overload is reported only if no retry makes it good
        } catch (PoolOverloadException overloaded) {
            int j = leastLoadedExcept(i);
            if (j < 0) {
                pools[i].refused(overloaded);
                throw overloaded;
            }
            long budget = budget(entered, timeoutNanos);
            pools[j].executeDecorated(decorated,
                    budget == Long.MAX_VALUE ? budget : budget - (System.nanoTime() - start), start);
        }
    }

    /** The caller's whole wait: the shorter of its own limit and {@code maxWait}, which bounds the whole call. */
    private static long budget(PoolOptions entered, long timeoutNanos) {
        Duration maxWait = entered.maxWait();
        return maxWait == null ? timeoutNanos : Math.min(timeoutNanos, Durations.toNanosSaturated(maxWait));
    }

    /**
     * The pool with the fewest running workers, other than {@code skip}; -1 if none. On a tie, the first with an idle
     * worker, else the one with the fewest tasks waiting (queued, or their callers blocked), else the first: running
     * workers include idle ones, so pools that are all full tie, and the first of them may have every worker busy
     * while another has some idle, or a shorter queue. Idle and waiting counts are read on ties only.
     */
    private int leastLoadedExcept(int skip) {
        int best = -1;
        int least = Integer.MAX_VALUE;
        boolean bestIdle = false;
        int bestWaiting = -1; // unknown until a tie asks
        for (int i = 0; i < pools.length; i++) {
            if (i == skip) {
                continue;
            }
            int r = pools[i].running();
            if (r < least) {
                least = r;
                best = i;
                bestIdle = false; // unknown until a tie asks
                bestWaiting = -1;
            } else if (r == least && !bestIdle) {
                if (pools[best].idleWorkers() > 0) {
                    bestIdle = true;
                } else if (pools[i].idleWorkers() > 0) {
                    best = i;
                    bestIdle = true;
                } else {
                    if (bestWaiting < 0) {
                        bestWaiting = pools[best].waiting();
                    }
                    int waiting = pools[i].waiting();
                    if (waiting < bestWaiting) {
                        best = i;
                        bestWaiting = waiting;
                    }
                }
            }
        }
        return best;
    }

    private WorkerPool pool(int index) {
        Objects.checkIndex(index, pools.length);
        return pools[index];
    }

    /** {@return how many pools there are} */
    public int size() {
        return pools.length;
    }

    /** {@return the summed capacity (at most {@code Integer.MAX_VALUE}), or -1 when the pools are unlimited} */
    public int capacity() {
        int c = pools[0].capacity();
        return c < 0 ? -1 : (int) Math.min(Integer.MAX_VALUE, (long) c * pools.length);
    }

    /** {@return the name given in the options; the sub-pools are named {@code <name>-<index>}} */
    @Override
    public String name() {
        return name;
    }

    /**
     * @return the sub-pools' figures summed (capacity -1 when unlimited), except {@code rejected}: the tasks this
     *         multi-pool refused to its callers
     */
    @Override
    public PoolStats stats() {
        int running = 0, busy = 0, queued = 0, blocked = 0;
        long completed = 0, failed = 0, overdue = 0, capacity = 0; // capacity: each pool's, read with its figures
        for (WorkerPool p : pools) {
            PoolStats s = p.stats();
            capacity = (capacity < 0 || s.unlimited()) ? -1 : capacity + s.capacity();
            running += s.running();
            busy += s.busy();
            queued += s.queued();
            blocked += s.blocked();
            completed += s.completed();
            failed += s.failed();
            overdue += s.overdue();
        }
        return new PoolStats((int) Math.min(Integer.MAX_VALUE, capacity), running, busy, queued, blocked, completed,
                failed, rejected.sum(), isClosed(), overdue);
    }

    /** {@return the options of the first sub-pool, with the multi-pool's own name} */
    @Override
    public PoolOptions options() {
        return pools[0].options().toBuilder().name(name).build();
    }

    /**
     * Reconfigures every sub-pool (their names are kept); they all have the same options, so either all change or, if
     * the first refuses, none does. Two calls at once apply one after the other, each to every sub-pool, so the
     * sub-pools end with the options of the call that came last.
     */
    @Override
    public void reconfigure(PoolOptions options) {
        Objects.requireNonNull(options, "options");
        if (!options.name().equals(name)) {
            throw new InvalidOptionException("name", options.name(), "cannot change while the pool runs (it is "
                    + name + ")", "keep name as it is, or create a new pool with it (a restart)");
        }
        synchronized (reconfiguring) {
            for (int i = 0; i < pools.length; i++) {
                pools[i].reconfigure(options.toBuilder().name(name + "-" + i).build());
            }
        }
    }

    /** {@return the summed running workers} */
    public int running() {
        return Arrays.stream(pools).mapToInt(WorkerPool::running).sum();
    }

    /**
     * {@return {@code max(0, capacity() - running())} over all the pools, as {@link Pool#free()} and
     * {@code stats().free()} (at most {@code Integer.MAX_VALUE}), or -1 when the pools are unlimited} After a shrink,
     * a pool still running more workers than its new capacity counts against the room another has.
     */
    public int free() {
        if (pools[0].capacity() < 0) {
            return -1;
        }
        long capacity = 0;
        long running = 0;
        for (WorkerPool p : pools) {
            capacity += p.capacity();
            running += p.running();
        }
        return (int) Math.max(0, Math.min(Integer.MAX_VALUE, capacity) - running); // capped as capacity() is
    }

    /** {@return the summed blocked callers and queued tasks} */
    public int waiting() {
        return Arrays.stream(pools).mapToInt(WorkerPool::waiting).sum();
    }

    /**
     * {@return that pool's running workers}
     *
     * @param index a pool's index
     * @throws IndexOutOfBoundsException for a bad index
     */
    public int running(int index) {
        return pool(index).running();
    }

    /**
     * {@return that pool's free workers, -1 when unlimited}
     *
     * @param index a pool's index
     * @throws IndexOutOfBoundsException for a bad index
     */
    public int free(int index) {
        return pool(index).free();
    }

    /**
     * {@return that pool's blocked callers plus queued tasks}
     *
     * @param index a pool's index
     * @throws IndexOutOfBoundsException for a bad index
     */
    public int waiting(int index) {
        return pool(index).waiting();
    }

    /**
     * Tunes every pool, as {@link WorkerPool#tune}. Two calls at once apply one after the other, each to every pool,
     * so the pools end with the capacity of the call that came last.
     *
     * @param capacityPerPool the new capacity of each pool
     */
    public void tune(int capacityPerPool) {
        synchronized (reconfiguring) {
            for (WorkerPool p : pools) {
                p.tune(capacityPerPool);
            }
        }
    }

    /**
     * {@inheritDoc} The listener is added to every pool, so it hears of each pool's tasks as a listener in the options
     * does: of a refusal only when the caller gets it (not of one by a pool that a retry on another made good); two
     * calls at once add their listeners in the same order to every pool.
     */
    @Override
    public void addListener(PoolListener listener) {
        Objects.requireNonNull(listener, "listener");
        synchronized (reconfiguring) {
            for (WorkerPool p : pools) {
                p.addListener(listener);
            }
        }
    }

    /** {@return whether the multi-pool has been released and not rebooted} */
    public boolean isClosed() {
        return lifecycle.isClosed();
    }

    /** Releases every pool (= {@link #shutdown()}); does not wait. A second call is a no-op. */
    public void release() {
        lifecycle.release();
    }

    /**
     * Releases every pool, then waits until all their workers have exited.
     *
     * @param timeout how long to wait in all
     * @throws PoolClosedException  if already closed
     * @throws TimeoutException     if workers are still running after the timeout
     * @throws InterruptedException if interrupted while waiting
     */
    public void releaseTimeout(Duration timeout) throws TimeoutException, InterruptedException {
        Objects.requireNonNull(timeout, "timeout");
        if (!lifecycle.releaseToWait(true)) {
            throw new PoolClosedException("multi-pool is already closed");
        }
        try {
            if (!awaitTermination(Durations.toNanosSaturated(timeout), TimeUnit.NANOSECONDS)) {
                throw new TimeoutException("multi-pool still has " + running() + " workers running after " + timeout);
            }
        } finally {
            lifecycle.doneWaiting();
        }
    }

    /**
     * Reopens every pool; no-op when open.
     *
     * @throws IllegalStateException if a {@link #close()} or {@link #releaseTimeout} is waiting for the pools to finish
     *                               (reboot after it returns)
     */
    public void reboot() {
        lifecycle.reboot();
    }

    @Override
    public void shutdown() {
        release();
    }

    /**
     * Releases every pool and waits until all have terminated, as {@link java.util.concurrent.ExecutorService#close()}
     * does: if interrupted while waiting, stops them with {@link #shutdownNow()}, keeps waiting, and returns with the
     * interrupt status set. {@link #reboot()} is refused until it returns, so that every pool ends closed with it.
     */
    @Override
    public void close() {
        lifecycle.releaseToWait(false); // every pool stops taking tasks before any is waited for; no reboot meanwhile
        boolean interrupted = false;
        try {
            for (WorkerPool p : pools) {
                while (!p.isTerminated()) {
                    try {
                        p.awaitTermination(1, TimeUnit.DAYS);
                    } catch (InterruptedException e) { // every pool at once, not each as the one before terminates
                        if (!interrupted) {
                            lifecycle.shutdownNow();
                            interrupted = true;
                        }
                    }
                }
            }
        } finally {
            lifecycle.doneWaiting();
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops every pool as {@link WorkerPool#shutdownNow()}; returns their queued tasks, pool by pool. */
    @Override
    public List<Runnable> shutdownNow() {
        return lifecycle.shutdownNow();
    }

    @Override
    public boolean isShutdown() {
        return lifecycle.isClosed();
    }

    @Override
    public boolean isTerminated() {
        for (WorkerPool p : pools) {
            if (!p.isTerminated()) {
                return false;
            }
        }
        return true;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        // toNanos saturates; a negative timeout is spent, never a deadline that wraps round to a distant future
        long deadline = System.nanoTime() + Math.max(0, unit.toNanos(timeout));
        for (WorkerPool p : pools) {
            if (!p.awaitTermination(deadline - System.nanoTime(), TimeUnit.NANOSECONDS)) {
                return false;
            }
        }
        return true;
    }
}
