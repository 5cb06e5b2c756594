package io.github.poolkit.internal.pool;

import io.github.poolkit.internal.Spin;

/**
 * The lock-free side of a queued pool: a caller appends its task without the pool's lock when the locked path would
 * queue it too, and a finishing worker takes its next task without the lock, spinning briefly on an empty queue, so
 * that a busy queued pool passes tasks between threads without the lock and without waking a thread per task.
 *
 * <p>What keeps this safe beside the locked path is the pool's protocol ({@link PoolCore}, invariants 2, 3 and 5):
 * this class only reads the pool's volatile counters, in the order the protocol prescribes, and calls back into the
 * pool for every step that needs its lock.
 */
final class QueuedPath {

    private final PoolCore pool;
    private final TaskQueue queue;
    /** Workers spinning on the queue, at most {@link Spin#MAX_QUEUE_SPINNERS}. */
    private final PaddedCounter spinning = new PaddedCounter();

    QueuedPath(PoolCore pool, TaskQueue queue) {
        this.pool = pool;
        this.queue = queue;
    }

    /**
     * Appends {@code task} if that is what the locked path would do too (the pool is open, {@link #queueIsNext}, no
     * caller blocked to overtake, a slot free), then makes sure it does not sit beside an idle worker or free room
     * (invariant 2) or in a closed pool (invariant 3).
     *
     * @return whether the task was accepted; false when the locked path must decide
     */
    boolean tryAppend(Object task) {
        if (!pool.isOpen() || pool.blockedCallers() > 0 || !queueIsNext()) {
            return false;
        }
        long index = queue.offer(task);
        if (index < 0) {
            return false; // full: the locked path blocks or refuses
        }
        if (!pool.isOpen()) {
            // Taken already means run by a worker, or handed back by shutdownNow: accepted either way.
            return !queue.withdraw(index, task); // withdrawn: the locked path refuses it
        }
        if (!queueIsNext()) {
            pool.dispatch(PoolCore.Dispatch.UNLESS_WAKING);
        }
        return true;
    }

    /** Whether a new task belongs in the queue: behind a waking worker, or no worker idle and no room (invariant 2). */
    private boolean queueIsNext() {
        if (pool.idleWorkers() > 0) {
            return pool.wakingWorkers() > 0;
        }
        int c = pool.capacity();
        return c >= 0 && pool.running() >= c;
    }

    /**
     * Takes the head of the queue; while callers are blocked, has the pool move the first caller's task into the slot
     * that freed (invariant 5).
     *
     * @return the task, or null when the queue is empty
     */
    Object poll() {
        Object task = queue.poll();
        if (task != null && pool.blockedCallers() > 0) {
            pool.moveHeadCallerInto(queue);
        }
        return task;
    }

    /**
     * Takes the head of the queue for a finishing worker, spinning briefly while it is empty (workers of a busy pool
     * then never go idle between tiny tasks).
     *
     * @return the task, or null when it stays empty or the worker may have to leave (the locked path decides)
     */
    Object pollSpinning() {
        Object next = null;
        if (mayTakeLockFree() && (next = poll()) == null && startSpinning()) {
            try {
                int spins = Spin.budget(Spin.QUEUE_SPINS);
                for (; spins > 0 && pool.isOpen() && mayTakeLockFree(); spins--) {
                    Thread.onSpinWait();
                    if ((next = poll()) != null) {
                        break;
                    }
                }
            } finally {
                spinning.decrement();
            }
        }
        return next;
    }

    /** Whether a worker may take from the queue without the lock: the pool is not stopped and it is not surplus. */
    private boolean mayTakeLockFree() {
        int c = pool.capacity();
        return !pool.isStopped() && (c < 0 || pool.running() <= c);
    }

    /** Counts the caller as a spinning worker if fewer than {@link Spin#MAX_QUEUE_SPINNERS} are. */
    private boolean startSpinning() {
        for (int n; (n = spinning.get()) < Spin.MAX_QUEUE_SPINNERS; ) {
            if (spinning.compareAndSet(n, n + 1)) {
                return true;
            }
        }
        return false;
    }
}
