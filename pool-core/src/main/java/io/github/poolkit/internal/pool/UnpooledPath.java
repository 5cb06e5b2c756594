package io.github.poolkit.internal.pool;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The lock-free side of an unpooled pool (a fresh virtual thread per task, {@link WorkerThreads}): a caller reserves
 * a place and starts a worker without the lock while there is room and nobody in line, and a worker whose task ended
 * gives its place back without the lock when nothing waits for it, so that neither takes the pool's lock per task
 * (as a semaphore around {@code Thread.ofVirtual().start(..)} takes none).
 *
 * <p>A worker runs one task only. When its task ends and a task is queued, or the pool is closing or shrinking, the
 * pool's locked path decides ({@link #passOnLocked}): the next task goes to a fresh worker that takes over
 * the place. With callers in line and no queue, the worker gives the place back and wakes the first caller, which
 * takes it: a caller blocked in {@code execute} is woken once however many places free up meanwhile, and then finds
 * them all.
 *
 * <p>Safety beside the locked path rests on the pool's invariants 1, 3 and 4 ({@link PoolCore}): a reservation is one
 * CAS of the count against the capacity; a place given back drops the count, then reads whether callers are blocked,
 * tasks queued or the pool closing (each of which writes first, then reads the count).
 */
final class UnpooledPath {

    private final PoolCore pool;
    private final TaskRunner runner;
    private final WorkerThreads threads;
    private final WorkerSet workers;
    /** The pool's queue, or null. */
    private final TaskQueue queue;
    /**
     * Fetchers: workers started without a task that have not yet begun to fetch one ({@link #fetchTask}), so that
     * workers ending together start one successor per piece of work, not one each. It may count low for an instant
     * (one worker too many may start and find nothing), never high once fetching has begun: work is never left
     * waiting for a worker that has already fetched something else, or that will never fetch.
     *
     * <p>Invariant (as {@link PoolCore#reserveWorker} keeps for a pooled worker reserved for the queue): a fetcher is
     * counted here, marked as holding no task ({@link Worker#holdsNoTask}, {@code DONE}) and listed in the worker
     * set in one step under the lock ({@link #asFetcherLocked}), with {@link Worker#fetchPending} set; the count is
     * lowered, and the flag cleared, exactly once, by whoever settles that reservation, which is whoever wins the
     * worker's {@code DONE}: its own thread as it begins to fetch ({@link Worker#mayTakeWork}, in {@link #fetchTask}),
     * or, under the lock, a close that takes it out before it has begun ({@link Worker#takeOutIfDone},
     * {@code PoolLifecycle#takeOutDoneWorkers}), a failed start of its thread ({@link WorkerLaunch}), or an abnormal
     * end of that thread before it looked ({@link PoolCore#workerExited}); the last three retire it, and
     * {@link PoolCore#retire} calls {@link #fetcherGoneLocked}. So a close that finds nothing queued retires a fetcher
     * that has not looked yet on its behalf (it takes nothing then), instead of finding it busy: a caller who saw the
     * last future done finds the pool terminated when {@code release()} returns, as with pooled workers. The flag is
     * written by one party at a time: a closer reads it only after its own {@link Worker#takeOutIfDone} won, the
     * worker clears it only after its own {@link Worker#mayTakeWork} won (and reads it, when it ends abnormally, on its
     * own thread), and a failed start runs before the worker could.
     */
    private final AtomicInteger fetchers = new AtomicInteger();
    /** {@link #giveBackPlace}, made once rather than per task. */
    private final Runnable giveBack = this::giveBackPlace;

    UnpooledPath(PoolCore pool, TaskRunner runner, WorkerThreads threads, WorkerSet workers, TaskQueue queue) {
        this.pool = pool;
        this.runner = runner;
        this.threads = threads;
        this.workers = workers;
        this.queue = queue;
    }

    /**
     * Reserves a place for the task and starts its worker, if there is room and nobody is in line (a task must not
     * overtake a caller). Only for a pool without a queue; a queued one appends ({@link QueuedPath}).
     *
     * <p>The reservation is a CAS of the count against the capacity read just before it, so a shrink ({@code tune})
     * may come between the two. Invariant: a place reserved here is kept only if the pool, read after the CAS, is
     * open and not above its capacity; otherwise it is given back and the locked path decides. A Dekker pair with
     * {@link PoolLifecycle}: a close or a shrink writes {@code state} or {@code capacity}, then reads the count;
     * this CASes the count, then reads both, so a shrink that does not see the place is seen here, and no place is
     * taken beyond a capacity that {@code tune} has already lowered.
     *
     * @return whether the task was accepted; false when the locked path must decide
     */
    boolean tryStart(Object task) {
        if (pool.blockedCallers() != 0 || !pool.isOpen() || !pool.tryReserve()) {
            return false;
        }
        if (!pool.isOpen() || pool.surplus()) { // closed or shrunk meanwhile: the place must not outlive it
            giveBackPlace();
            return false;
        }
        pool.launch.forCaller(new Worker(pool, runner, task)); // it lists itself (start)
        return true;
    }

    /**
     * On a worker's own thread, first thing. Started with its task: lists it (for interrupts and counts) and names its
     * thread {@code <name>-<n>}, here rather than by the caller that starts it, so that a caller submitting task after
     * task pays for neither (a {@code shutdownNow} that ran before the listing is seen by {@link PoolCore#beforeTask}).
     * Started without one: a fetcher, listed when it was reserved, which fetches its task ({@link #fetchTask}).
     *
     * @return the task to run, or null: a fetcher found nothing left for it, or a close took it out
     */
    Object start(Worker w, Object task) {
        if (task == null) {
            return fetchTask(w);
        }
        threads.name(Thread.currentThread());
        workers.add(w);
        return task;
    }

    /**
     * A worker's task ended: it gives its place back, or the locked path hands the place on with the next task; or
     * nothing, if a close already retired it after its future ({@link Worker#takeOutIfDone}). Invariant: a worker
     * that gives its place back without the lock has its task counts kept first, then gives the place back (which may
     * find the pool terminated), and stops seeking last ({@link Worker#stopSeeking}), so that the counts are final once
     * the pool is terminated and a close waiting for it ({@link PoolLifecycle#retireFinishedWorkers}) sees it all done.
     */
    void passOn(Worker w) {
        if (!w.mayTakeWork()) {
            return;
        }
        if ((queue == null || queue.isEmpty()) && pool.isOpen() && !pool.surplus()) {
            w.retired = true;
            workers.remove(w, giveBack); // with callers in line: wakes the first to take the place
            w.stopSeeking();
        } else {
            passOnLocked(w);
        }
    }

    /**
     * An unpooled worker's task ended with a task queued, or the pool closing or shrinking: if there is work for its
     * place (a queued task, or the head caller's), a fresh worker takes over the reservation and fetches that work on
     * its own thread ({@link #fetchTask}; a virtual thread never runs a second task, invariant 5); with nothing to do,
     * the worker retires.
     *
     * <p>The work stays where it is (in the queue, or with its caller in line) until the successor's thread runs: if
     * that thread cannot be started, nothing was taken, so no accepted task is lost ({@link WorkerLaunch#forPool}
     * retires the successor and the work waits for the next worker, as in {@code ThreadPoolExecutor}).
     */
    private void passOnLocked(Worker w) {
        Worker successor;
        pool.lock.lock();
        try {
            if (needsFetcherLocked()) {
                w.retired = true;
                workers.remove(w); // running unchanged: the successor holds w's reservation
                successor = asFetcherLocked(new Worker(pool, runner, null));
                w.stopSeeking();
            } else {
                pool.retire(w);
                successor = pool.reserveForQueue(); // an append may have seen w busy (invariant 3)
            }
        } finally {
            pool.lock.unlock();
        }
        if (successor != null) {
            pool.launch.forPool(successor);
        }
    }

    /**
     * {@return whether a place that frees up has work no fetching worker will take: more queued tasks and callers in
     * line than {@link #fetchers}, and no shrink} Lock held. (Without the count, workers ending together would each
     * start a successor for the same queued task.)
     */
    private boolean needsFetcherLocked() {
        if (pool.surplus()) {
            return false;
        }
        int work = (queue != null && pool.state != PoolCore.State.STOP ? queue.size() : 0)
                + (pool.state == PoolCore.State.OPEN ? pool.line.size() : 0);
        return work > fetchers.get();
    }

    /** {@link PoolCore#reserveForQueue} of an unpooled pool: a worker to fetch queued work, if needed. Lock held. */
    Worker reserveFetcherLocked() {
        Worker w = needsFetcherLocked() ? pool.reserveWorker(null) : null;
        return w == null ? null : asFetcherLocked(w);
    }

    /**
     * Makes {@code w}, counted and not yet started, a fetcher (see the invariant of {@link #fetchers}): holding no
     * task, so that a close that finds nothing queued may retire it before it looks, and listed now, not as its
     * thread starts, so that such a close finds it. Lock held.
     */
    private Worker asFetcherLocked(Worker w) {
        w.fetchPending = true;
        w.holdsNoTask();
        workers.add(w);
        fetchers.incrementAndGet();
        return w;
    }

    /**
     * Fetcher {@code w} will fetch nothing: it is retired before it looked (a close took it out, its thread could not
     * start, or it ended abnormally; {@link PoolCore#retire}). Settles its count, unless its own thread or an earlier
     * call did (no-op for any other worker). Lock held.
     */
    void fetcherGoneLocked(Worker w) {
        if (w.fetchPending) {
            w.fetchPending = false;
            fetchers.decrementAndGet();
        }
    }

    /**
     * On the thread of a worker started without a task (it took over a place, or was reserved for the queue), first
     * thing: names the thread, then takes the next queued task, else the head caller's task; null when another worker
     * took it first, or when a close took this one out before it began (then {@link #passOn} does nothing either).
     * Found work makes it busy ({@link Worker#stopSeeking}); finding none, it stays {@code SEEKING} until
     * {@link #passOn} has retired it, so that a close waits for that rather than report the pool busy.
     */
    private Object fetchTask(Worker w) {
        threads.name(Thread.currentThread());
        if (!w.mayTakeWork()) {
            return null; // taken out: retired, its count settled, on its behalf
        }
        w.fetchPending = false; // settled here: it won DONE from any close
        fetchers.decrementAndGet(); // before looking: see fetchers
        Object next = takeWork();
        if (next != null) {
            w.stopSeeking();
        }
        return next;
    }

    /** {@link #fetchTask}'s look for work, once the fetcher's count is settled. */
    private Object takeWork() {
        Object next = pool.queued != null && pool.mayTakeLockFree() ? pool.queued.poll() : null;
        if (next != null || (queue == null || queue.isEmpty()) && pool.blockedCallers() == 0) {
            return next; // nothing for the locked path to find (passOn then sees a shrink or a close)
        }
        boolean callerMovedIn = false;
        pool.lock.lock();
        try {
            if (pool.surplus()) {
                return null;
            }
            if (queue != null && pool.state != PoolCore.State.STOP) {
                next = pool.queued.takeHead();
                callerMovedIn = next != null && pool.queued.moveHeadCallerIn();
            }
            if (next == null && pool.state == PoolCore.State.OPEN && !pool.line.isEmpty()) {
                next = pool.serveHeadCaller();
            }
        } finally {
            pool.lock.unlock();
        }
        if (callerMovedIn) {
            pool.queued.signalWork(); // after the lock: it may start a worker (invariant 6 of PoolCore)
        }
        return next;
    }

    /**
     * Gives an unpooled worker's place back without the lock (the worker, if any, is not yet unlisted), then makes
     * sure nobody waits for what that frees: the head caller, a queued task, termination. Dekker pairs as in
     * invariants 3 and 4: the count drops, then {@code blocked}, the queue and {@code state} are read.
     */
    private void giveBackPlace() {
        pool.running.decrement();
        if (pool.blockedCallers() > 0) {
            pool.line.wakeHeadWithoutLock();
        }
        if (queue != null && !queue.isEmpty() || !pool.isOpen()) {
            Worker successor;
            pool.lock.lock();
            try {
                pool.line.wakeHead();
                pool.termination.signalIfTerminated();
                successor = pool.reserveForQueue();
            } finally {
                pool.lock.unlock();
            }
            if (successor != null) {
                pool.launch.forPool(successor);
            }
        }
    }
}
