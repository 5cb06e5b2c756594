package io.github.poolkit.internal;

import io.github.poolkit.PoolClosedException;
import io.github.poolkit.PoolListener;
import io.github.poolkit.PoolOptions;
import io.github.poolkit.PoolOverloadException;

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
 * <p>One {@link ReentrantLock} guards all mutable state: the idle store, the queue, the worker set, {@code state},
 * {@code capacity}, {@code running}, {@code blocked} and {@code queued}. It is held only for O(1) bookkeeping (and the
 * O(log n) expiry search), never while a task runs or a thread is created. The counters are also volatile so that the
 * metric getters ({@link #running()}, {@link #waiting()}, ...) can read them without the lock: each such read is a
 * snapshot that may be stale by the time it is used, which is all a gauge promises.
 *
 * <p>Invariants (whenever the lock is free):
 * <ol>
 *   <li>{@code running} = workers reserved and not yet retired = busy workers + idle workers + workers starting.
 *       A worker is counted from the moment {@code execute} reserves it, under the lock, until it is retired, under
 *       the lock, so the check "running &lt; capacity" and the increment are one step and capacity is never exceeded
 *       (ants #374). {@code capacity} only shrinks by {@link #tune}, after which surplus workers retire.</li>
 *   <li>If the queue is non-empty, the idle store is empty or {@code waking > 0}. A worker only goes idle after
 *       finding the queue empty. {@code execute} queues after finding no idle worker, or, in queued mode, while a
 *       worker it handed a task to has not woken up yet ({@code waking > 0}): that worker, once awake, hands the head
 *       of the queue to one more idle worker (and counts it as waking), so one wake-up drains a run of tasks instead
 *       of every task paying for an unpark (as {@code ThreadPoolExecutor}'s queue only signals when it becomes
 *       non-empty). A worker that wakes to a non-empty queue and no idle worker needs no help: every worker is busy
 *       and will take from the queue when it finishes (or, if the idle workers were purged meanwhile and left room,
 *       it starts a new worker for the head of the queue).</li>
 *   <li>If the queue is non-empty, at least one worker is running and will take from it: tasks are queued only when
 *       {@code running >= capacity >= 1}; a worker retires only when surplus, when the pool is closed and the queue is
 *       empty, or from the idle store (so the queue was empty); a worker that dies abnormally is replaced.</li>
 *   <li>A worker in the idle store is parked (or about to park) in {@link Worker#awaitHandoff()} with an empty slot;
 *       whoever removes it from the store is the only one allowed to hand it a payload.</li>
 *   <li>Blocked callers wait in {@code callers}, a FIFO line of {@link BlockedCaller}s ({@code blocked} mirrors its
 *       size). While the pool is open, a worker that finishes never goes idle or takes from the queue without serving
 *       the head of that line: it runs the head's task next, or moves it into the queue slot it just freed, and wakes
 *       the caller, whose task is then accepted. So while callers are blocked no worker is idle, and finishing workers
 *       serve callers in arrival order. Every other event that may let a caller proceed (a worker retires, capacity
 *       grows, the pool closes) wakes the head (or, for growth and closing, every caller) to retry, so no caller waits
 *       while it could proceed (this includes a purge that leaves the pool dormant, ants #146). A newcomer may still
 *       take room freed by such an event before the woken head does; the head then keeps its place.</li>
 * </ol>
 *
 * <p>State machine: {@code OPEN -> SHUTDOWN} ({@link #release}: no new tasks, queued ones drain) {@code -> STOP}
 * ({@link #shutdownNow}: queue handed back, running tasks interrupted); {@code SHUTDOWN/STOP -> OPEN} by
 * {@link #reboot}. The pool is terminated when it is not open and {@code running == 0}.
 */
public final class PoolEngine {

    private static final int OPEN = 0;
    private static final int SHUTDOWN = 1;
    private static final int STOP = 2;

    /** Stands for a {@code null} payload (a {@code FuncPool} argument), since null means "no task" in the slots. */
    private static final Object NULL_PAYLOAD = new Object();

    /** The largest capacity a pre-allocated idle store is made for. */
    static final int MAX_PREALLOC = 1 << 24;

    private static final System.Logger LOG = System.getLogger("io.github.poolkit");

    private final String name;
    private final Consumer<Object> runner;
    private final Consumer<Throwable> panicHandler;
    private final PoolListener listener;
    private final ThreadFactory threadFactory;
    private final boolean nonblocking;
    private final int maxBlockingTasks;
    private final int queueCapacity;
    private final boolean preAlloc;
    private final long expiryNanos;

    private final ReentrantLock lock = new ReentrantLock();
    /** Callers blocked in execute, in arrival order. */
    private final ArrayDeque<BlockedCaller> callers = new ArrayDeque<>();
    /** Signalled when the pool becomes terminated. */
    private final Condition terminated = lock.newCondition();

    private final IdleWorkers idle;
    private final ArrayDeque<Object> queue;
    private final Set<Worker> workers = new HashSet<>();
    private Future<?> purge;

    private volatile int state = OPEN;
    private volatile int capacity;
    private volatile int running;
    private volatile int blocked;
    private volatile int queued;
    /** Queued mode only: workers handed a task by {@code execute} that have not yet woken up. Lock held. */
    private int waking;

    /**
     * Creates an open pool with no workers yet.
     *
     * @param capacity the most workers; {@code <= 0} means unlimited
     * @param options  the options, checked here
     * @param runner   runs one payload on a worker thread
     * @throws IllegalArgumentException if the options are invalid for this capacity
     */
    public PoolEngine(int capacity, PoolOptions options, Consumer<Object> runner) {
        check(capacity, options);
        this.name = options.name();
        this.runner = runner;
        this.capacity = capacity <= 0 ? -1 : capacity;
        this.panicHandler = options.panicHandler() != null ? options.panicHandler() : this::logPanic;
        this.listener = options.listener();
        this.threadFactory = options.threadFactory() != null
                ? options.threadFactory() : new NamedThreadFactory(options.name(), false);
        this.nonblocking = options.nonblocking();
        this.maxBlockingTasks = options.maxBlockingTasks();
        this.queueCapacity = options.queueCapacity();
        this.preAlloc = options.preAlloc();
        this.expiryNanos = options.disablePurge() ? -1 : saturatedNanos(options.expiry());
        this.idle = IdleWorkers.create(preAlloc, capacity);
        this.queue = queueCapacity == 0 ? null : new ArrayDeque<>(queueCapacity > 0 ? Math.min(queueCapacity, 1024) : 16);
        startPurging();
    }

    private static long saturatedNanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE;
        }
    }

    /** Checks the options together, against the capacity, as API.md promises. */
    private static void check(int capacity, PoolOptions o) {
        if (o.expiry().isNegative() && !o.disablePurge()) {
            throw new IllegalArgumentException("expiry must not be negative, was " + o.expiry()
                    + ": give a positive duration (zero means the default, 1s), or set disablePurge(true)");
        }
        if (o.preAlloc() && capacity <= 0) {
            throw new IllegalArgumentException("preAlloc needs a bounded capacity, but capacity was " + capacity
                    + " (unlimited): give a capacity > 0, or set preAlloc(false)");
        }
        if (o.preAlloc() && capacity > MAX_PREALLOC) {
            throw new IllegalArgumentException("preAlloc with capacity " + capacity + " would allocate too much up front"
                    + ": use a capacity <= " + MAX_PREALLOC + ", or set preAlloc(false)");
        }
        if (o.maxBlockingTasks() < 0) {
            throw new IllegalArgumentException("maxBlockingTasks must be >= 0 (0 = no limit), was "
                    + o.maxBlockingTasks());
        }
        if (o.queueCapacity() < -1) {
            throw new IllegalArgumentException("queueCapacity must be -1 (unbounded), 0 (no queue) or > 0, was "
                    + o.queueCapacity());
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
        Object item = payload == null ? NULL_PAYLOAD : payload;
        if (listener != null) {
            item = new TimedTask(item, System.nanoTime());
        }
        try {
            submit(item);
        } catch (RejectedExecutionException e) {
            if (listener != null) {
                notifyRejected(e);
            }
            throw e;
        }
    }

    private void submit(Object item) {
        Worker idleWorker;
        Worker fresh = null;
        BlockedCaller me = null;
        lock.lock();
        try {
            for (;;) {
                if (me != null && me.taken) {
                    return; // a finishing worker took the task (invariant 5)
                }
                if (state != OPEN) {
                    throw new PoolClosedException("pool '" + name + "' is closed: it takes no new tasks"
                            + " (reboot() reopens it)");
                }
                if (waking > 0 && idle.size() > 0 && queueHasRoom()) {
                    enqueue(item); // a waking worker will pass it on (invariant 2)
                    return;
                }
                if ((idleWorker = idle.pop()) != null) {
                    if (queue != null) {
                        waking++;
                    }
                    break;
                }
                if (hasRoom()) {
                    fresh = reserveWorker(item);
                    break;
                }
                if (queueHasRoom()) {
                    enqueue(item);
                    return;
                }
                if (nonblocking) {
                    throw new PoolOverloadException(overloaded("the pool is nonblocking"));
                }
                if (me == null) {
                    if (maxBlockingTasks > 0 && callers.size() >= maxBlockingTasks) {
                        throw new PoolOverloadException(overloaded(maxBlockingTasks + " callers are already blocked"
                                + " (maxBlockingTasks)"));
                    }
                    me = new BlockedCaller(item, lock.newCondition());
                    callers.addLast(me);
                    blocked = callers.size();
                }
                awaitWorker(me);
            }
        } finally {
            if (me != null && !me.taken && callers.remove(me)) {
                blocked = callers.size();
            }
            lock.unlock();
        }
        if (idleWorker != null) {
            idleWorker.handOff(item);
        } else {
            launch(fresh, true);
        }
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
            Thread.currentThread().interrupt();
            if (me.taken) {
                return;
            }
            callers.remove(me);
            blocked = callers.size();
            // Should a wake-up to retry have been meant for us, pass it on.
            if (idle.size() > 0 || hasRoom() || queueHasRoom()) {
                wakeHead();
            }
            RejectedExecutionException r = new RejectedExecutionException("interrupted while waiting for a worker of"
                    + " pool '" + name + "': the task was not accepted");
            r.initCause(e);
            throw r;
        }
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

    /** Lock held. */
    private void enqueue(Object item) {
        queue.addLast(item);
        queued = queue.size();
    }

    /** Lock held. */
    private boolean queueHasRoom() {
        return queue != null && (queueCapacity < 0 || queue.size() < queueCapacity);
    }

    /** Lock held. */
    private boolean hasRoom() {
        int c = capacity;
        return c < 0 || running < c;
    }

    /** Counts a new worker that will start with {@code firstTask}. Lock held. */
    private Worker reserveWorker(Object firstTask) {
        Worker w = new Worker(this, firstTask);
        running++;
        workers.add(w);
        return w;
    }

    /**
     * Starts the thread of a reserved worker; lock not held. If that fails, the worker is retired and its first task
     * goes back to the caller ({@code fromCaller}) or to the head of the queue.
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
            boolean dropped = false;
            lock.lock();
            try {
                Object task = w.firstTask;
                w.firstTask = null;
                retire(w);
                if (!fromCaller) {
                    if (state == STOP) {
                        dropped = true; // shutdownNow has already handed the queue back
                    } else {
                        queue.addFirst(task);
                        queued = queue.size();
                    }
                }
                // Tasks may have been queued behind this worker while it was counted; keep them moving.
                replacement = fromCaller ? reserveForQueue() : null;
            } finally {
                lock.unlock();
            }
            if (replacement != null) {
                launch(replacement, false);
            }
            RejectedExecutionException r = new RejectedExecutionException("pool '" + name
                    + "' could not start a worker thread" + (dropped ? " (a queued task was dropped)" : "")
                    + ": " + e, e);
            if (fromCaller) {
                throw r;
            }
            panic(r);
        }
    }

    /** Reserves a worker for the head of the queue if it is stranded there with room to run. Lock held. */
    private Worker reserveForQueue() {
        if (queue == null || queue.isEmpty() || state == STOP || !hasRoom()) {
            return null;
        }
        Worker w = reserveWorker(queue.pollFirst());
        queued = queue.size();
        return w;
    }

    // ---------------------------------------------------------------- workers

    /** The loop of a worker thread: run a payload, then take the next, until retired. */
    void runWorker(Worker w) {
        Object item = w.firstTask;
        w.firstTask = null;
        try {
            while (item != null) {
                runTask(item);
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
        lock.lock();
        try {
            int c = capacity;
            if (c > 0 && running > c) {
                retire(w);
                return null;
            }
            if (queue != null && !queue.isEmpty()) {
                Object next = queue.pollFirst();
                if (state == OPEN && !callers.isEmpty()) {
                    queue.addLast(takeFromHeadCaller()); // into the slot just freed (invariant 5)
                }
                queued = queue.size();
                return next;
            }
            if (state != OPEN) {
                retire(w);
                return null;
            }
            if (!callers.isEmpty()) {
                return takeFromHeadCaller(); // run a blocked caller's task instead of going idle (invariant 5)
            }
            w.lastUsedNanos = System.nanoTime();
            idle.push(w);
        } finally {
            lock.unlock();
        }
        Object next = w.awaitHandoff();
        if (next == Worker.STOP) {
            return null;
        }
        if (queue != null) {
            passOnQueuedWork();
        }
        return next;
    }

    /**
     * Called by a worker that {@code execute} woke in queued mode: it is awake now, and hands the head of the queue to
     * one more idle worker if both exist (invariant 2).
     */
    private void passOnQueuedWork() {
        Worker other = null;
        Worker fresh = null;
        Object task = null;
        lock.lock();
        try {
            waking--;
            if (!queue.isEmpty()) {
                if ((other = idle.pop()) != null) {
                    task = queue.pollFirst();
                    queued = queue.size();
                    waking++;
                } else {
                    fresh = reserveForQueue(); // the idle workers were purged meanwhile, leaving room
                }
            }
        } finally {
            lock.unlock();
        }
        if (other != null) {
            other.handOff(task);
        } else if (fresh != null) {
            launch(fresh, false);
        }
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
            replacement = reserveForQueue();
        } finally {
            lock.unlock();
        }
        if (replacement != null) {
            launch(replacement, false);
        }
    }

    /** Stops counting a worker and wakes whoever may now proceed. Lock held. */
    private void retire(Worker w) {
        w.retired = true;
        running--;
        workers.remove(w);
        wakeHead();
        if (running == 0 && state != OPEN) {
            terminated.signalAll();
        }
    }

    private void runTask(Object item) {
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
        try {
            runner.accept(payload == NULL_PAYLOAD ? null : payload);
        } catch (Throwable e) {
            failure = e;
            panic(e);
        }
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
        lock.lock();
        try {
            if (state != OPEN) {
                return;
            }
            expired = idle.removeExpired(System.nanoTime() - expiryNanos);
            for (Worker w : expired) {
                retire(w);
            }
        } finally {
            lock.unlock();
        }
        for (Worker w : expired) {
            w.handOff(Worker.STOP);
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
                for (Worker w; (w = reserveForQueue()) != null; ) {
                    toStart.add(w);
                }
            } else {
                Worker w;
                while (running > newCapacity && (w = idle.pop()) != null) {
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
            for (Worker w : idleWorkers) {
                retire(w);
            }
            if (target == STOP) {
                if (queue != null) {
                    for (Object item; (item = queue.pollFirst()) != null; ) {
                        Object p = item instanceof TimedTask t ? t.payload() : item;
                        drained.add(p == NULL_PAYLOAD ? null : p);
                    }
                    queued = 0;
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
                    + queued + " tasks queued after " + timeout);
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
        return blocked + queued;
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
