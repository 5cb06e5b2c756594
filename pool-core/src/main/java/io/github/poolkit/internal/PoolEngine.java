package io.github.poolkit.internal;

import io.github.poolkit.PoolClosedException;
import io.github.poolkit.PoolOptions;
import io.github.poolkit.PoolOverloadException;
import io.github.poolkit.PoolStats;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The machinery of {@code WorkerPool} and {@code FuncPool} (ants' {@code poolCommon}): at most {@code capacity}
 * workers, an idle-worker store, an optional FIFO queue, a line of blocked callers, expiry, tuning and the
 * release/reboot life cycle. The two pools differ only in how a task runs ({@link TaskRunner}).
 *
 * <p>A task's path: {@link #execute} → {@link #admit}, which hands it to an idle worker, reserves a new worker for it,
 * queues it, refuses it, or puts its caller in the {@link CallerLine}; a worker runs it in {@link #runWorker} through
 * the {@link TaskRunner}, then finds its next task in {@link #nextTask}: from the queue, from the head of the line, or
 * by going idle (pooled threads) or ending (unpooled virtual threads, {@link WorkerThreads}).
 *
 * <p>This class owns the lock and its protocol. One {@link ReentrantLock} guards the idle store, the worker set, the
 * caller line, {@code state}, {@code capacity} and {@code running}; it is held only for O(1) bookkeeping (and the
 * O(log n) expiry search), never while a task runs or a thread starts. The queue ({@link TaskQueue}) needs no lock,
 * so a busy queued pool appends and takes tasks without it: {@code execute} appends when the locked path would queue
 * too, and a finishing worker polls (one at a time spinning briefly, {@link SpinPolicy}). Fields read without the
 * lock are volatile or atomic; the metric getters return snapshots that may be stale when used.
 *
 * <p>Invariants (whenever the lock is free and no lock-free append or poll is half done):
 * <ol>
 *   <li>{@code running} = workers reserved and not yet retired (busy + idle + starting). A worker is counted from
 *       the moment it is reserved, under the lock, until it is retired, under the lock, so "running &lt; capacity"
 *       and the increment are one step and capacity is never exceeded (ants #374).</li>
 *   <li>A task is never left in the queue beside an idle worker or free room with nobody to act on it. Of two racing
 *       lock-free threads at least one sees the other (each writes, then reads what the other writes; volatile and
 *       CAS accesses are sequentially consistent): an appender appends, then reads {@code idleCount}, {@code waking},
 *       {@code running} and {@code state}; a worker going idle publishes {@code idleCount}, then looks at the queue;
 *       a woken worker decrements {@code waking}, then looks at the queue; a retiring worker decrements
 *       {@code running}, then, under the lock, looks at the queue. Whoever sees a task beside an idle worker or room
 *       calls {@link #dispatch}. While a worker handed a task has not woken ({@code waking > 0}), appenders leave the
 *       queue to it: awake, it passes the head on to one more idle worker, so one wake-up drains a run of tasks.</li>
 *   <li>If the queue is non-empty, a worker is running and will take from it: a lock-free append happens only when
 *       {@code running >= capacity >= 1} or beside a waking worker; a worker retires only when surplus, when the pool
 *       is closed (it reads {@code state} before it finds the queue empty, and an appender that then sees the pool
 *       closed withdraws its task, unless a worker or {@code shutdownNow} took it first), from the idle store, or,
 *       unpooled, after looking at the queue; a worker that dies abnormally is replaced.</li>
 *   <li>A worker in the idle store is parked (or about to park) in {@link Worker#awaitHandoff} with an empty slot;
 *       whoever removes it from the store is the only one allowed to hand it a task.</li>
 *   <li>While callers are blocked, no worker is idle: lock-free appends stand aside, a worker that frees a queue slot
 *       moves the head caller's task into it, and a worker that finds nothing queued runs the head caller's task
 *       itself, so callers are served in arrival order. Every other event that may let a caller proceed (a worker
 *       retires, capacity grows, the pool closes) wakes the head, or every caller, to retry, so no caller waits while
 *       it could proceed (this includes a purge that leaves the pool dormant, ants #146).</li>
 * </ol>
 *
 * <p>State machine: {@code OPEN -> SHUTDOWN} ({@link #release}: no new tasks, queued ones drain) {@code -> STOP}
 * ({@link #shutdownNow}: queue handed back, running tasks interrupted); back to {@code OPEN} by {@link #reboot}. The
 * pool is terminated when it is not open and {@code running == 0}.
 */
public final class PoolEngine {

    private enum State { OPEN, SHUTDOWN, STOP }

    /** Who a worker is launched for, which decides where a failure to start its thread goes. */
    private enum Requester {
        /** A caller whose task the worker carries: the caller gets the failure. */
        CALLER,
        /** The pool itself, for queued tasks: the failure goes to the panic handler. */
        POOL
    }

    /** Whether {@link #dispatchLocked} hands the queue's head to an idle worker while another one is waking. */
    private enum Dispatch { UNLESS_WAKING, EVEN_IF_WAKING }

    private final String name;
    private final TaskRunner runner;
    private final WorkerThreads threads;
    private final int queueCapacity;
    private final boolean preAlloc;
    private final long expiryNanos;

    private final ReentrantLock lock = new ReentrantLock();
    private final CallerLine line;
    /** Signalled when the pool becomes terminated. */
    private final Condition terminated = lock.newCondition();
    private final IdleWorkers idle;
    /** The FIFO queue, lock-free and bounded by {@code queueCapacity}; null when {@code queueCapacity == 0}. */
    private final TaskQueue queue;
    /** Queued mode only: workers handed a task that have not woken up yet; raised under the lock. */
    private final AtomicInteger waking = new AtomicInteger();
    /** Workers spinning on the queue ({@link #pollSpinning}), at most {@link SpinPolicy#MAX_QUEUE_SPINNERS}. */
    private final AtomicInteger spinning = new AtomicInteger();
    private final LiveWorkers workers = new LiveWorkers();
    private Future<?> purge;
    /** Tasks completed and failed on workers since retired; lock held (live workers keep their own counts). */
    private long retiredCompleted;
    private long retiredFailed;

    private volatile PoolOptions options;
    /** What a caller that cannot be served at once may do; swapped whole by {@link #reconfigure}. */
    private volatile WaitRules waitRules;
    private volatile State state = State.OPEN;
    private volatile int capacity;
    private volatile int running;
    /** {@code idle.size()}, for lock-free readers. */
    private volatile int idleCount;

    /**
     * Creates an open pool with no workers yet.
     *
     * @param capacity the most workers; {@code <= 0} means unlimited
     * @param options  the options, already {@linkplain PoolOptions#validate(int) validated} for this capacity
     * @param body     runs one task, as the caller gave it, on a worker thread
     */
    public PoolEngine(int capacity, PoolOptions options, Consumer<Object> body) {
        this.options = options;
        this.name = options.name();
        this.runner = new TaskRunner(options, body);
        this.threads = WorkerThreads.of(options);
        this.capacity = capacity <= 0 ? -1 : capacity;
        this.waitRules = WaitRules.of(options);
        this.queueCapacity = options.queueCapacity();
        this.preAlloc = options.preAlloc();
        this.expiryNanos = options.disablePurge() || !threads.pooled() ? -1 : saturatedNanos(options.expiry());
        this.line = new CallerLine(lock, name);
        this.idle = IdleWorkers.create(preAlloc, capacity);
        this.queue = queueCapacity == 0 ? null : new TaskQueue(queueCapacity);
        startPurging();
    }

    static long saturatedNanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE;
        }
    }

    // ---------------------------------------------------------------- admitting a task

    /**
     * Accepts a task: hands it to an idle worker, else starts a worker while there is room, else queues it while the
     * queue has room, else fails fast or blocks (at most {@code maxWait}) until one of those becomes possible.
     *
     * @param task the task; {@code null} is carried as is (a FuncPool argument)
     * @throws PoolClosedException        if the pool is, or becomes, closed
     * @throws PoolOverloadException      if the pool cannot take the task now and the caller may not wait (longer)
     * @throws RejectedExecutionException if interrupted while blocked, or no worker thread could be started
     */
    public void execute(Object task) {
        execute(task, WaitRules.NO_LIMIT);
    }

    /**
     * Accepts a task as {@link #execute(Object)} does, blocking at most {@code timeoutNanos} (or {@code maxWait},
     * whichever is shorter): for timed {@code invokeAll}/{@code invokeAny}.
     *
     * @param task         the task
     * @param timeoutNanos the caller's own limit on the wait; {@code <= 0} does not wait
     */
    public void execute(Object task, long timeoutNanos) {
        try {
            admit(runner.carry(task), timeoutNanos);
        } catch (RejectedExecutionException e) {
            runner.rejected(e);
            throw e;
        }
    }

    private void admit(Object task, long timeoutNanos) {
        if (queue != null && appendLockFree(task)) {
            return;
        }
        Worker toStart = null;
        Requester requester = Requester.POOL;
        WaitRules rules = waitRules; // read once: a caller keeps the rules it entered with
        long waitNanos = rules.waitNanosFor(timeoutNanos);
        long deadline = CallerLine.NO_DEADLINE;
        BlockedCaller me = null;
        lock.lock();
        try {
            for (;;) {
                if (me != null && me.taken) {
                    return; // a finishing worker took the task (invariant 5)
                }
                if (state != State.OPEN) {
                    throw closed();
                }
                boolean behind = queue != null && (waking.get() > 0 && idleCount > 0 || !queue.isEmpty());
                if (behind && queue.offer(task) >= 0) {
                    // Behind tasks already queued, or for a waking worker to pass on (invariant 2).
                    toStart = dispatchLocked(Dispatch.UNLESS_WAKING);
                    break;
                }
                if ((toStart = popIdle()) != null) {
                    if (queue != null) {
                        waking.incrementAndGet();
                    }
                    toStart.give(task);
                    break;
                }
                if (hasRoom()) {
                    toStart = reserveWorker(task);
                    requester = Requester.CALLER;
                    break;
                }
                if (queue != null && queue.offer(task) >= 0) {
                    return;
                }
                if (me == null) {
                    String refusal = rules.refusal(waitNanos, line.size());
                    if (refusal != null) {
                        throw new PoolOverloadException(overloaded(refusal));
                    }
                    if (waitNanos != WaitRules.NO_LIMIT) {
                        deadline = System.nanoTime() + waitNanos;
                    }
                    me = line.join(task);
                    continue; // look again: a lock-free poll may have freed a slot before it could see us (invariant 5)
                }
                if (!line.await(me, deadline)) {
                    throw new PoolOverloadException(overloaded(rules.timedOut(waitNanos)));
                }
            }
        } finally {
            if (me != null) {
                line.leave(me); // no-op once taken: then the task is accepted
            }
            lock.unlock();
        }
        if (toStart != null) {
            wakeOrLaunch(toStart, requester);
        }
    }

    /**
     * Queued mode's lock-free path: appends {@code task} when that is what the locked path would do too (the pool is
     * open, {@link #queueIsNext}, no caller blocked to overtake, a slot free), then makes sure it does not sit beside
     * an idle worker or free room (invariant 2) or in a closed pool (invariant 3).
     *
     * @return whether the task was accepted; false when the locked path must decide
     */
    private boolean appendLockFree(Object task) {
        if (state != State.OPEN || line.size() > 0 || !queueIsNext()) {
            return false;
        }
        long index = queue.offer(task);
        if (index < 0) {
            return false; // full: the locked path blocks or refuses
        }
        if (state != State.OPEN) {
            // Taken already means run by a worker, or handed back by shutdownNow: accepted either way.
            return !queue.withdraw(index, task); // withdrawn: the locked path refuses it
        }
        if (!queueIsNext()) {
            dispatch(Dispatch.UNLESS_WAKING);
        }
        return true;
    }

    /** Whether a new task belongs in the queue: behind a waking worker, or no worker idle and no room (invariant 2). */
    private boolean queueIsNext() {
        if (idleCount > 0) {
            return waking.get() > 0;
        }
        int c = capacity;
        return c >= 0 && running >= c;
    }

    /**
     * Polls the head of the queue; while the pool is open and callers are blocked, moves the first caller's task into
     * the slot that frees (invariant 5; an appender may take that slot first, and the caller then waits for the next).
     */
    private Object pollQueued() {
        Object task = queue.poll();
        if (task != null && line.size() > 0) {
            lock.lock();
            try {
                Object callersTask = line.headTask();
                if (state == State.OPEN && callersTask != null && queue.offer(callersTask) >= 0) {
                    line.serveHead();
                }
            } finally {
                lock.unlock();
            }
        }
        return task;
    }

    /** Gets a queued task moving if it sits beside an idle worker or free room (invariant 2). */
    private void dispatch(Dispatch mode) {
        Worker w;
        lock.lock();
        try {
            w = dispatchLocked(mode);
        } finally {
            lock.unlock();
        }
        if (w != null) {
            wakeOrLaunch(w, Requester.POOL);
        }
    }

    /**
     * Hands the head of the queue to an idle worker (unless another worker is waking and will do it), or reserves a
     * worker for the queue when none is idle and there is room. Lock held.
     *
     * @return the worker to {@link #wakeOrLaunch} once the lock is released, or null
     */
    private Worker dispatchLocked(Dispatch mode) {
        if (queue == null || queue.isEmpty() || state == State.STOP) {
            return null;
        }
        if (idle.size() == 0) {
            return reserveForQueue();
        }
        if (waking.get() > 0 && mode == Dispatch.UNLESS_WAKING) {
            return null;
        }
        Object task = pollQueued();
        if (task == null) {
            return null; // a lock-free poll took it meanwhile
        }
        Worker w = popIdle();
        waking.incrementAndGet();
        w.give(task);
        return w;
    }

    /** Wakes an idle worker that was given a task, or launches a reserved one. Lock not held. */
    private void wakeOrLaunch(Worker w, Requester requester) {
        if (w.thread == null) {
            launch(w, requester);
        } else {
            w.wake();
        }
    }

    /**
     * Starts the thread of a reserved worker; lock not held. If that fails, the worker is retired, and the failure
     * goes to the caller whose task it carried, or else to the panic handler (a worker started for the queue had taken
     * nothing from it).
     */
    private void launch(Worker w, Requester requester) {
        try {
            threads.start(w);
        } catch (Throwable e) {
            Worker replacement;
            lock.lock();
            try {
                w.firstTask = null;
                retire(w);
                // Tasks may have been queued behind this worker while it was counted; keep them moving.
                replacement = requester == Requester.CALLER ? dispatchLocked(Dispatch.UNLESS_WAKING) : null;
            } finally {
                lock.unlock();
            }
            if (replacement != null) {
                wakeOrLaunch(replacement, Requester.POOL);
            }
            RejectedExecutionException r = new RejectedExecutionException("pool '" + name
                    + "' could not start a worker thread: " + e, e);
            if (requester == Requester.CALLER) {
                throw r;
            }
            runner.panic(r);
        }
    }

    private PoolClosedException closed() {
        return new PoolClosedException("pool '" + name + "' is closed: it takes no new tasks (reboot() reopens it)");
    }

    private String overloaded(String why) {
        String queueNote = queue == null ? "" : " and its queue of " + queueCapacity + " is full";
        return "pool '" + name + "' is overloaded: all " + capacity + " workers are busy" + queueNote + " and " + why
                + "; retry later, raise the capacity or add a queue (queueCapacity)";
    }

    /** Lock held. */
    private Worker popIdle() {
        Worker w = idle.pop();
        idleCount = idle.size();
        return w;
    }

    /** Lock held. */
    private boolean hasRoom() {
        int c = capacity;
        return c < 0 || running < c;
    }

    /** Counts a new worker that will start with {@code firstTask}, or with the queue's head when null. Lock held. */
    private Worker reserveWorker(Object firstTask) {
        Worker w = new Worker(this, firstTask);
        running++;
        workers.add(w);
        return w;
    }

    /** Reserves a worker for the queue if tasks are stranded there with room to run. Lock held. */
    private Worker reserveForQueue() {
        if (queue == null || queue.isEmpty() || state == State.STOP || !hasRoom()) {
            return null;
        }
        return reserveWorker(null);
    }

    // ---------------------------------------------------------------- workers

    /** The loop of a worker thread: run a task, then take the next, until retired. */
    void runWorker(Worker w) {
        Object task = w.firstTask;
        w.firstTask = null;
        try {
            if (task == null) {
                task = nextTask(w); // started for the queue
            }
            while (task != null) {
                if (state == State.STOP || Thread.interrupted() && state == State.STOP) {
                    Thread.currentThread().interrupt(); // shutdownNow's interrupt stays; a stray one is cleared
                }
                runner.run(w, task);
                task = nextTask(w);
            }
        } finally {
            workerExited(w);
        }
    }

    /**
     * Finds a finished worker its next task: from the queue, else from the head of the caller line, else by going
     * idle until handed one (pooled) or ending (unpooled). Returns null when the worker must leave: surplus after a
     * shrink, the pool closed with nothing queued, stopped while idle, or unpooled with nothing to do.
     */
    private Object nextTask(Worker w) {
        if (queue != null) {
            Object next = pollSpinning();
            if (next != null) {
                return next;
            }
        }
        Worker replacement = null;
        lock.lock();
        try {
            int c = capacity;
            if (c > 0 && running > c) {
                retire(w);
                return null;
            }
            if (queue != null && state != State.STOP) { // state first, then the queue (invariant 3)
                Object next = pollQueued();
                if (next != null) {
                    return next;
                }
            }
            if (state != State.OPEN) {
                retire(w);
                return null;
            }
            if (!line.isEmpty()) {
                return line.serveHead(); // run a blocked caller's task instead of going idle (invariant 5)
            }
            if (!threads.pooled()) {
                retire(w);
                replacement = dispatchLocked(Dispatch.UNLESS_WAKING); // an append may have seen us (invariant 2)
                return null;
            }
            w.lastUsedNanos = System.nanoTime();
            idle.push(w);
            idleCount = idle.size();
        } finally {
            lock.unlock();
            if (replacement != null) {
                wakeOrLaunch(replacement, Requester.POOL);
            }
        }
        if (queue != null && !queue.isEmpty()) {
            dispatch(Dispatch.UNLESS_WAKING); // an append may have missed us going idle (invariant 2)
        }
        Object next = w.awaitHandoff(queue == null ? SpinPolicy.spinsBeforePark(SpinPolicy.HANDOFF_SPINS) : 0);
        if (next == Worker.STOP) {
            return null;
        }
        if (queue != null) {
            waking.decrementAndGet();
            if (!queue.isEmpty()) {
                dispatch(Dispatch.EVEN_IF_WAKING); // awake now: pass the queue's head on to one more (invariant 2)
            }
        }
        return next;
    }

    /**
     * Takes the head of the queue without the lock, spinning briefly while it is empty (workers of a busy pool then
     * never go idle between tiny tasks). Returns null when it stays empty, or when the worker may have to leave (the
     * locked path decides).
     */
    private Object pollSpinning() {
        Object next = null;
        if (mayTakeLockFree() && (next = pollQueued()) == null && startSpinning()) {
            try {
                int spins = SpinPolicy.spinsBeforePark(SpinPolicy.QUEUE_SPINS);
                for (; spins > 0 && state == State.OPEN && mayTakeLockFree(); spins--) {
                    Thread.onSpinWait();
                    if ((next = pollQueued()) != null) {
                        break;
                    }
                }
            } finally {
                spinning.decrementAndGet();
            }
        }
        return next;
    }

    /** Whether a worker may take from the queue without the lock: the pool is not stopped and it is not surplus. */
    private boolean mayTakeLockFree() {
        int c = capacity;
        return state != State.STOP && (c < 0 || running <= c);
    }

    /** Counts the caller as a spinning worker if fewer than {@link SpinPolicy#MAX_QUEUE_SPINNERS} are. */
    private boolean startSpinning() {
        for (int n; (n = spinning.get()) < SpinPolicy.MAX_QUEUE_SPINNERS; ) {
            if (spinning.compareAndSet(n, n + 1)) {
                return true;
            }
        }
        return false;
    }

    /** A worker thread leaves; if it died abnormally it is retired here and replaced when tasks are queued. */
    private void workerExited(Worker w) {
        Worker replacement;
        lock.lock();
        try {
            if (w.retired) {
                return;
            }
            retire(w);
            replacement = dispatchLocked(Dispatch.UNLESS_WAKING);
        } finally {
            lock.unlock();
        }
        if (replacement != null) {
            wakeOrLaunch(replacement, Requester.POOL);
        }
    }

    /** Stops counting a worker (keeping its task counts) and wakes whoever may now proceed. Lock held. */
    private void retire(Worker w) {
        w.retired = true;
        retiredCompleted += w.completedCount();
        retiredFailed += w.failedCount();
        running--;
        workers.remove(w);
        line.wakeHead();
        if (running == 0 && state != State.OPEN) {
            terminated.signalAll();
        }
    }

    // ---------------------------------------------------------------- expiry and tuning

    private void startPurging() {
        if (expiryNanos > 0) {
            purge = Purger.schedule(this, expiryNanos);
        }
    }

    /** Stops the idle workers unused for longer than the expiry (called by the {@link Purger}). */
    void purgeExpiredWorkers() {
        Worker[] expired;
        Worker fresh;
        lock.lock();
        try {
            if (state != State.OPEN) {
                return;
            }
            expired = idle.removeExpired(System.nanoTime() - expiryNanos);
            idleCount = idle.size();
            for (Worker w : expired) {
                retire(w);
            }
            fresh = dispatchLocked(Dispatch.UNLESS_WAKING); // an append may have seen them idle (invariant 2)
        } finally {
            lock.unlock();
        }
        for (Worker w : expired) {
            w.handOff(Worker.STOP);
        }
        if (fresh != null) {
            wakeOrLaunch(fresh, Requester.POOL);
        }
    }

    /**
     * Changes the capacity. No-op when unlimited, when {@code newCapacity <= 0}, or with preAlloc. Growing wakes the
     * blocked callers and starts workers for queued tasks at once; shrinking stops surplus idle workers at once and
     * busy ones as they finish.
     *
     * @param newCapacity the new capacity
     */
    public void tune(int newCapacity) {
        List<Worker> toStart = new ArrayList<>();
        List<Worker> toStop = new ArrayList<>();
        lock.lock();
        try {
            int old = capacity;
            if (old < 0 || newCapacity <= 0 || preAlloc || newCapacity == old) {
                return;
            }
            capacity = newCapacity;
            Worker w;
            if (newCapacity > old) {
                line.wakeAll();
                for (int n = queue == null ? 0 : queue.size(); n > 0 && (w = reserveForQueue()) != null; n--) {
                    toStart.add(w);
                }
            } else {
                while (running > newCapacity && (w = popIdle()) != null) {
                    retire(w);
                    toStop.add(w);
                }
            }
        } finally {
            lock.unlock();
        }
        toStop.forEach(w -> w.handOff(Worker.STOP));
        toStart.forEach(w -> launch(w, Requester.POOL));
    }

    // ---------------------------------------------------------------- life cycle

    /**
     * Closes the pool if it is open: new tasks are refused, blocked callers get {@link PoolClosedException}, idle
     * workers stop, running and queued tasks finish. A second call is a no-op.
     *
     * @return whether this call closed the pool
     */
    public boolean release() {
        return transitionTo(State.SHUTDOWN) != null;
    }

    /**
     * Closes the pool like {@link #release()}, also taking the queued tasks out and interrupting running ones.
     *
     * @return the tasks that were queued and will not run
     */
    public List<Object> shutdownNow() {
        List<Object> drained = transitionTo(State.STOP);
        return drained == null ? List.of() : drained;
    }

    /** Moves to {@code target} if that is further on; returns the drained queue, or null when nothing changed. */
    private List<Object> transitionTo(State target) {
        Worker[] idleWorkers;
        List<Object> drained = new ArrayList<>();
        lock.lock();
        try {
            if (state.compareTo(target) >= 0) {
                return null;
            }
            state = target;
            if (purge != null) {
                purge.cancel(false);
                purge = null;
            }
            line.wakeAll();
            idleWorkers = idle.removeAll();
            idleCount = 0;
            for (Worker w : idleWorkers) {
                retire(w);
            }
            if (target == State.STOP) {
                for (Object task; queue != null && (task = queue.poll()) != null; ) {
                    drained.add(runner.unwrap(task));
                }
                workers.forEach(w -> {
                    Thread t = w.thread;
                    if (t != null) {
                        t.interrupt();
                    }
                });
            }
            if (running == 0) {
                terminated.signalAll();
            }
        } finally {
            lock.unlock();
        }
        for (Worker w : idleWorkers) {
            w.handOff(Worker.STOP);
        }
        return drained;
    }

    /**
     * Releases the pool, then waits until every worker has left it.
     *
     * @param timeout how long to wait
     * @throws PoolClosedException  if the pool was already closed
     * @throws TimeoutException     if workers are still running after the timeout
     * @throws InterruptedException if interrupted while waiting
     */
    public void releaseTimeout(Duration timeout) throws TimeoutException, InterruptedException {
        if (!release()) {
            throw new PoolClosedException("pool '" + name + "' is already closed");
        }
        if (!awaitTermination(saturatedNanos(timeout), TimeUnit.NANOSECONDS)) {
            throw new TimeoutException("pool '" + name + "' still has " + running + " workers running and "
                    + queuedCount() + " tasks queued after " + timeout);
        }
    }

    /** Reopens a closed pool (no-op when open): it accepts tasks again and purges idle workers again. */
    public void reboot() {
        lock.lock();
        try {
            if (state != State.OPEN) {
                state = State.OPEN;
                startPurging();
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until the pool is closed and every worker has left.
     *
     * @return whether the pool terminated in time
     * @throws InterruptedException if interrupted while waiting
     */
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        long nanos = unit.toNanos(timeout);
        lock.lock();
        try {
            while (!isTerminated()) {
                if (nanos <= 0) {
                    return false;
                }
                nanos = terminated.awaitNanos(nanos);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Releases the pool and waits until it terminates, as {@link java.util.concurrent.ExecutorService#close()} does:
     * if interrupted while waiting, stops the pool with {@link #shutdownNow()}, keeps waiting, and returns with the
     * interrupt status set.
     */
    public void closeAndAwait() {
        boolean interrupted = false;
        release();
        while (!isTerminated()) {
            try {
                awaitTermination(1, TimeUnit.DAYS);
            } catch (InterruptedException e) {
                if (!interrupted) {
                    shutdownNow();
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    // ---------------------------------------------------------------- options and metrics (snapshots)

    /** @return the options the pool was created with, as changed since by {@link #reconfigure} */
    public PoolOptions options() {
        return options;
    }

    /**
     * Changes the options that can change live ({@link LiveOptions}). A caller reads them once, as it enters
     * {@link #execute}, so callers already blocked keep the rules they entered with.
     *
     * @param changed the new options; every option that cannot change live must equal the current one
     * @throws io.github.poolkit.InvalidOptionException if an option is invalid, or differs but cannot change live;
     *                                                  nothing is changed then
     */
    public void reconfigure(PoolOptions changed) {
        changed.validate(capacity);
        lock.lock(); // one reconfiguration at a time, so that options and waitRules stay a pair
        try {
            LiveOptions.requireOnlyLiveChanges(options, changed);
            waitRules = WaitRules.of(changed);
            options = changed;
        } finally {
            lock.unlock();
        }
    }

    /** @return the pool's name */
    public String name() {
        return name;
    }

    /** @return the capacity, -1 when unlimited */
    public int capacity() {
        return capacity;
    }

    /** @return workers alive: busy, idle and not yet purged, or starting */
    public int running() {
        return running;
    }

    /** @return {@code max(0, capacity - running)}, -1 when unlimited */
    public int free() {
        int c = capacity;
        return c < 0 ? -1 : Math.max(0, c - running);
    }

    /** @return callers blocked in execute plus queued tasks */
    public int waiting() {
        return line.size() + queuedCount();
    }

    /**
     * @return the pool's figures: the task counts of retired workers plus those of the live ones, summed under the
     *         lock (which retirement also holds, so each worker counts exactly once)
     */
    public PoolStats stats() {
        long[] sums = new long[3]; // completed, failed, busy
        lock.lock();
        try {
            sums[0] = retiredCompleted;
            sums[1] = retiredFailed;
            workers.forEach(w -> {
                sums[0] += w.completedCount();
                sums[1] += w.failedCount();
                sums[2] += w.isBusy() ? 1 : 0;
            });
        } finally {
            lock.unlock();
        }
        int r = running;
        // An unpooled worker exists only for its tasks, from the moment it is reserved for one.
        int busy = threads.pooled() ? (int) sums[2] : r;
        return new PoolStats(capacity, r, busy, queuedCount(), line.size(), sums[0], sums[1],
                runner.rejectedCount(), state != State.OPEN);
    }

    private int queuedCount() {
        return queue == null ? 0 : queue.size();
    }

    /** @return whether the pool has been released (and not rebooted) */
    public boolean isClosed() {
        return state != State.OPEN;
    }

    /** @return whether the pool is closed and every worker has left */
    public boolean isTerminated() {
        return state != State.OPEN && running == 0;
    }

    @Override
    public String toString() {
        return "pool '" + name + "' [capacity=" + capacity + ", running=" + running + ", waiting=" + waiting()
                + ", " + (state == State.OPEN ? "open" : isTerminated() ? "terminated" : "closed") + "]";
    }
}
