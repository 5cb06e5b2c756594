package io.github.poolkit.internal.pool;

import io.github.poolkit.internal.Durations;
import io.github.poolkit.internal.PaddedLong;
import io.github.poolkit.PoolOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * The workers of a {@link PoolEngine}: at most {@code capacity} of them, the idle ones ({@link IdleStack}), an optional
 * FIFO queue ({@link TaskQueue}, with its lock-free side {@link QueuedPath}), the line of blocked callers
 * ({@link CallerLine}); closing, tuning and expiry are {@link PoolLifecycle}'s, starting threads
 * {@link WorkerLaunch}'s. A task's path: {@link #admit} hands it to an idle worker or appends it to the queue without
 * a lock, else decides under the lock (start a worker, refuse, or block the caller); a {@link Worker} runs it through
 * the {@link TaskRunner}, then finds its next task in {@link #nextTask}.
 *
 * <h2>Built for many processors</h2>
 *
 * <p>Nothing that every worker does per task takes the pool's lock: a busy worker takes its next task from the queue
 * with one CAS (from 4 processors, one taker at a time under a take lock of the queue's, {@link QueuedPath}); a
 * worker with nothing to do pushes itself on the lock-free idle stack and parks on its own permit; a caller or
 * worker that wants one claims it with one CAS and unparks it. Task counts are per worker ({@link Worker}). In a queued
 * pool at most one worker at a time is the <em>searcher</em> (woken and not yet at the queue, or spinning on it), and
 * nobody wakes another worker while there is one: a run of appends costs one wake-up, and each worker that finds more
 * work wakes the next ({@link QueuedPath}). Spinning is bounded, and only done where a processor is free.
 *
 * <p>The lock ({@link ReentrantLock}) guards what changes rarely: reserving and retiring workers ({@code running},
 * the worker set), the caller line, {@code state}, {@code capacity}, expiry and shutdown. It is taken on the task path
 * only when the pool is growing (no worker idle and room for one), full (callers block), shrinking or closing.
 *
 * <p>Invariants (whenever the lock is free and no lock-free step is half done):
 * <ol>
 *   <li>{@code running} = workers reserved and not yet retired (busy + idle + starting). A worker is counted from
 *       the moment it is reserved, under the lock, until it is retired, under the lock, so "running &lt; capacity"
 *       and the increment are one step and capacity is never exceeded (ants #374). Whoever claims an idle worker with
 *       {@link Worker#STOP} has retired it under the lock.</li>
 *   <li>A queued task is never left beside an idle worker with nobody on the way. Appending and going idle are a
 *       Dekker pair: an appender appends, then reads the idle count and the searcher count; a worker going idle pushes
 *       itself (counting itself idle), then reads the queue; a searcher stops searching, then reads the queue. All of
 *       these are volatile or CAS accesses, so of two racing threads at least one sees the other and calls
 *       {@link QueuedPath#signalWork}, which wakes an idle worker unless a searcher is on its way, or reserves a worker
 *       if none is idle and there is room.</li>
 *   <li>If the queue is non-empty, a worker is running and will take from it: a lock-free append happens only with a
 *       worker idle (then 2 applies) or none to start ({@code running >= capacity >= 1}); a worker retires only when
 *       surplus, when the pool is closed (it reads {@code state} before it finds the queue empty, and an appender that
 *       then sees the pool closed withdraws its task, unless a worker or {@code shutdownNow} took it first), when
 *       claimed with STOP (expiry, shutdown: both then reserve a worker for a non-empty queue), taken out by a
 *       close that found nothing queued while it held no task and had taken none ({@link Worker#takeOutIfDone}), or
 *       unpooled with nothing queued; a worker that dies abnormally is replaced.</li>
 *   <li>While callers are blocked, no worker stays idle: a caller joins the line (raising {@code blocked}), then tries
 *       to claim an idle worker; a worker going idle pushes itself, then reads {@code blocked} and serves the line
 *       ({@link #serveLine}). A worker that frees a queue slot moves the head caller's task into it, and a worker that
 *       finds nothing queued runs the head caller's task, so callers are served in arrival order. Every other event
 *       that may let a caller proceed (a worker retires, capacity grows) wakes the head, or every caller, to retry
 *       (this includes a purge that leaves the pool dormant, ants #146); closing the pool takes every caller out of
 *       the line, refused, so that none of their tasks is taken afterwards, even if the pool is rebooted at once.</li>
 *   <li>A virtual thread never runs a second task (unpooled workers, {@link WorkerThreads}): when its task ends and
 *       work waits (queued, or a caller in line), a fresh worker takes over its reservation and fetches that work on
 *       its own thread, so a thread that cannot start takes no task with it ({@link UnpooledPath}).</li>
 *   <li>No worker thread is started, and so neither the thread factory nor (when a start fails) the panic handler
 *       runs, with the lock held: both are the user's code, and may wait for a thread that needs the lock (one
 *       reading the pool's stats, or submitting to it). Whatever reserves a worker under the lock hands it to
 *       {@link WorkerLaunch} once the lock is let go; a thread that takes from the queue under the lock moves the head
 *       caller in there too, but calls {@link QueuedPath#signalWork} (which may start a worker) only after.</li>
 * </ol>
 *
 * The pool is terminated when it is not open, {@code running == 0} and, unless stopped, nothing is queued
 * ({@link PoolLifecycle#transitionTo}); once it is, it stays so until a reboot, even while a task appended by a
 * caller who saw the pool open sits in the queue for the instant before the caller withdraws it ({@link Termination}),
 * and no worker is started for such a task ({@link #reserveForQueue}). Queued tasks that no worker could be started
 * for (the thread factory failed) get one later ({@link WorkerLaunch}), unless {@code shutdownNow} hands them back
 * first.
 *
 * <p>Overdue tasks ({@code runTimeout}, {@code queueTimeout}) are found off the task path by the shared
 * {@link OverdueChecker}, through {@link OverdueWatch}: without a timeout nothing here changes; with one, workers
 * publish their task in fields of their own and queued tasks and blocked callers carry their accept time.
 */
final class PoolCore {

    /** The life cycle: {@code OPEN -> SHUTDOWN -> STOP}, and back to {@code OPEN} by {@link PoolLifecycle#reboot}. */
    enum State { OPEN, SHUTDOWN, STOP }

    /** {@link #lockedNextTask}'s answer when the worker should go idle without the lock. */
    private static final Object GO_IDLE = new Object();

    private final String name;
    private final TaskRunner runner;
    /** The caller's path under the lock. */
    private final LockedAdmission admission;
    private final WorkerThreads threads;
    final int queueCapacity;
    final boolean preAlloc;

    final ReentrantLock lock = new ReentrantLock();
    final CallerLine line;
    final Termination termination = new Termination(lock, this::terminatedNow);
    final IdleStack idle = new IdleStack();
    /** The FIFO queue, lock-free and bounded by {@code queueCapacity}; null when {@code queueCapacity == 0}. */
    final TaskQueue queue;
    /** The queue's lock-free side; null without a queue. */
    final QueuedPath queued;
    /** The lock-free side of a pooled pool without a queue; null otherwise. */
    private final HandOffPath handOff;
    /** The lock-free side of an unpooled pool; null for a pooled one. */
    final UnpooledPath unpooled;
    final WorkerSet workers;
    /** Finds overdue tasks; null without a run or queue timeout. */
    final OverdueWatch overdue;
    /** Closing, reopening, tuning, and the periodic chores (purge, overdue checks). */
    final PoolLifecycle lifecycle;
    /** Starts reserved workers' threads, and deals with a thread that cannot be started. */
    final WorkerLaunch launch;

    /** Written under the lock ({@link PoolLifecycle}); read anywhere. */
    volatile State state = State.OPEN;
    /** Written under the lock ({@link PoolLifecycle#tune}); read anywhere. */
    volatile int capacity;
    /**
     * Workers counted (invariant 1). Atomic updates only, on a cache line of its own: unpooled workers reserve and
     * retire without the lock, a task each, and must not invalidate the fields every caller reads.
     */
    final PaddedLong running = new PaddedLong();
    /** {@code line.size()}, for lock-free readers: set under the lock after every change to the line. */
    private volatile int blocked;

    /** An open pool of at most {@code capacity} workers ({@code <= 0}: unlimited) on {@code threads}; options valid. */
    PoolCore(int capacity, PoolOptions options, WorkerThreads threads, TaskRunner runner,
             Supplier<WaitRules> waitRules) {
        this.admission = new LockedAdmission(this, waitRules);
        this.name = options.name();
        this.runner = runner;
        this.threads = threads;
        this.launch = new WorkerLaunch(this, threads, runner);
        this.capacity = capacity <= 0 ? -1 : capacity;
        this.queueCapacity = options.queueCapacity();
        this.preAlloc = options.preAlloc();
        this.line = new CallerLine(lock, name);
        this.overdue = OverdueWatch.of(this, runner, options);
        this.queue = queueCapacity == 0 ? null : new TaskQueue(queueCapacity, watchesQueue());
        this.queued = queue == null ? null : new QueuedPath(this, queue, idle);
        this.handOff = queue == null && threads.pooled() ? new HandOffPath(this, idle) : null;
        this.workers = WorkerSet.of(threads.pooled(), capacity, () -> (int) running.get());
        this.unpooled = threads.pooled() ? null : new UnpooledPath(this, runner, threads, workers, queue);
        boolean purged = threads.pooled() && !options.disablePurge();
        this.lifecycle = new PoolLifecycle(this, purged ? Durations.toNanosSaturated(options.expiry()) : -1);
        lifecycle.startChores();
    }

    /**
     * Accepts a task ({@link TaskRunner#carry carried}): hands it to an idle worker or appends it to the queue
     * without a lock, else decides under the lock (see {@link PoolEngine#execute(Object, long)} for what it throws).
     * Small on purpose, like {@link #nextTask}, so that the JIT inlines the lock-free path into the caller.
     */
    void admit(Object task, long timeoutNanos) {
        boolean accepted = queued != null ? queued.tryAppend(task)
                : handOff != null ? handOff.tryHandOff(task) : unpooled.tryStart(task);
        if (!accepted) {
            admission.admit(task, timeoutNanos);
        }
    }

    /** Mirrors the line's size in {@code blocked} for lock-free readers, after every change to the line. Lock held. */
    void lineChanged() {
        blocked = line.size();
    }

    /** Takes the head caller's task off the line to run it now, keeping {@code blocked} in step. Lock held. */
    Object serveHeadCaller() {
        Object callersTask = line.serveHead();
        lineChanged();
        return callersTask;
    }

    /** Reserves and starts a worker for the queue if tasks wait there with room to run (invariant 3). */
    void startWorkerForQueue() {
        Worker w;
        lock.lock();
        try {
            w = reserveForQueue();
        } finally {
            lock.unlock();
        }
        if (w != null) {
            launch.forPool(w);
        }
    }

    /** {@return whether another worker may be reserved (racy without the lock)} */
    boolean hasRoom() {
        int c = capacity;
        return c < 0 || running.get() < c;
    }

    /** {@return whether more workers are counted than the capacity allows (after a shrink; racy without the lock)} */
    boolean surplus() {
        int c = capacity;
        return c > 0 && running.get() > c;
    }

    /** {@return a counted worker to start with {@code firstTask} (null: queued work), or null: no room} Lock held. */
    Worker reserveWorker(Object firstTask) {
        if (!tryReserve()) {
            return null;
        }
        Worker w = new Worker(this, runner, firstTask);
        if (threads.pooled()) {
            workers.add(w); // an unpooled one: as it starts, or now if a fetcher (UnpooledPath#asFetcherLocked)
            if (firstTask == null) {
                w.holdsNoTask(); // for the queue: a close that finds it empty may retire this one before it starts
            }
        }
        return w;
    }

    /** Counts one more worker if there is room: "running &lt; capacity" and the increment in one step (invariant 1). */
    boolean tryReserve() {
        for (;;) {
            int c = capacity;
            long r = running.get();
            if (c >= 0 && r >= c) {
                return false;
            }
            if (running.compareAndSet(r, r + 1)) {
                return true;
            }
        }
    }

    /**
     * Reserves a worker for the queue if tasks are stranded there with room to run; none once the pool has terminated
     * (a task queued since is an appender's that will be withdrawn and refused, see {@link Termination}). Lock held.
     */
    Worker reserveForQueue() {
        if (queue == null || queue.isEmpty() || state == State.STOP || termination.reached()) {
            return null;
        }
        return unpooled != null ? unpooled.reserveFetcherLocked() : reserveWorker(null);
    }

    /** Called by a worker before it runs a task: keeps {@code shutdownNow}'s interrupt, clears a stray one. */
    void beforeTask() {
        if (state == State.STOP || Thread.interrupted() && state == State.STOP) {
            Thread.currentThread().interrupt();
        }
    }

    /** {@return whether a worker may take from the queue without the lock: not stopped, and not surplus} */
    boolean mayTakeLockFree() {
        return state != State.STOP && !surplus();
    }

    /**
     * Finds a pooled worker its next task: from the queue, else from the head of the caller line, else by going idle
     * until claimed. Returns null when the worker must leave: surplus after a shrink, the pool closed with nothing
     * queued, claimed with STOP, or retired by a close after its last future ({@link Worker#mayTakeWork}).
     */
    Object nextTask(Worker w) {
        if (!w.mayTakeWork()) {
            return null;
        }
        Object next = queued == null ? null : queued.pollSpinning();
        next = next != null ? next : awaitNextTask(w);
        w.stopSeeking();
        return next;
    }

    /** {@link #nextTask} when the queue has nothing at hand. */
    private Object awaitNextTask(Worker w) {
        for (;;) {
            if (surplus() || state != State.OPEN || blocked > 0) {
                Object next = lockedNextTask(w);
                if (next != GO_IDLE) {
                    return next;
                }
            }
            w.clearHandoff();
            idle.push(w, System.nanoTime());
            // Re-read what the others write before they look at the idle stack (invariants 2, 3 and 4).
            if (surplus() || state != State.OPEN || blocked > 0) {
                serveLine();
            } else if (queued != null) {
                queued.signalWork();
            }
            Object token = handOff != null ? handOff.awaitToken(w) : w.awaitHandoff();
            if (token == Worker.STOP) {
                return null;
            }
            if (token != Worker.WAKE) {
                return token; // a task handed over (a pool without a queue)
            }
            Object next = queued.takeAsSearcher();
            if (next != null) {
                return next;
            }
        }
    }

    /**
     * The locked path of a worker that found nothing queued while the pool is shrinking, closing or has callers
     * blocked: retire, take from the queue, serve the head caller, or go idle ({@link #GO_IDLE}).
     */
    private Object lockedNextTask(Worker w) {
        Object next = null;
        boolean callerMovedIn = false;
        lock.lock();
        try {
            if (surplus()) {
                retire(w);
                return null;
            }
            if (queue != null && state != State.STOP) { // state first, then the queue (invariant 3)
                next = queued.takeHead();
                callerMovedIn = next != null && queued.moveHeadCallerIn();
            }
            if (next == null) {
                if (state != State.OPEN) {
                    retire(w);
                    return null;
                }
                // Run the head caller's task instead of going idle (invariant 4).
                next = line.isEmpty() ? GO_IDLE : serveHeadCaller();
            }
        } finally {
            lock.unlock();
        }
        if (callerMovedIn) {
            queued.signalWork(); // after the lock: it may start a worker (invariant 6)
        }
        return next;
    }

    /**
     * Called by a worker that went idle and then saw the pool shrinking, closing or callers blocked: stops idle
     * workers that must go (itself, most likely), hands blocked callers' tasks to idle workers, or moves them into the
     * queue, so that nobody waits while a worker is idle (invariants 3 and 4).
     */
    private void serveLine() {
        List<Worker> toWake = new ArrayList<>();
        boolean moved = false;
        lock.lock();
        try {
            if (state != State.OPEN) {
                retireAll(idle.claimAll(Worker.STOP), toWake);
            }
            Worker w;
            while (surplus() && (w = idle.claim(Worker.STOP)) != null) {
                retire(w);
                toWake.add(w);
            }
            while (state == State.OPEN && !line.isEmpty()) {
                Object callersTask = line.headTask();
                if (queue != null) {
                    if (queue.offer(callersTask, line.headAcceptedAt()) < 0) {
                        break;
                    }
                    moved = true;
                } else if ((w = idle.claim(callersTask)) != null) {
                    toWake.add(w);
                } else {
                    break;
                }
                line.serveHead();
            }
            lineChanged();
        } finally {
            lock.unlock();
        }
        toWake.forEach(Worker::wakeUnlessCurrent);
        if (queued != null && (moved || !queue.isEmpty())) {
            queued.signalWork();
        }
    }

    /**
     * A worker thread leaves; if it died abnormally it is retired here and replaced when tasks are queued. An unpooled
     * worker whose task ended has retired itself on its own thread ({@link UnpooledPath#passOn}), so it leaves without
     * the lock: the pool's lock stays off the per-task path of a virtual thread. (Retirement is final, so a
     * {@code true} read here is never stale; a pooled worker retired by another thread may read {@code false} here and
     * then finds {@code true} under the lock.)
     */
    void workerExited(Worker w) {
        if (w.retired) {
            return;
        }
        Worker replacement;
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
            launch.forPool(replacement);
        }
    }

    /** Retires workers just claimed with STOP and adds them to {@code toWake}. Lock held. */
    void retireAll(List<Worker> claimed, List<Worker> toWake) {
        for (Worker w : claimed) {
            retire(w);
        }
        toWake.addAll(claimed);
    }

    /**
     * Stops counting a worker (its task counts are kept) and wakes whoever may now proceed; an unpooled fetcher
     * retired before it looked (a close took it out, its thread could not start or ended abnormally) never will, so
     * its count of fetchers is settled too ({@link UnpooledPath#fetcherGoneLocked}). Lock held.
     */
    void retire(Worker w) {
        if (w.fetchPending) {
            unpooled.fetcherGoneLocked(w);
        }
        w.retired = true;
        running.decrement();
        workers.remove(w);
        line.wakeHead();
        termination.signalIfTerminated();
        w.stopSeeking();
    }

    /** {@return whether tasks not started in time are watched ({@code queueTimeout})} */
    boolean watchesQueue() {
        return overdue != null && overdue.watchesQueue();
    }

    /** {@return tasks reported overdue since the pool was created} */
    long overdueCount() {
        return overdue == null ? 0 : overdue.reported();
    }

    /** {@return the pool's name} */
    String name() {
        return name;
    }

    /** {@return the capacity, -1 when unlimited} */
    int capacity() {
        return capacity;
    }

    /** {@return workers alive: busy, idle and not yet purged, or starting} */
    int running() {
        return (int) running.get();
    }

    /** {@return the task counts of every worker, retired or live, read under the lock so each counts once} */
    WorkerSet.Tally tally() {
        lock.lock();
        try {
            return workers.tally();
        } finally {
            lock.unlock();
        }
    }

    /** {@return whether workers wait idle between tasks (else each runs one task: unpooled virtual threads)} */
    boolean pooled() {
        return threads.pooled();
    }

    /** {@return whether the pool is open (any thread)} */
    boolean isOpen() {
        return state == State.OPEN;
    }

    /** {@return callers blocked in the line (any thread)} */
    int blockedCallers() {
        return blocked;
    }

    /** {@return tasks in the queue} */
    int queuedCount() {
        return queue == null ? 0 : queue.size();
    }

    /**
     * {@return whether the pool has terminated: it was found closed, with every worker gone and no accepted task
     * queued, and has not been rebooted since (any thread; once true, true until a reboot, see {@link Termination})}
     */
    boolean isTerminated() {
        return termination.reached();
    }

    /** {@return whether the pool is closed, every worker has left and no accepted task is queued} Lock held. */
    private boolean terminatedNow() {
        return state != State.OPEN && running.get() == 0 && (state == State.STOP || queuedCount() == 0);
    }
}
