package io.github.poolkit.internal.pool;

import io.github.poolkit.internal.CountedRun;
import io.github.poolkit.internal.TaskCounter;
import io.github.poolkit.internal.VarHandles;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * One worker thread of a {@link PoolCore} and its hand-off slot (ants' {@code goWorker} and its task channel).
 *
 * <p>Hand-off protocol: a worker waiting for work has cleared its slot ({@link #handoff} = null) and pushed itself on
 * the pool's {@link IdleStack}. Whoever claims it moves the slot from null to a token with one CAS ({@link #claim}): a
 * task to run (a pool without a queue), {@link #WAKE} (look at the queue) or {@link #STOP}; of all claims on one idle
 * episode exactly one succeeds, and its winner then unparks the worker ({@link #wake}). The worker (in a pool without a
 * queue; in a queued one it parks at once) spins briefly, then parks, until it reads a non-null slot (volatile), so
 * everything the claimer did before the CAS happens-before what the worker does next. The token stays in the slot while
 * the worker is busy, so no claim can succeed on a busy worker; the worker clears it on its own thread before its next
 * push. No lock is taken and only the stack's node is allocated per idle episode.
 *
 * <p>Task counts: a worker counts the tasks it began, completed and saw fail in fields of its own, written only by its
 * own thread with release stores (a plain store on x86; no fence, no shared cache line), so counting costs the hot
 * path no shared write. Readers sum them with acquire loads; a reader that loads {@code completed} and {@code failed}
 * before {@code started} therefore never sees more tasks finished than begun.
 *
 * <p>Overdue watch (only in a pool with a {@code runTimeout}, see {@link OverdueWatch}): the worker publishes the task
 * it runs and the time it started, on its own thread, with an opaque store of the time followed by a release store of
 * the task ({@link #beginWatched}), and a release store of null when the task ends ({@link #endWatched}): no lock, no
 * allocation, no fence on x86. The checker reads the task with an acquire load, then the time, so the time it reads
 * is that task's or a later one's (an underestimate, never a false report). With {@code interruptOverdue}, the end of
 * a task and the checker's interrupt form a Dekker pair ({@link #interruptIfStillRunning}), so an interrupt never
 * reaches a later task.
 *
 * <p>Between tasks ({@link #between}): a worker that holds no task and has taken none says so, so that a closing pool
 * can tell it from one that runs a task. A pool's own future whose task has ended sets {@link #COMPLETING} as it counts
 * the task, with nothing of the task left to run, then {@link #DONE} once it has completed ({@link #futureCompleted}: a
 * release store after the completion, so whoever takes the worker out sees the future done, and whoever sees the
 * future done finds the worker {@code COMPLETING} or later); a pooled worker reserved for the queue starts
 * {@code DONE} ({@link #holdsNoTask}). Before the worker takes any work it leaves {@code DONE} for {@link #SEEKING}
 * with one CAS ({@link #mayTakeWork}); a closing pool may instead take it out with the opposite CAS
 * ({@link #takeOutIfDone}) and retire it on its behalf: of the two exactly one wins, so a worker taken out has taken no
 * work and takes none, and one that took work was not taken out. A {@code COMPLETING} worker completes its future
 * within a few steps, and a {@code SEEKING} one finds work (then {@link #BUSY}, {@link #stopSeeking}) or leaves within
 * a few steps that never wait for a task, or goes idle, still {@code SEEKING}, until a task or a close reaches it, so
 * a closing pool may wait for either, briefly ({@code PoolLifecycle#retireFinishedWorkers}). That way a caller who saw
 * its last future done and then shuts the pool down finds it terminated when {@code shutdown()} returns, although the
 * worker that completed the future is still on its way out; and a pool closed while the future completes is not
 * terminated before the future is done.
 */
final class Worker implements Runnable, TaskCounter {

    /** Hand-off value that tells a worker to leave the pool; it has already been retired by whoever sent it. */
    static final Object STOP = new Object();

    /** Hand-off value that tells a worker of a queued pool to look at the queue: it was woken as the searcher. */
    static final Object WAKE = new Object();

    /** The slot of a worker that is not idle: no claim can succeed. */
    private static final Object BUSY_SLOT = new Object();

    private static final VarHandle HANDOFF = VarHandles.field(MethodHandles.lookup(), "handoff", Object.class);

    private static final VarHandle WATCHED = VarHandles.field(MethodHandles.lookup(), "watched", Object.class);
    private static final VarHandle WATCHED_SINCE =
            VarHandles.field(MethodHandles.lookup(), "watchedSince", long.class);

    private static final VarHandle BETWEEN = VarHandles.field(MethodHandles.lookup(), "between", int.class);
    /** {@link #between}: running a task, or idle or on its way without a future just done (else {@link #SEEKING}). */
    private static final int BUSY = 0;
    /** {@link #between}: holds no task and has taken none since its last future completed, or since it was made. */
    private static final int DONE = 1;
    /** {@link #between}: retired on its behalf by a closing pool while {@link #DONE}; final. */
    private static final int TAKEN_OUT = 2;
    /** {@link #between}: left {@link #DONE} to look for work; finds some or goes idle or leaves within a few steps. */
    private static final int SEEKING = 3;
    /**
     * {@link #between}: its future counted its task as the last step and completes now; then {@link #DONE}, or
     * {@link #SEEKING} if the future never says it completed.
     */
    private static final int COMPLETING = 4;

    private static final VarHandle STARTED = VarHandles.field(MethodHandles.lookup(), "started", long.class);
    private static final VarHandle COMPLETED = VarHandles.field(MethodHandles.lookup(), "completed", long.class);
    private static final VarHandle FAILED = VarHandles.field(MethodHandles.lookup(), "failed", long.class);

    private final PoolCore pool;
    private final TaskRunner runner;

    /** Tasks this worker began, ran to the end, and saw throw; written only by its own thread (release stores). */
    private long started;
    private long completed;
    private long failed;

    /** The thread running this worker; written before it starts, read by other threads to unpark or interrupt it. */
    volatile Thread thread;

    /** The first task, set when the worker is reserved; read by its own thread after start. */
    Object firstTask;

    /** This worker's newest node in the {@link IdleStack}: only that one may be claimed in place. */
    volatile IdleStack.Node idleNode;

    /**
     * Whether the pool no longer counts this worker; guarded by the pool lock, except where an unpooled worker gives
     * its place back without the lock on its own thread ({@link UnpooledPath#passOn}), the only thread that reads it
     * then. Never reset, so {@link PoolCore#workerExited} may read it first without the lock.
     */
    boolean retired;

    /** Where a {@link ConcurrentWorkers} keeps it: a slot ({@code >= 0}) or an overflow stripe ({@code < 0}). */
    int stripe;

    /** Whether the worker is in its pool's {@link WorkerSet}; guarded by the lock that guards that set. */
    boolean listed;

    /** An unpooled fetcher still counted by {@link UnpooledPath#fetchers}, whose invariant says who clears it. */
    boolean fetchPending;

    /** Neighbours in the pool's {@link LinkedWorkers}; guarded by the pool lock (or its stripe's lock). */
    Worker previousLive;
    Worker nextLive;

    /** The task running now (as carried), or null; only published in a pool with a run timeout. */
    @SuppressWarnings("unused") // through WATCHED
    private volatile Object watched;
    /**
     * The start stamp of the last task watched; this worker's own thread only. {@code nanoTime} may be negative, so
     * before the first task it is the smallest value, which no stamp is below.
     */
    private long lastWatchedSince = Long.MIN_VALUE;

    /**
     * When {@link #watched} started ({@link CoarseClock}, in {@link System#nanoTime()} terms, unique per task of this
     * worker); opaque accesses.
     */
    @SuppressWarnings("unused") // through WATCHED_SINCE
    private long watchedSince;
    /** The start of the task last reported overdue; read and written by the overdue checker only. */
    long reportedSince = Long.MIN_VALUE;
    /** Set by the checker while it interrupts this worker ({@link #interruptIfStillRunning}). */
    private volatile boolean interrupting;

    /**
     * The listener's record of the pool's own future running now, until it is told that the task ended
     * ({@link TaskRunner#futureEnded}); this worker's own thread only.
     */
    TaskRunner.TimedTask timedRun;
    /** When that future's task started ({@link System#nanoTime()}); this worker's own thread only. */
    long timedRunStarted;
    /**
     * How the pool's own future running now ended, as it counted its task: {@link CountedRun#RETURNED}, what it threw,
     * or {@link CountedRun#NOT_COUNTED}. This worker's own thread only; kept here, not on the future (see
     * {@link CountedRun}).
     */
    Object runEnded = CountedRun.NOT_COUNTED;

    /**
     * Where this worker is between tasks (see "Between tasks" above): {@link #BUSY}, {@link #COMPLETING},
     * {@link #DONE}, {@link #TAKEN_OUT} or {@link #SEEKING}. Only this worker's thread (or, before it starts, the
     * thread reserving it for the queue) sets {@code DONE}, and only this worker's thread {@code COMPLETING} and
     * {@code SEEKING}; it leaves them for {@code DONE}, {@code SEEKING} and {@code BUSY}, and a thread that retired it
     * leaves {@code SEEKING} for {@code BUSY} too ({@link #stopSeeking}); only a closing pool, under its lock, sets
     * {@code TAKEN_OUT}.
     */
    @SuppressWarnings("unused") // also through BETWEEN
    private int between;

    /** Null while idle and unclaimed; the claim's token otherwise (see the hand-off protocol above). */
    private volatile Object handoff;

    /**
     * Whether this worker is parked (or about to park) waiting for its slot, rather than spinning for it: a hint for
     * claimers that would rather hand a task to a worker that needs no wake-up ({@link HandOffPath}). Written only by
     * the worker, around its park.
     */
    private volatile boolean parked;

    Worker(PoolCore pool, TaskRunner runner, Object firstTask) {
        this.pool = pool;
        this.runner = runner;
        this.firstTask = firstTask;
        // Plain: no other thread touches the slot before this worker's first idle push (claims come only through the
        // idle stack, and only the worker pushes itself), and the thread's start publishes it; volatile would fence.
        HANDOFF.set(this, BUSY_SLOT);
    }

    /** The worker's loop: run a task, then take the next, until the pool retires it. */
    @Override
    public void run() {
        if (thread != Thread.currentThread()) {
            return; // started by its thread factory, which the pool then refused (WorkerThreads#start): not counted
        }
        Object task = firstTask;
        firstTask = null;
        try {
            if (!pool.pooled()) {
                runOnce(task);
                return;
            }
            if (task == null) {
                task = pool.nextTask(this); // started for the queue
            }
            while (task != null) {
                pool.beforeTask();
                runner.run(this, task);
                task = pool.nextTask(this);
            }
        } finally {
            pool.workerExited(this);
        }
    }

    /**
     * An unpooled worker (a virtual thread) runs one task, then passes on: the task it was started with, or, started
     * without one, the work it fetches itself (none if another worker took it first).
     */
    private void runOnce(Object task) {
        task = pool.unpooled.start(this, task); // null: nothing left for a fetcher, or a close took it out
        if (task != null) {
            pool.beforeTask();
            runner.run(this, task);
        }
        pool.unpooled.passOn(this);
    }

    /**
     * Claims this idle worker with {@code token}: succeeds for one claimer per idle episode, which must then
     * {@link #wake} it. Called through the {@link IdleStack}.
     *
     * @param token a task, {@link #WAKE} or {@link #STOP}
     * @return whether this call claimed it
     */
    boolean claim(Object token) {
        return HANDOFF.compareAndSet(this, null, token);
    }

    /** {@return whether this worker could be claimed now: idle, and nobody has claimed it (a racy snapshot)} */
    boolean claimable() {
        return handoff == null;
    }

    /** On the worker's own thread, before it pushes itself on the idle stack: from now on it can be claimed. */
    void clearHandoff() {
        handoff = null;
    }

    /** Unparks this worker after a successful {@link #claim}. */
    void wake() {
        LockSupport.unpark(thread);
    }

    /** {@link #wake}, unless called on this worker's own thread (which claimed itself and will not park). */
    void wakeUnlessCurrent() {
        Thread t = thread;
        if (t != Thread.currentThread()) {
            LockSupport.unpark(t);
        }
    }

    /** On the worker's own thread: a task begins. */
    void countStarted() {
        STARTED.setRelease(this, started + 1);
    }

    /** On the worker's own thread: the task that began ended as {@code outcome} says. */
    void countFinished(Outcome outcome) {
        if (outcome == Outcome.COMPLETED) {
            COMPLETED.setRelease(this, completed + 1);
        } else {
            FAILED.setRelease(this, failed + 1);
        }
    }

    /**
     * On the worker's own thread: the task that began did not run after all (a submitted future cancelled before it
     * started), so it is not counted. Readers that see the start meanwhile see the worker busy for that time.
     */
    void uncountStarted() {
        STARTED.setRelease(this, started - 1);
    }

    /**
     * {@inheritDoc} Called by a submitted future as its task ends, before the future completes; the task's listener
     * is told then too, and, for the {@code last} step, that this worker's future completes now ({@link #COMPLETING}),
     * unless the adaptive capacity is still to take its sample of the task.
     */
    @Override
    public boolean countEnded(Throwable failure, boolean last) {
        if (thread != Thread.currentThread()) {
            return false;
        }
        pool.workers.countEnded(this, failure != null);
        runEnded = failure == null ? CountedRun.RETURNED : failure;
        runner.futureEnded(this, failure);
        if (last && !runner.samplesAfterTask()) {
            BETWEEN.setRelease(this, COMPLETING);
        }
        return true;
    }

    /**
     * {@inheritDoc} From {@link #COMPLETING} to {@link #DONE}: from now until {@link #mayTakeWork}, a closing pool may
     * take it out ({@link #takeOutIfDone}).
     */
    @Override
    public void futureCompleted() {
        if (thread == Thread.currentThread() && between == COMPLETING) { // plain: only this thread sets COMPLETING
            BETWEEN.setRelease(this, DONE); // after the completion: a closer that takes this worker out sees it
        }
    }

    /**
     * This worker, reserved for the queue (pooled) or to fetch work (unpooled) under the pool's lock before its thread
     * starts, holds no task and has taken none: from now until {@link #mayTakeWork}, a closing pool may take it out
     * ({@link #takeOutIfDone}).
     */
    void holdsNoTask() {
        BETWEEN.setRelease(this, DONE);
    }

    /**
     * On the worker's own thread, before it takes any work (from the queue, the caller line or a hand-off), or gives
     * its place back.
     *
     * @return false if a closing pool took it out ({@link #takeOutIfDone}): it must leave without taking anything
     *         or counting itself out again
     */
    boolean mayTakeWork() {
        int b = between; // plain: once started, only this thread writes COMPLETING and DONE (a close takes out DONE)
        if (b == COMPLETING) { // a future that never said it completed: no closer takes out a COMPLETING worker
            BETWEEN.setRelease(this, SEEKING);
            return true;
        }
        return b == DONE ? BETWEEN.compareAndSet(this, DONE, SEEKING) : b != TAKEN_OUT;
    }

    /**
     * It is no longer {@link #SEEKING}: it was given work to run, or it has left the pool (counted out, and the pool
     * told whether it terminated). A release store after all that, by the worker or by the thread that retired it, so
     * that a closing pool that reads {@link #isBetweenTasks} false sees it all
     * ({@code PoolLifecycle#retireFinishedWorkers}).
     */
    void stopSeeking() {
        if ((int) BETWEEN.getAcquire(this) == SEEKING) {
            BETWEEN.setRelease(this, BUSY); // the worker and a retiring thread may both write BUSY, never anything else
        }
    }

    /**
     * By a closing pool, under its lock: takes this worker out if it holds no task and has taken none since its last
     * future ended (or since it was made, for the queue); the caller must then retire it.
     *
     * @return whether it did
     */
    boolean takeOutIfDone() {
        return BETWEEN.compareAndSet(this, DONE, TAKEN_OUT);
    }

    /** {@return whether a closing pool took this worker out ({@link #takeOutIfDone}; any thread)} */
    boolean isTakenOut() {
        return (int) BETWEEN.getAcquire(this) == TAKEN_OUT;
    }

    /**
     * {@return whether this worker is on its way from a future it ran to its next task, or out: completing that
     * future, done with it ({@link #DONE}: a closing pool may take it out), taken out (a closing pool retires it under
     * its lock), or looking for work and not having found any yet; not {@link #BUSY} (any thread)}
     */
    boolean isBetweenTasks() {
        return (int) BETWEEN.getAcquire(this) != BUSY;
    }

    /** {@return whether this worker holds no task and has taken none: a closing pool may take it out (any thread)} */
    boolean isDone() {
        return (int) BETWEEN.getAcquire(this) == DONE;
    }

    /** On the worker's own thread, in a pool with a run timeout: {@code carried} starts now. */
    void beginWatched(Object carried) {
        long since = CoarseClock.now();
        if (since <= lastWatchedSince) {
            since = lastWatchedSince + 1; // unique per task: the checker tells two tasks of one tick apart by it
        }
        lastWatchedSince = since;
        WATCHED_SINCE.setOpaque(this, since);
        WATCHED.setRelease(this, carried);
    }

    /**
     * On the worker's own thread, in a pool with a run timeout: the watched task ended.
     *
     * @param gated whether the checker may interrupt ({@code interruptOverdue}): then the store is volatile and the
     *              worker waits out an interrupt in progress, which was meant for the task that just ended and is
     *              cleared before its next task ({@link PoolCore#beforeTask})
     */
    void endWatched(boolean gated) {
        if (!gated) {
            WATCHED.setRelease(this, null);
            return;
        }
        WATCHED.setVolatile(this, null);
        while (interrupting) {
            Thread.onSpinWait();
        }
    }

    /** {@return the task this worker runs now (as carried), or null (any thread; acquire)} */
    Object watchedTask() {
        return WATCHED.getAcquire(this);
    }

    /** {@return when the task last published by {@link #beginWatched} started; read after {@link #watchedTask}} */
    long watchedSince() {
        return (long) WATCHED_SINCE.getOpaque(this);
    }

    /**
     * On the checker's thread: interrupts this worker if it still runs {@code task}, started at {@code since}.
     *
     * @return whether it was interrupted
     */
    boolean interruptIfStillRunning(Object task, long since) {
        interrupting = true; // then read the task: of this and the worker's endWatched, one sees the other
        try {
            Thread t = thread;
            if (t != null && WATCHED.getVolatile(this) == task && watchedSince() == since) {
                t.interrupt();
                return true;
            }
            return false;
        } finally {
            interrupting = false;
        }
    }

    /** {@return tasks this worker ran to the end (any thread)} */
    long completedCount() {
        return (long) COMPLETED.getAcquire(this);
    }

    /** {@return tasks this worker saw throw (any thread)} */
    long failedCount() {
        return (long) FAILED.getAcquire(this);
    }

    /**
     * @return whether this worker is running a task now (any thread; reads the finished counts before the started
     *         one, so a task that ends meanwhile may still count as running, never the reverse)
     */
    boolean isBusy() {
        long finished = (long) COMPLETED.getAcquire(this) + (long) FAILED.getAcquire(this);
        return (long) STARTED.getAcquire(this) > finished;
    }

    /** How a task ended. */
    enum Outcome {
        /** It returned. */
        COMPLETED,
        /** It threw. */
        FAILED
    }

    /**
     * Spins, on this worker's own thread, for at most {@code spins} rounds while its slot is empty.
     *
     * @return the token, or null if none came meanwhile
     */
    Object spinForHandoff(int spins) {
        Object p;
        while ((p = handoff) == null && spins-- > 0) {
            Thread.onSpinWait();
        }
        return p;
    }

    /**
     * Parks, on this worker's own thread, until a claim fills its slot. Stray interrupts (meant for a task that has
     * already finished) are cleared so they cannot turn the wait into a busy loop.
     *
     * @return the token: a task, {@link #WAKE} or {@link #STOP}; it stays in the slot until the next idle episode
     */
    Object awaitHandoff() {
        Object p;
        while ((p = handoff) == null) {
            parked = true;
            LockSupport.park(this);
            parked = false;
            Thread.interrupted();
        }
        return p;
    }

    /** {@return whether this idle worker is parked, so that claiming it costs a wake-up (any thread; a hint)} */
    boolean isParked() {
        return parked;
    }
}
