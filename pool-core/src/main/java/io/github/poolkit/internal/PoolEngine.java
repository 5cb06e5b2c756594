package io.github.poolkit.internal;

import io.github.poolkit.PoolClosedException;
import io.github.poolkit.PoolListener;
import io.github.poolkit.PoolOptions;
import io.github.poolkit.PoolOverloadException;
import io.github.poolkit.PoolStats;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The machinery shared by {@code WorkerPool}, {@code FuncPool} and {@code MultiPool} (ants' {@code poolCommon}): a
 * bounded set of worker threads, an idle-worker store, an optional FIFO queue, blocked callers, expiry, tuning and the
 * release/reboot life cycle. The pools differ only in what a payload is and how it runs ({@link #runner}).
 *
 * <h2>Implementation overview</h2>
 *
 * <p>One {@link ReentrantLock} guards the idle store, the worker set, the line of blocked callers, {@code state},
 * {@code capacity} and {@code running}. It is held only for O(1) bookkeeping (and the O(log n) expiry search), never
 * while a task runs or a thread is created. The optional FIFO queue is an array queue without a lock
 * ({@link TaskQueue}, which also keeps its bound), so in queued mode a busy pool takes and hands out tasks without the
 * lock: {@code execute} appends when the locked path would queue too (no worker is idle and there is no room to start
 * one, or a waking worker will pass the task on), and a finishing worker polls (one worker at a time spinning briefly
 * on a multi-core machine before it goes idle; the other idle workers park at once). Counters read without the lock
 * are volatile (or atomic); the metric getters ({@link #running()}, {@link #waiting()}, ...) return snapshots that may
 * be stale by the time they are used, which is all a gauge promises.
 *
 * <p>Invariants (whenever the lock is free and no lock-free append or poll is half done):
 * <ol>
 *   <li>{@code running} = workers reserved and not yet retired = busy workers + idle workers + workers starting.
 *       A worker is counted from the moment {@code execute} reserves it, under the lock, until it is retired, under
 *       the lock, so the check "running &lt; capacity" and the increment are one step and capacity is never exceeded
 *       (ants #374). {@code capacity} only shrinks by {@link #tune}, after which surplus workers retire.</li>
 *   <li>A task is never left in the queue beside an idle worker or free room with nobody to act on it. The lock-free
 *       steps are ordered so that of two racing threads at least one sees the other (each writes, then reads what the
 *       other writes; volatile and CAS accesses are sequentially consistent): an appender appends, then reads
 *       {@code idleCount}, {@code waking}, {@code running} and {@code state}; a worker going idle publishes
 *       {@code idleCount}, then looks at the queue; a woken worker decrements {@code waking}, then looks at the queue;
 *       a retiring worker decrements {@code running}, then (under the lock) looks at the queue. Whoever sees both a
 *       task and an idle worker (or room) calls {@link #dispatch}, which under the lock hands the head of the queue to
 *       an idle worker or starts a worker for it. While a worker handed a task in queued mode has not woken up
 *       ({@code waking > 0}), appenders leave that to it: once awake it passes the head of the queue to one more idle
 *       worker, so one wake-up drains a run of tasks instead of every task paying for an unpark (as
 *       {@code ThreadPoolExecutor}'s queue only signals when it becomes non-empty).</li>
 *   <li>If the queue is non-empty, at least one worker is running and will take from it: a lock-free append happens
 *       only when {@code running >= capacity >= 1}, or beside a waking worker; a worker retires only when surplus,
 *       when the pool is closed (it reads {@code state} before it finds the queue empty, and an appender that then
 *       sees the pool closed withdraws its task and is rejected, unless a worker or {@code shutdownNow} took the task
 *       first, in which case it was accepted), or from the idle store; a worker that dies abnormally is
 *       replaced.</li>
 *   <li>A worker in the idle store is parked (or about to park) in {@link Worker#awaitHandoff(boolean)} with an
 *       empty slot; whoever removes it from the store is the only one allowed to hand it a payload.</li>
 *   <li>Blocked callers wait in {@code callers}, a FIFO line of {@link BlockedCaller}s ({@code blocked} mirrors its
 *       size). Lock-free appends stand aside while {@code blocked > 0}, and a caller looks at the queue once more
 *       after joining the line. While the pool is open, a worker that takes a task from the queue while callers are
 *       blocked moves the head caller's task into the slot it freed and wakes that caller, whose task is then
 *       accepted; a worker that finds nothing queued runs the head caller's task itself instead of going idle. So
 *       while callers are blocked no worker is idle, and finishing workers serve callers in arrival order. Every
 *       other event that may let a caller proceed (a worker retires, capacity grows, the pool closes) wakes the head
 *       (or, for growth and closing, every caller) to retry, so no caller waits while it could proceed (this includes
 *       a purge that leaves the pool dormant, ants #146). A newcomer may still take room freed by such an event
 *       before the woken head does; the head then keeps its place.</li>
 * </ol>
 *
 * <p>State machine: {@code OPEN -> SHUTDOWN} ({@link #release}: no new tasks, queued ones drain) {@code -> STOP}
 * ({@link #shutdownNow}: queue handed back, running tasks interrupted); {@code SHUTDOWN/STOP -> OPEN} by
 * {@link #reboot}. The pool is terminated when it is not open and {@code running == 0}.
 */
public final class PoolEngine {

    /** Polls of the queue by a worker that found it empty, before it goes idle (multi-core, platform threads only). */
    private static final int QUEUE_SPINS = 128;
    /**
     * The most workers spinning on the queue at once. One keeps a busy pool from parking between tiny tasks; more
     * would take the cores from the threads that submit (measured: at 64 workers, uncapped spinners starved them).
     */
    private static final int MAX_SPINNERS = 1;

    private static final int OPEN = 0;
    private static final int SHUTDOWN = 1;
    private static final int STOP = 2;

    /** Stands for a {@code null} payload (a {@code FuncPool} argument), since null means "no task" in the slots. */
    private static final Object NULL_PAYLOAD = new Object();

    private static final System.Logger LOG = System.getLogger("io.github.poolkit");

    private final String name;
    private final Consumer<Object> runner;
    private final Consumer<Throwable> panicHandler;
    private final PoolListener listener;
    private final ThreadFactory threadFactory;
    /** Whether workers are unpooled virtual threads: a worker leaves when it finds no task, instead of going idle. */
    private final boolean virtualThreads;
    private final int queueCapacity;
    private final boolean preAlloc;
    private final long expiryNanos;

    private final ReentrantLock lock = new ReentrantLock();
    /** Callers blocked in execute, in arrival order. */
    private final ArrayDeque<BlockedCaller> callers = new ArrayDeque<>();
    /** Signalled when the pool becomes terminated. */
    private final Condition terminated = lock.newCondition();

    private final IdleWorkers idle;
    /** The FIFO queue, lock-free and bounded by {@code queueCapacity}; null when {@code queueCapacity == 0}. */
    private final TaskQueue queue;
    /** Queued mode only: workers handed a task that have not woken up yet; raised under the lock. */
    private final AtomicInteger waking = new AtomicInteger();
    /** Workers spinning on the queue ({@link #pollSpinning}), at most {@link #MAX_SPINNERS}. */
    private final AtomicInteger spinning = new AtomicInteger();
    private final Set<Worker> workers = new HashSet<>();
    private Future<?> purge;
    /** Tasks completed and failed on workers since retired; guarded by the lock (live workers keep their own). */
    private long retiredCompleted;
    private long retiredFailed;
    /** Tasks refused; rejection is not the hot path. */
    private final LongAdder rejected = new LongAdder();

    private volatile PoolOptions options;
    /** What a caller that cannot be served at once may do; swapped whole by {@link #reconfigure}. */
    private volatile WaitRules waitRules;
    private volatile int state = OPEN;
    private volatile int capacity;
    private volatile int running;
    private volatile int blocked;
    /** {@code idle.size()}, for lock-free readers. */
    private volatile int idleCount;

    /**
     * Creates an open pool with no workers yet.
     *
     * @param capacity the most workers; {@code <= 0} means unlimited
     * @param options  the options, already {@linkplain PoolOptions#validate(int) validated} for this capacity
     * @param runner   runs one payload on a worker thread
     */
    public PoolEngine(int capacity, PoolOptions options, Consumer<Object> runner) {
        this.options = options;
        this.name = options.name();
        this.runner = runner;
        this.capacity = capacity <= 0 ? -1 : capacity;
        this.panicHandler = options.panicHandler() != null ? options.panicHandler() : this::logPanic;
        this.listener = options.listener();
        this.virtualThreads = options.virtualThreads();
        this.threadFactory = virtualThreads ? NamedThreadFactory.virtual(name)
                : options.threadFactory() != null ? options.threadFactory() : NamedThreadFactory.platform(name);
        this.waitRules = WaitRules.of(options);
        this.queueCapacity = options.queueCapacity();
        this.preAlloc = options.preAlloc();
        this.expiryNanos = options.disablePurge() || virtualThreads ? -1 : saturatedNanos(options.expiry());
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

    // ---------------------------------------------------------------- submitting

    /**
     * Accepts a payload: hands it to an idle worker, else starts a worker while there is room, else queues it while
     * the queue has room, else fails fast or blocks until one of those becomes possible.
     *
     * @param payload the payload; {@code null} is carried as is (for FuncPool arguments)
     * @throws PoolClosedException        if the pool is, or becomes, closed
     * @throws PoolOverloadException      if the pool may not block and cannot take the payload now
     * @throws RejectedExecutionException if interrupted while blocked, or no worker thread could be started
     */
    public void execute(Object payload) {
        execute(payload, WaitRules.NO_LIMIT);
    }

    /**
     * Accepts a payload as {@link #execute(Object)} does, blocking at most {@code timeoutNanos} (or {@code maxWait},
     * whichever is shorter): for timed {@code invokeAll}/{@code invokeAny}.
     *
     * @param payload      the payload
     * @param timeoutNanos the caller's own limit on the wait; {@code <= 0} does not wait
     * @throws PoolOverloadException also when the wait ran out; the payload is then never run
     */
    public void execute(Object payload, long timeoutNanos) {
        Object item = payload == null ? NULL_PAYLOAD : payload;
        if (listener != null) {
            item = new TimedTask(item, System.nanoTime());
        }
        try {
            submit(item, timeoutNanos);
        } catch (RejectedExecutionException e) {
            rejected.increment();
            if (listener != null) {
                notifyRejected(e);
            }
            throw e;
        }
    }

    private void submit(Object item, long timeoutNanos) {
        if (queue != null && appendLockFree(item)) {
            return;
        }
        Worker toStart = null;
        boolean fresh = false;
        BlockedCaller me = null;
        WaitRules rules = waitRules;
        long waitNanos = rules.waitNanosFor(timeoutNanos);
        long deadline = 0;
        lock.lock();
        try {
            for (;;) {
                if (me != null && me.taken) {
                    return; // a finishing worker took the task (invariant 5)
                }
                if (state != OPEN) {
                    throw closed();
                }
                boolean behind = queue != null && (waking.get() > 0 && idleCount > 0 || !queue.isEmpty());
                if (behind && queue.offer(item) >= 0) {
                    // Behind tasks already queued, or for a waking worker to pass on (invariant 2).
                    toStart = dispatchLocked(false);
                    break;
                }
                if ((toStart = popIdle()) != null) {
                    if (queue != null) {
                        waking.incrementAndGet();
                    }
                    toStart.give(item);
                    break;
                }
                if (hasRoom()) {
                    toStart = reserveWorker(item);
                    fresh = true;
                    break;
                }
                if (queue != null && queue.offer(item) >= 0) {
                    return;
                }
                if (rules.nonblocking()) {
                    throw new PoolOverloadException(overloaded("the pool is nonblocking"));
                }
                if (waitNanos == 0) {
                    throw new PoolOverloadException(overloaded(waitNanos == rules.maxWaitNanos()
                            ? "maxWait is 0 (do not wait)" : "the caller's timeout has run out"));
                }
                if (me == null) {
                    int max = rules.maxBlockingTasks();
                    if (max > 0 && callers.size() >= max) {
                        throw new PoolOverloadException(overloaded(max + " callers are already blocked"
                                + " (maxBlockingTasks)"));
                    }
                    if (waitNanos != WaitRules.NO_LIMIT) {
                        deadline = System.nanoTime() + waitNanos;
                    }
                    me = new BlockedCaller(item, lock.newCondition());
                    callers.addLast(me);
                    blocked = callers.size();
                    continue; // look again: a lock-free poll may have freed a slot before it could see us (invariant 5)
                }
                if (waitNanos == WaitRules.NO_LIMIT) {
                    awaitWorker(me);
                } else if (!awaitWorker(me, deadline)) {
                    leaveLine(me);
                    throw new PoolOverloadException(overloaded("the caller waited "
                            + Duration.ofNanos(waitNanos).toString().substring(2).toLowerCase()
                            + (waitNanos == rules.maxWaitNanos() ? " (maxWait)" : " (the caller's timeout)")));
                }
            }
        } finally {
            if (me != null && !me.taken && callers.remove(me)) {
                blocked = callers.size();
            }
            lock.unlock();
        }
        if (toStart != null) {
            start(toStart, fresh);
        }
    }

    /**
     * Queued mode's lock-free path: appends {@code item} when that is what the locked path would do too (the pool is
     * open, {@link #queueIsNext}, no caller blocked to overtake, a slot free), then makes sure it does not sit beside
     * an idle worker or free room (invariant 2) or in a closed pool (invariant 3).
     *
     * @return whether the item was accepted; false when the locked path must decide
     */
    private boolean appendLockFree(Object item) {
        if (state != OPEN || blocked > 0 || !queueIsNext()) {
            return false;
        }
        long index = queue.offer(item);
        if (index < 0) {
            return false; // full: the locked path blocks or rejects
        }
        if (state != OPEN) {
            // Taken already means run by a worker, or handed back by shutdownNow: accepted either way.
            return !queue.withdraw(index, item); // withdrawn: the locked path rejects it
        }
        if (!queueIsNext()) {
            dispatch(false);
        }
        return true;
    }

    /**
     * Whether a new task belongs in the queue, as the locked path would decide: behind a waking worker that will pass
     * it on, or because no worker is idle and there is no room to start one (invariant 2).
     */
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
        if (task != null) {
            if (blocked > 0) {
                lock.lock();
                try {
                    BlockedCaller first = callers.peekFirst();
                    if (state == OPEN && first != null && queue.offer(first.item) >= 0) {
                        takeFromHeadCaller();
                    }
                } finally {
                    lock.unlock();
                }
            }
        }
        return task;
    }

    /** Gets a queued task moving if it sits beside an idle worker or free room (invariant 2); see dispatchLocked. */
    private void dispatch(boolean evenIfWaking) {
        Worker w;
        lock.lock();
        try {
            w = dispatchLocked(evenIfWaking);
        } finally {
            lock.unlock();
        }
        if (w != null) {
            start(w, false);
        }
    }

    /**
     * Hands the head of the queue to an idle worker (unless another worker is waking and will do it, or
     * {@code evenIfWaking}), or reserves a worker for the queue when none is idle and there is room. Lock held.
     *
     * @return the worker to {@link #start} once the lock is released, or null
     */
    private Worker dispatchLocked(boolean evenIfWaking) {
        if (queue == null || queue.isEmpty() || state == STOP) {
            return null;
        }
        if (idle.size() == 0) {
            return reserveForQueue();
        }
        if (waking.get() > 0 && !evenIfWaking) {
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

    /**
     * Wakes an idle worker that was given a payload, or launches a reserved one (with the caller's task:
     * {@code fromCaller}). Lock not held.
     */
    private void start(Worker w, boolean fromCaller) {
        if (w.thread == null) {
            launch(w, fromCaller);
        } else {
            w.wake();
        }
    }

    private PoolClosedException closed() {
        return new PoolClosedException("pool '" + name + "' is closed: it takes no new tasks (reboot() reopens it)");
    }

    /** Lock held. */
    private Worker popIdle() {
        Worker w = idle.pop();
        idleCount = idle.size();
        return w;
    }

    /**
     * Blocks a caller in the line, lock held, until its task is taken or it is woken to retry. Interrupted before its
     * task was taken, it leaves the line and gives up, keeping its interrupt status; interrupted after, it returns
     * (its task is accepted) with the interrupt status set.
     */
    private void awaitWorker(BlockedCaller me) {
        try {
            me.wake.await();
        } catch (InterruptedException e) {
            giveUpInterrupted(me, e);
        }
    }

    /**
     * Blocks a caller in the line, lock held, until its task is taken, it is woken to retry, or the deadline passes.
     * Interrupted, it gives up as {@link #awaitWorker(BlockedCaller)} does.
     *
     * @return false if the deadline has passed and the task was not taken: the caller must then {@link #leaveLine}
     */
    private boolean awaitWorker(BlockedCaller me, long deadline) {
        long nanos = deadline - System.nanoTime();
        if (nanos <= 0) {
            return me.taken;
        }
        try {
            me.wake.awaitNanos(nanos);
        } catch (InterruptedException e) {
            giveUpInterrupted(me, e);
        }
        return true;
    }

    /**
     * Takes a caller whose task was not taken out of the line, lock held. Workers hand tasks over only under the
     * lock, from the line, so once out of it the task can no longer be taken: it is either run or refused, never both.
     */
    private void leaveLine(BlockedCaller me) {
        callers.remove(me);
        blocked = callers.size();
        // Should a wake-up to retry have been meant for us, pass it on.
        if (idle.size() > 0 || hasRoom() || queueHasRoom()) {
            wakeHead();
        }
    }

    /** An interrupted caller leaves the line unless its task was taken; either way its interrupt status is set. */
    private void giveUpInterrupted(BlockedCaller me, InterruptedException e) {
        Thread.currentThread().interrupt();
        if (me.taken) {
            return;
        }
        leaveLine(me);
        RejectedExecutionException r = new RejectedExecutionException("interrupted while waiting for a worker of"
                + " pool '" + name + "': the task was not accepted");
        r.initCause(e);
        throw r;
    }

    /** Wakes the first blocked caller to retry. Lock held. */
    private void wakeHead() {
        BlockedCaller head = callers.peekFirst();
        if (head != null) {
            head.wake.signal();
        }
    }

    /** Wakes every blocked caller to retry. Lock held. */
    private void wakeAllCallers() {
        for (BlockedCaller c : callers) {
            c.wake.signal();
        }
    }

    /** Takes the first blocked caller's task, marks it accepted and wakes the caller; null when none. Lock held. */
    private Object takeFromHeadCaller() {
        BlockedCaller head = callers.pollFirst();
        if (head == null) {
            return null;
        }
        blocked = callers.size();
        head.taken = true;
        head.wake.signal();
        return head.item;
    }

    private String overloaded(String why) {
        String queueNote = queue == null ? "" : " and its queue of " + queueCapacity + " is full";
        return "pool '" + name + "' is overloaded: all " + capacity + " workers are busy" + queueNote + " and " + why
                + "; retry later, raise the capacity or add a queue (queueCapacity)";
    }

    private boolean queueHasRoom() {
        return queue != null && queue.hasRoom();
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

    /**
     * Starts the thread of a reserved worker; lock not held. If that fails, the worker is retired and the caller's task
     * goes back to it ({@code fromCaller}); a worker started for the queue had taken nothing from it.
     */
    private void launch(Worker w, boolean fromCaller) {
        try {
            Thread t = threadFactory.newThread(w);
            if (t == null) {
                throw new IllegalStateException("the thread factory returned null");
            }
            w.thread = t;
            t.start();
        } catch (Throwable e) {
            Worker replacement;
            lock.lock();
            try {
                w.firstTask = null;
                retire(w);
                // Tasks may have been queued behind this worker while it was counted; keep them moving.
                replacement = fromCaller ? dispatchLocked(false) : null;
            } finally {
                lock.unlock();
            }
            if (replacement != null) {
                start(replacement, false);
            }
            RejectedExecutionException r = new RejectedExecutionException("pool '" + name
                    + "' could not start a worker thread: " + e, e);
            if (fromCaller) {
                throw r;
            }
            panic(r);
        }
    }

    /** Reserves a worker for the queue if tasks are stranded there with room to run. Lock held. */
    private Worker reserveForQueue() {
        if (queue == null || queue.isEmpty() || state == STOP || !hasRoom()) {
            return null;
        }
        return reserveWorker(null);
    }

    // ---------------------------------------------------------------- workers

    /** The loop of a worker thread: run a payload, then take the next, until retired. */
    void runWorker(Worker w) {
        Object item = w.firstTask;
        w.firstTask = null;
        try {
            if (item == null) {
                item = nextTask(w); // started for the queue
            }
            while (item != null) {
                runTask(w, item);
                item = nextTask(w);
            }
        } finally {
            workerExited(w);
        }
    }

    /**
     * Finds a finished worker its next payload: from the queue, else by going idle until handed one. Returns null when
     * the worker must leave: surplus after a shrink, the pool closed with nothing queued, or stopped while idle.
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
            if (queue != null && state != STOP) { // state first, then the queue (invariant 3)
                Object next = pollQueued();
                if (next != null) {
                    return next;
                }
            }
            if (state != OPEN) {
                retire(w);
                return null;
            }
            if (!callers.isEmpty()) {
                return takeFromHeadCaller(); // run a blocked caller's task instead of going idle (invariant 5)
            }
            if (virtualThreads) {
                retire(w);
                // A lock-free append may have read running before this retirement (invariant 2).
                replacement = dispatchLocked(false);
                return null;
            }
            w.lastUsedNanos = System.nanoTime();
            idle.push(w);
            idleCount = idle.size();
        } finally {
            lock.unlock();
            if (replacement != null) {
                start(replacement, false);
            }
        }
        if (queue != null && !queue.isEmpty()) {
            dispatch(false); // an append may have missed us going idle (invariant 2)
        }
        Object next = w.awaitHandoff(queue == null); // queued: the queue's spinner is enough (see Worker)
        if (next == Worker.STOP) {
            return null;
        }
        if (queue != null) {
            waking.decrementAndGet();
            if (!queue.isEmpty()) {
                dispatch(true); // awake now: pass the head of the queue on to one more idle worker (invariant 2)
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
        if (mayTakeLockFree() && (next = pollQueued()) == null && Worker.spins() > 0 && startSpinning()) {
            try {
                for (int spins = QUEUE_SPINS; spins > 0 && state == OPEN && mayTakeLockFree(); spins--) {
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
        return state != STOP && (c < 0 || running <= c);
    }

    /** Counts the caller as a spinning worker if fewer than {@link #MAX_SPINNERS} are. */
    private boolean startSpinning() {
        for (int n; (n = spinning.get()) < MAX_SPINNERS; ) {
            if (spinning.compareAndSet(n, n + 1)) {
                return true;
            }
        }
        return false;
    }

    /** A worker thread leaves; if it died abnormally it is retired here and replaced when tasks are queued. */
    private void workerExited(Worker w) {
        Worker replacement = null;
        lock.lock();
        try {
            if (w.retired) {
                return;
            }
            retire(w);
            replacement = dispatchLocked(false);
        } finally {
            lock.unlock();
        }
        if (replacement != null) {
            start(replacement, false);
        }
    }

    /** Stops counting a worker and wakes whoever may now proceed. Lock held. */
    private void retire(Worker w) {
        w.retired = true;
        retiredCompleted += w.completedCount();
        retiredFailed += w.failedCount();
        running--;
        workers.remove(w);
        wakeHead();
        if (running == 0 && state != OPEN) {
            terminated.signalAll();
        }
    }

    private void runTask(Worker w, Object item) {
        Object payload = item;
        long submitted = 0;
        if (item instanceof TimedTask t) {
            payload = t.payload();
            submitted = t.submittedNanos();
        }
        if (state == STOP) {
            Thread.currentThread().interrupt();
        } else if (Thread.interrupted() && state == STOP) {
            Thread.currentThread().interrupt();
        }
        long started = listener == null ? 0 : System.nanoTime();
        Throwable failure = null;
        w.countStarted();
        try {
            runner.accept(payload == NULL_PAYLOAD ? null : payload);
        } catch (Throwable e) {
            failure = e;
            panic(e);
        }
        w.countFinished(failure == null ? Worker.Outcome.COMPLETED : Worker.Outcome.FAILED);
        if (listener != null) {
            notifyFinished(started - submitted, System.nanoTime() - started, failure);
        }
    }

    private void panic(Throwable e) {
        try {
            panicHandler.accept(e);
        } catch (Throwable handlerFailure) {
            handlerFailure.addSuppressed(e);
            LOG.log(System.Logger.Level.ERROR, "the panic handler of pool '" + name + "' threw", handlerFailure);
        }
    }

    private void logPanic(Throwable e) {
        LOG.log(System.Logger.Level.ERROR, "a task of pool '" + name + "' threw", e);
    }

    private void notifyFinished(long waited, long ran, Throwable failure) {
        try {
            listener.taskFinished(waited, ran, failure);
        } catch (Throwable e) {
            LOG.log(System.Logger.Level.WARNING, "the listener of pool '" + name + "' threw", e);
        }
    }

    private void notifyRejected(RuntimeException reason) {
        try {
            listener.taskRejected(reason);
        } catch (Throwable e) {
            LOG.log(System.Logger.Level.WARNING, "the listener of pool '" + name + "' threw", e);
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
            if (state != OPEN) {
                return;
            }
            expired = idle.removeExpired(System.nanoTime() - expiryNanos);
            idleCount = idle.size();
            for (Worker w : expired) {
                retire(w);
            }
            fresh = dispatchLocked(false); // an append may have seen the purged workers idle (invariant 2)
        } finally {
            lock.unlock();
        }
        for (Worker w : expired) {
            w.handOff(Worker.STOP);
        }
        if (fresh != null) {
            start(fresh, false);
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
            if (newCapacity > old) {
                wakeAllCallers();
                Worker w;
                for (int n = queue == null ? 0 : queue.size(); n > 0 && (w = reserveForQueue()) != null; n--) {
                    toStart.add(w);
                }
            } else {
                Worker w;
                while (running > newCapacity && (w = popIdle()) != null) {
                    retire(w);
                    toStop.add(w);
                }
            }
        } finally {
            lock.unlock();
        }
        toStop.forEach(w -> w.handOff(Worker.STOP));
        toStart.forEach(w -> launch(w, false));
    }

    // ---------------------------------------------------------------- life cycle

    /**
     * Closes the pool if it is open: new tasks are rejected, blocked callers get {@link PoolClosedException}, idle
     * workers stop, running and queued tasks finish. A second call is a no-op.
     *
     * @return whether this call closed the pool
     */
    public boolean release() {
        return close(SHUTDOWN) != null;
    }

    /**
     * Closes the pool like {@link #release()}, also taking the queued payloads out and interrupting running tasks.
     *
     * @return the payloads that were queued and will not run
     */
    public List<Object> shutdownNow() {
        List<Object> drained = close(STOP);
        return drained == null ? List.of() : drained;
    }

    /** Moves to {@code target} if that is further on; returns the drained queue, or null when nothing changed. */
    private List<Object> close(int target) {
        Worker[] idleWorkers;
        List<Object> drained = new ArrayList<>();
        lock.lock();
        try {
            if (state >= target) {
                return null;
            }
            state = target;
            if (purge != null) {
                purge.cancel(false);
                purge = null;
            }
            wakeAllCallers();
            idleWorkers = idle.removeAll();
            idleCount = 0;
            for (Worker w : idleWorkers) {
                retire(w);
            }
            if (target == STOP) {
                if (queue != null) {
                    for (Object item; (item = queue.poll()) != null; ) {
                        Object p = item instanceof TimedTask t ? t.payload() : item;
                        drained.add(p == NULL_PAYLOAD ? null : p);
                    }
                }
                for (Worker w : workers) {
                    Thread t = w.thread;
                    if (t != null) {
                        t.interrupt();
                    }
                }
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
            if (state == OPEN) {
                return;
            }
            state = OPEN;
            startPurging();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until the pool is closed and every worker has left.
     *
     * @param timeout how long to wait
     * @param unit    the unit of {@code timeout}
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

    // ---------------------------------------------------------------- metrics (racy snapshots, see overview)

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
        return blocked + queuedCount();
    }

    /**
     * @return a snapshot of the pool's figures: the task counts of retired workers plus those of the live ones, summed
     *         under the lock (which retirement also holds, so each worker counts exactly once)
     */
    public PoolStats stats() {
        long completed;
        long failed;
        int busy = 0;
        lock.lock();
        try {
            completed = retiredCompleted;
            failed = retiredFailed;
            for (Worker w : workers) {
                completed += w.completedCount();
                failed += w.failedCount();
                if (w.isBusy()) {
                    busy++;
                }
            }
        } finally {
            lock.unlock();
        }
        int r = running;
        if (virtualThreads) {
            busy = r; // a worker exists only for its tasks, from the moment it is reserved for one
        }
        return new PoolStats(capacity, r, busy, queuedCount(), blocked, completed, failed, rejected.sum(),
                state != OPEN);
    }

    private int queuedCount() {
        return queue == null ? 0 : queue.size();
    }

    /** @return whether the pool has been released (and not rebooted) */
    public boolean isClosed() {
        return state != OPEN;
    }

    /** @return whether the pool is closed and every worker has left */
    public boolean isTerminated() {
        return state != OPEN && running == 0;
    }

    @Override
    public String toString() {
        return "pool '" + name + "' [capacity=" + capacity + ", running=" + running + ", waiting=" + waiting()
                + ", " + (state == OPEN ? "open" : isTerminated() ? "terminated" : "closed") + "]";
    }

    /** A payload with the time it was submitted; only made when a {@link PoolListener} is set. */
    private record TimedTask(Object payload, long submittedNanos) {
    }
}
