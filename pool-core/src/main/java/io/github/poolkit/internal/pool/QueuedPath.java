package io.github.poolkit.internal.pool;

import io.github.poolkit.internal.PaddedLong;
import io.github.poolkit.internal.Spin;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The lock-free side of a queued pool: a caller appends its task without the pool's lock when the locked path would
 * queue it too, a busy worker takes its next task without the pool's lock (on 4 processors or more under a take lock
 * of its own, see {@link #takeLock}), and at most one <em>searcher</em> at a time is on
 * its way to the queue, so that a run of appends costs one wake-up rather than one per task.
 *
 * <h2>The searcher</h2>
 *
 * <p>{@link #searching} counts workers that will look at the queue before anyone need wake another: a worker woken
 * with {@link Worker#WAKE} until it has polled, or a worker spinning on the empty queue (only one spins, and only where
 * a processor is free, {@link Spin}). It is at most one, taken by CAS from 0 to 1. Whoever appends, or finds more work
 * behind the task it took, calls {@link #signalWork}: it wakes an idle worker as the new searcher unless there already
 * is one (who will see the task: it stops searching, then reads the queue), or, with nobody idle and room for a worker,
 * has the pool start one. A woken worker that finds a task and more behind it signals in turn, so wake-ups cascade
 * one at a time while there is work, the way {@code LinkedBlockingQueue}'s takers signal each other and
 * {@code ForkJoinPool} propagates its signals, and stop as soon as the workers awake keep up.
 *
 * <p>What keeps this safe beside the locked path is the pool's protocol ({@link PoolCore}, invariants 2 to 4): this
 * class reads the pool's volatile counters in the order the protocol prescribes, and calls back into the pool for
 * every step that needs its lock.
 */
final class QueuedPath {

    private final PoolCore pool;
    private final TaskQueue queue;
    private final IdleStack idle;
    /** Searchers: 0 or 1 (see above). */
    private final PaddedLong searching = new PaddedLong();
    /**
     * The take lock: on 4 processors or more ({@link Spin#TAKE_LOCKED}), workers take from the queue one at a time,
     * as {@code LinkedBlockingQueue}'s takers do; null on fewer. The queue needs no lock (it is multi-consumer, and
     * {@code shutdownNow} drains it without this one); the lock only keeps the other takers parked in its line while
     * one of them takes, instead of all of them retrying a CAS on the head's cache line. Appends never take it. Taken
     * with the pool's lock held (the locked path polls), never the other way round.
     */
    private final ReentrantLock takeLock = Spin.TAKE_LOCKED ? new ReentrantLock() : null;

    QueuedPath(PoolCore pool, TaskQueue queue, IdleStack idle) {
        this.pool = pool;
        this.queue = queue;
        this.idle = idle;
    }

    /**
     * Appends {@code task} if that is what the locked path would do too (the pool is open, no caller blocked to
     * overtake, a worker idle or none to start, a slot free), then makes sure somebody is on the way to it
     * (invariant 2) and that it is not left in a closed pool (invariant 3).
     *
     * @return whether the task was accepted; false when the locked path must decide
     */
    boolean tryAppend(Object task) {
        if (!pool.isOpen() || pool.blockedCallers() > 0 || idle.size() == 0 && pool.hasRoom()) {
            return false;
        }
        long index = queue.offer(task);
        if (index < 0) {
            return false; // full: the locked path blocks or refuses
        }
        if (!pool.isOpen()) {
            // Taken already means run by a worker, or handed back by shutdownNow: accepted either way.
            if (queue.withdraw(index, task)) {
                withdrawn();
                return false; // withdrawn: the locked path refuses it (or queues it, if the pool reopened)
            }
            return true;
        }
        signalAfterAppend();
        return true;
    }

    /**
     * Called by an appender that withdrew its task from a pool that closed meanwhile ({@link #tryAppend}): the last
     * worker may have left while the task was queued (termination), and the slot it freed may let the head caller in,
     * should the pool have reopened since (invariant 4 of {@link PoolCore}: no other event would wake that caller while
     * the workers are busy). Rare: only after a close raced an append.
     */
    void withdrawn() {
        pool.lock.lock();
        try {
            pool.line.wakeHead();
            pool.termination.signalIfTerminated();
        } finally {
            pool.lock.unlock();
        }
    }

    /**
     * Makes sure a queued task has somebody on the way (invariant 2): wakes an idle worker as the searcher unless
     * there is one, or has the pool start a worker if none is idle and there is room. Pool's lock not held
     * (invariant 6).
     */
    void signalWork() {
        if (!queue.isEmpty()) {
            signalAfterAppend();
        }
    }

    /** {@link #signalWork} right after an append: the queue is not empty (no need to read the consumers' head). */
    private void signalAfterAppend() {
        do {
            if (idle.size() == 0) {
                if (pool.hasRoom()) {
                    pool.startWorkerForQueue();
                }
                return;
            }
            if (searching.get() != 0 || !searching.compareAndSet(0, 1)) {
                return; // a searcher is on its way; it reads the queue after it stops searching
            }
            Worker w = idle.claim(Worker.WAKE);
            if (w != null) {
                w.wakeUnlessCurrent(); // a worker going idle may claim itself: it will not park
                return;
            }
            searching.decrement(); // nobody idle after all; look again, as one may have gone idle meanwhile
        } while (!queue.isEmpty());
    }

    /**
     * Called by a worker claimed with {@link Worker#WAKE}: takes the head of the queue, stops searching, and passes
     * the signal on if more work waits.
     *
     * @return the task, or null when there is none (or the worker may not take one without the lock)
     */
    Object takeAsSearcher() {
        Object task;
        try {
            task = pool.mayTakeLockFree() ? poll() : null;
        } finally {
            searching.decrement(); // even if poll threw (an OutOfMemoryError): a searcher left behind wakes nobody
        }
        if (task != null) {
            signalWork(); // returns at once when the queue is empty
        }
        return task;
    }

    /**
     * Takes the head of the queue; while callers are blocked, has the pool move the first caller's task into the slot
     * that freed (invariant 4). Pool's lock not held: the signal that follows a move may start a worker (invariant 6;
     * a thread holding the lock uses {@link #takeHead} and {@link #moveHeadCallerIn} instead).
     *
     * @return the task, or null when the queue is empty
     */
    Object poll() {
        Object task = takeHead();
        if (task != null && moveHeadCallerIn()) {
            signalWork(); // an idle worker, or room for one, may be beside it (invariant 2)
        }
        return task;
    }

    /** {@return the head of the queue, taken (under the take lock, if any), or null when it is empty} */
    Object takeHead() {
        return takeLock == null ? queue.poll() : pollLocked();
    }

    /** Takes the head of the queue under the take lock (released before anything else is locked). */
    private Object pollLocked() {
        takeLock.lock();
        try {
            return queue.poll();
        } finally {
            takeLock.unlock();
        }
    }

    /**
     * After a {@link #takeHead} that took a task: moves the head caller's task, if any, into the queue slot that
     * freed, if open (invariant 4). Takes the pool's lock, or runs under it (it is reentrant).
     *
     * @return whether a task moved in: then whoever took the head calls {@link #signalWork} once it holds the pool's
     *     lock no more (invariant 2; invariant 6: it may start a worker)
     */
    boolean moveHeadCallerIn() {
        if (pool.blockedCallers() == 0) {
            return false;
        }
        pool.lock.lock();
        try {
            Object callersTask = pool.line.headTask();
            if (pool.isOpen() && callersTask != null && queue.offer(callersTask, pool.line.headAcceptedAt()) >= 0) {
                pool.serveHeadCaller();
                return true;
            }
            return false;
        } finally {
            pool.lock.unlock();
        }
    }

    /**
     * Takes the head of the queue for a finishing worker; on an empty queue, spins briefly as the searcher if there
     * is none (so that a busy pool does not park and wake a worker between tiny tasks).
     *
     * @return the task, or null when it stays empty or the worker may have to leave (the locked path decides)
     */
    Object pollSpinning() {
        if (!pool.mayTakeLockFree()) {
            return null;
        }
        Object next = poll();
        int spins;
        if (next != null || (spins = Spin.budget(Spin.QUEUE_SPINS)) == 0
                || searching.get() != 0 || !searching.compareAndSet(0, 1)) {
            return next;
        }
        try {
            for (; spins > 0 && pool.isOpen() && pool.mayTakeLockFree(); spins--) {
                Thread.onSpinWait();
                if (!queue.isEmpty() && (next = poll()) != null) {
                    break;
                }
            }
        } finally {
            searching.decrement(); // as in takeAsSearcher
        }
        if (next != null) {
            signalWork(); // more may have come meanwhile, with nobody woken for them
        }
        return next;
    }
}
