package io.github.poolkit.internal.pool;

import io.github.poolkit.internal.Durations;
import io.github.poolkit.internal.Spin;
import io.github.poolkit.PoolClosedException;
import io.github.poolkit.PoolOptions;
import io.github.poolkit.PoolOverloadException;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * The workers of a {@link PoolEngine}: at most {@code capacity} of them, an idle-worker store, an optional FIFO queue,
 * the line of blocked callers, expiry, tuning and the life cycle, with the lock and the protocol that keep them
 * consistent. A task's path: {@link #admit} hands it to an idle worker, reserves a new worker for it, queues it,
 * refuses it, or puts its caller in the {@link CallerLine}; a {@link Worker} runs it through the {@link TaskRunner},
 * then finds its next task in {@link #nextTask}: from the queue, from the head of the line, or by going idle (pooled
 * threads) or ending (unpooled virtual threads, {@link WorkerThreads}).
 *
 * <p>This class owns the lock and its protocol. One {@link ReentrantLock} guards the idle store, the worker set, the
 * caller line, {@code state}, {@code capacity} and {@code running}; it is held only for O(1) bookkeeping (and the
 * O(log n) expiry search), never while a task runs or a thread starts. The queue ({@link TaskQueue}) needs no lock,
 * so a busy queued pool appends and takes tasks without it ({@link QueuedPath}). Fields read without the lock are
 * volatile or atomic; the metric getters return snapshots that may be stale when used.
 *
 * <p>Invariants (whenever the lock is free and no lock-free append or poll is half done):
 * <ol>
 *   <li>{@code running} = workers reserved and not yet retired (busy + idle + starting). A worker is counted from
 *       the moment it is reserved, under the lock, until it is retired, under the lock, so "running &lt; capacity"
 *       and the increment are one step and capacity is never exceeded (ants #374).</li>
 *   <li>A task is never left in the queue beside an idle worker or free room with nobody to act on it. Of two racing
 *       lock-free threads at least one sees the other (each writes, then reads what the other writes; volatile and
 *       CAS accesses are sequentially consistent): an appender appends, then reads {@code idleCount}, {@code waking},
 *       {@code running} and {@code state}; a worker going idle publishes {@code idleCount}, a woken worker decrements
 *       {@code waking}, a retiring one decrements {@code running}, then each looks at the queue. Whoever sees a task
 *       beside an idle worker or room calls {@link #dispatch}. While a worker handed a task has not woken, appenders
 *       leave the queue to it: awake, it passes the head on to one more idle worker (one wake-up drains a run).</li>
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
 * The pool is terminated when it is not open and {@code running == 0} ({@link #transitionTo}).
 */
final class PoolCore {

    /** The life cycle: {@code OPEN -> SHUTDOWN -> STOP}, and back to {@code OPEN} by {@link #reboot}. */
    enum State { OPEN, SHUTDOWN, STOP }

    /** Who a worker is launched for: a failure to start its thread goes to the caller, or to the panic handler. */
    private enum Requester { CALLER, POOL }

    /** Whether {@link #dispatchLocked} hands the queue's head to an idle worker while another one is waking. */
    enum Dispatch { UNLESS_WAKING, EVEN_IF_WAKING }

    private final String name;
    private final TaskRunner runner;
    /** The wait rules in force, read once by each caller that cannot be served at once. */
    private final Supplier<WaitRules> waitRules;
    private final WorkerThreads threads;
    private final int queueCapacity;
    private final boolean preAlloc;
    private final long expiryNanos;

    private final ReentrantLock lock = new ReentrantLock();
    private final CallerLine line;
    private final Termination termination = new Termination(lock, this::isTerminated);
    private final IdleWorkers idle;
    /** The FIFO queue, lock-free and bounded by {@code queueCapacity}; null when {@code queueCapacity == 0}. */
    private final TaskQueue queue;
    /** Queued mode only: workers handed a task that have not woken up yet; raised under the lock. */
    private final PaddedCounter waking = new PaddedCounter();
    /** The queue's lock-free side; null without a queue. */
    private final QueuedPath queued;
    private final LiveWorkers workers = new LiveWorkers();
    private Future<?> purge;

    private volatile State state = State.OPEN;
    private volatile int capacity;
    private volatile int running;
    /** {@code idle.size()}, for lock-free readers. */
    private volatile int idleCount;
    /** {@code line.size()}, for lock-free readers: set under the lock after every change to the line. */
    private volatile int blocked;

    /** An open pool of at most {@code capacity} workers ({@code <= 0}: unlimited); the options are validated. */
    PoolCore(int capacity, PoolOptions options, TaskRunner runner, Supplier<WaitRules> waitRules) {
        this.waitRules = waitRules;
        this.name = options.name();
        this.runner = runner;
        this.threads = WorkerThreads.of(options);
        this.capacity = capacity <= 0 ? -1 : capacity;
        this.queueCapacity = options.queueCapacity();
        this.preAlloc = options.preAlloc();
        boolean purged = threads.pooled() && !options.disablePurge();
        this.expiryNanos = purged ? Durations.toNanosSaturated(options.expiry()) : -1;
        this.line = new CallerLine(lock, name);
        this.idle = IdleWorkers.create(preAlloc, capacity);
        this.queue = queueCapacity == 0 ? null : new TaskQueue(queueCapacity);
        this.queued = queue == null ? null : new QueuedPath(this, queue);
        startPurging();
    }

    /**
     * Accepts a task ({@link TaskRunner#carry carried}): hands it to an idle worker, else reserves a new worker for it,
     * else queues it, else refuses it or blocks the caller in the line, as the wait rules allow (see
     * {@link PoolEngine#execute(Object, long)} for what it throws). Small on purpose, like {@link #nextTask}, so that
     * the JIT inlines the lock-free path into the caller instead of calling a method too large to inline per task.
     */
    void admit(Object task, long timeoutNanos) {
        if (queued == null || !queued.tryAppend(task)) {
            admitLocked(task, timeoutNanos);
        }
    }

    /** {@link #admit} when the lock-free append does not apply: decides under the lock. */
    private void admitLocked(Object task, long timeoutNanos) {
        WaitRules rules = waitRules.get(); // read once: the caller keeps the rules it entered with
        Worker toStart = null;
        Requester requester = Requester.POOL;
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
                    throw new PoolClosedException("pool '" + name + "' is closed: it takes no new tasks"
                            + " (reboot() reopens it)");
                }
                boolean behind = queue != null && (waking.get() > 0 && idleCount > 0 || !queue.isEmpty());
                if (behind && queue.offer(task) >= 0) {
                    // Behind tasks already queued, or for a waking worker to pass on (invariant 2).
                    toStart = dispatchLocked(Dispatch.UNLESS_WAKING);
                    break;
                }
                if ((toStart = popIdle()) != null) {
                    if (queue != null) {
                        waking.increment();
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
                    blocked = line.size();
                    continue; // look again: a lock-free poll may have freed a slot before it could see us (invariant 5)
                }
                if (!line.await(me, deadline)) {
                    throw new PoolOverloadException(overloaded(rules.timedOut(waitNanos)));
                }
            }
        } finally {
            if (me != null) {
                line.leave(me); // no-op once taken: then the task is accepted
                blocked = line.size();
            }
            lock.unlock();
        }
        if (toStart != null) {
            wakeOrLaunch(toStart, requester);
        }
    }

    /** Moves the head caller's task into the queue slot a lock-free poll just freed, if open (invariant 5). */
    void moveHeadCallerInto(TaskQueue queue) {
        lock.lock();
        try {
            Object callersTask = line.headTask();
            if (state == State.OPEN && callersTask != null && queue.offer(callersTask) >= 0) {
                line.serveHead();
                blocked = line.size();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Gets a queued task moving if it sits beside an idle worker or free room (invariant 2); see dispatchLocked. */
    void dispatch(Dispatch mode) {
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
     * Hands the queue's head to an idle worker (unless one is waking and will), or reserves a worker for the queue if
     * none is idle and there is room. Lock held. Returns the worker to {@link #wakeOrLaunch} after unlocking, or null.
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
        Object task = queued.poll();
        if (task == null) {
            return null; // a lock-free poll took it meanwhile
        }
        Worker w = popIdle();
        waking.increment();
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

    /** Starts a reserved worker's thread (lock not held); on failure retires it and tells its requester. */
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

    private String overloaded(String why) {
        String queueNote = queue == null ? "" : " and its queue of " + queueCapacity + " is full";
        return "pool '" + name + "' is overloaded: all " + capacity + " workers are busy" + queueNote + " and " + why
                + "; retry later, raise the capacity or add a queue (queueCapacity)";
    }

    private Worker popIdle() { // lock held
        Worker w = idle.pop();
        idleCount = idle.size();
        return w;
    }

    private boolean hasRoom() { // lock held
        int c = capacity;
        return c < 0 || running < c;
    }

    /** Counts a new worker that will start with {@code firstTask}, or with the queue's head when null. Lock held. */
    private Worker reserveWorker(Object firstTask) {
        Worker w = new Worker(this, runner, firstTask);
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

    /** Called by a worker before it runs a task: keeps {@code shutdownNow}'s interrupt, clears a stray one. */
    void beforeTask() {
        if (state == State.STOP || Thread.interrupted() && state == State.STOP) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Finds a finished worker its next task: from the queue, else from the head of the caller line, else by going
     * idle until handed one (pooled) or ending (unpooled). Returns null when the worker must leave: surplus after a
     * shrink, the pool closed with nothing queued, stopped while idle, or unpooled with nothing to do.
     */
    Object nextTask(Worker w) {
        Object next = queued == null ? null : queued.pollSpinning();
        return next != null ? next : awaitNextTask(w);
    }

    /** {@link #nextTask} when the queue has nothing at hand: the locked path, then idle (or, unpooled, the end). */
    private Object awaitNextTask(Worker w) {
        Worker replacement = null;
        lock.lock();
        try {
            int c = capacity;
            if (c > 0 && running > c) {
                retire(w);
                return null;
            }
            if (queue != null && state != State.STOP) { // state first, then the queue (invariant 3)
                Object next = queued.poll();
                if (next != null) {
                    return next;
                }
            }
            if (state != State.OPEN) {
                retire(w);
                return null;
            }
            if (!line.isEmpty()) {
                Object callersTask = line.serveHead(); // run it instead of going idle (invariant 5)
                blocked = line.size();
                return callersTask;
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
        Object next = w.awaitHandoff(queue == null ? Spin.budget(Spin.HANDOFF_SPINS) : 0);
        if (next == Worker.STOP) {
            return null;
        }
        if (queue != null) {
            waking.decrement();
            if (!queue.isEmpty()) {
                dispatch(Dispatch.EVEN_IF_WAKING); // awake now: pass the queue's head on to one more (invariant 2)
            }
        }
        return next;
    }

    /** A worker thread leaves; if it died abnormally it is retired here and replaced when tasks are queued. */
    void workerExited(Worker w) {
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

    /** Retires workers just removed from the idle store; they are handed {@link Worker#STOP} after the lock. */
    private Worker[] retireIdle(Worker[] removed) {
        idleCount = idle.size();
        for (Worker w : removed) {
            retire(w);
        }
        return removed;
    }

    /** Stops counting a worker (its task counts are kept) and wakes whoever may now proceed. Lock held. */
    private void retire(Worker w) {
        w.retired = true;
        running--;
        workers.remove(w);
        line.wakeHead();
        termination.signalIfTerminated();
    }

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
            expired = retireIdle(idle.removeExpired(System.nanoTime() - expiryNanos));
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
     * Changes the capacity; no-op when unlimited, when {@code newCapacity <= 0}, or with preAlloc. Growing wakes the
     * blocked callers and starts workers for queued tasks; shrinking stops surplus idle workers now, busy ones later.
     */
    void tune(int newCapacity) {
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

    /**
     * Moves to {@code target} if that is further on: {@code SHUTDOWN} refuses new tasks, wakes blocked callers (to be
     * refused) and stops idle workers; {@code STOP} also drains the queue and interrupts running tasks. Returns the
     * drained tasks (as carried), or null when nothing changed.
     */
    List<Object> transitionTo(State target) {
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
            idleWorkers = retireIdle(idle.removeAll());
            if (target == State.STOP) {
                for (Object task; queue != null && (task = queue.poll()) != null; ) {
                    drained.add(task);
                }
                workers.forEach(w -> {
                    Thread t = w.thread;
                    if (t != null) {
                        t.interrupt();
                    }
                });
            }
            termination.signalIfTerminated();
        } finally {
            lock.unlock();
        }
        for (Worker w : idleWorkers) {
            w.handOff(Worker.STOP);
        }
        return drained;
    }

    /** Reopens a closed pool (no-op when open): it accepts tasks again and purges idle workers again. */
    void reboot() {
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

    /** Waits until the pool is closed and every worker has left; returns whether it did in time. */
    boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        return termination.await(timeout, unit);
    }

    /** @return the capacity, -1 when unlimited */
    int capacity() {
        return capacity;
    }

    /** @return workers alive: busy, idle and not yet purged, or starting */
    int running() {
        return running;
    }

    /** @return the task counts of every worker, retired or live, read under the lock so each counts once */
    LiveWorkers.Tally tally() {
        lock.lock();
        try {
            return workers.tally(threads.pooled());
        } finally {
            lock.unlock();
        }
    }

    /** @return whether the pool is open (any thread) */
    boolean isOpen() {
        return state == State.OPEN;
    }

    /** @return whether the pool is stopped (any thread) */
    boolean isStopped() {
        return state == State.STOP;
    }

    /** @return idle workers (any thread) */
    int idleWorkers() {
        return idleCount;
    }

    /** @return workers handed a task that have not woken up yet (any thread) */
    int wakingWorkers() {
        return waking.get();
    }

    /** @return callers blocked in the line (any thread) */
    int blockedCallers() {
        return blocked;
    }

    /** @return tasks in the queue */
    int queuedCount() {
        return queue == null ? 0 : queue.size();
    }

    /** @return whether the pool is closed and every worker has left */
    boolean isTerminated() {
        return state != State.OPEN && running == 0;
    }
}
