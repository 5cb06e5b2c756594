package io.github.poolkit.internal.pool;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The operator's side of a {@link PoolCore}: what changes the pool as a whole rather than one task's path. Closing
 * and reopening ({@link #transitionTo}, {@link #reboot}), changing the capacity ({@link #tune}), and the two periodic
 * chores run by shared threads: stopping idle workers past their expiry ({@link Purger}) and finding overdue tasks
 * ({@link OverdueChecker}).
 *
 * <p>Everything here but the wait in {@link #retireFinishedWorkers} runs under the pool's lock and keeps
 * {@link PoolCore}'s invariants: a worker stopped here is retired under the lock before it is woken with
 * {@link Worker#STOP} (invariant 1); whatever stops workers, or lets queued tasks outlive a close, then reserves a
 * worker for a non-empty queue (invariant 3); whatever may let a blocked caller proceed or be refused wakes the line
 * (invariant 4). Threads are started and woken after the lock is let go.
 *
 * <p>The shared threads hold this object only weakly; the pool's workers hold it (through {@link PoolCore}), so a
 * pool dropped without being closed is collected once its idle workers have expired, and its chores then stop.
 */
final class PoolLifecycle {

    /** The longest a close waits for workers between a future and their next task ({@link #retireFinishedWorkers}). */
    static final long SEEKER_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /**
     * The most one step of that wait counts: a longer gap means the closing thread itself was stopped (a GC pause, or
     * preempted), and the worker perhaps with it, so it is not counted as time the worker had to move on.
     */
    private static final long WAIT_STEP_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final PoolCore core;
    /** How long a worker may stay idle before the purge stops it; {@code <= 0}: never. */
    private final long expiryNanos;
    /** The purge's handle while it runs; guarded by the pool's lock. */
    private Future<?> purge;
    /** The shared checker's handle on this pool's checks, while it has them; guarded by the pool's lock. */
    private Future<?> overdueCheck;
    /**
     * Callers waiting for the pool to terminate after closing it ({@code close()}, {@code releaseTimeout}); while
     * there are any, a reboot is refused, so that none waits for a pool reopened under it, which would never
     * terminate. Guarded by the pool's lock.
     */
    private int waiters;

    PoolLifecycle(PoolCore core, long expiryNanos) {
        this.core = core;
        this.expiryNanos = expiryNanos;
    }

    /** Starts the periodic chores of an open pool. Called once the pool is built, or with the lock held. */
    void startChores() {
        if (expiryNanos > 0 && purge == null) {
            purge = Purger.schedule(this, expiryNanos);
        }
        if (core.overdue != null && overdueCheck == null) {
            overdueCheck = OverdueChecker.schedule(this, core.overdue.periodNanos());
        }
    }

    /**
     * Changes the capacity; no-op when unlimited, when {@code newCapacity <= 0}, or with preAlloc. Growing wakes the
     * blocked callers and starts workers for queued tasks; shrinking stops surplus idle workers now, busy ones later.
     */
    void tune(int newCapacity) {
        List<Worker> toStart = new ArrayList<>();
        List<Worker> toStop = new ArrayList<>();
        core.lock.lock();
        try {
            int old = core.capacity;
            if (old < 0 || newCapacity <= 0 || core.preAlloc || newCapacity == old) {
                return;
            }
            core.capacity = newCapacity;
            Worker w;
            if (newCapacity > old) {
                core.line.wakeAll();
                for (int n = core.queuedCount(); n > 0 && (w = core.reserveForQueue()) != null; n--) {
                    toStart.add(w);
                }
            } else {
                while (core.running() > newCapacity && (w = core.idle.claim(Worker.STOP)) != null) {
                    core.retire(w);
                    toStop.add(w);
                }
            }
        } finally {
            core.lock.unlock();
        }
        toStop.forEach(Worker::wake);
        toStart.forEach(core.launch::forPool);
    }

    /**
     * Moves to {@code target} if that is further on: {@code SHUTDOWN} refuses new tasks, takes the blocked callers out
     * of the line and wakes them to be refused (their tasks were not accepted; a {@link #reboot} before they look does
     * not change that), and stops idle workers; {@code STOP} also drains the queue and interrupts running tasks.
     * Returns the drained tasks (as carried), or null when nothing changed. The caller then retires the workers that
     * finished a future ({@link #retireFinishedWorkers}).
     */
    List<Object> transitionTo(PoolCore.State target) {
        return transitionTo(target, false);
    }

    /**
     * As {@link #transitionTo(PoolCore.State)}; if {@code waits} and this call moves the pool, it also counts the
     * caller as one that waits for the pool it closed ({@link #waiters}), in the same step: the caller must then count
     * itself out with {@code waiting(-1)}.
     */
    List<Object> transitionTo(PoolCore.State target, boolean waits) {
        List<Worker> idleWorkers = new ArrayList<>();
        List<Object> drained = new ArrayList<>();
        Worker forQueue;
        core.lock.lock();
        try {
            if (core.state.compareTo(target) >= 0) {
                return null;
            }
            if (waits) {
                waiters++;
            }
            core.state = target;
            if (purge != null) {
                purge.cancel(false);
                purge = null;
            }
            core.line.refuseAll(); // callers blocked now fail, even if the pool is rebooted before they look
            core.lineChanged();
            core.retireAll(core.idle.claimAll(Worker.STOP), idleWorkers);
            if (target == PoolCore.State.STOP) {
                for (Object task; core.queue != null && (task = core.queue.poll()) != null; ) {
                    drained.add(task);
                }
                core.workers.forEach(w -> {
                    Thread t = w.thread;
                    if (t != null) {
                        t.interrupt();
                    }
                });
            }
            forQueue = core.reserveForQueue(); // queued tasks still run after SHUTDOWN (invariant 3)
            core.termination.signalIfTerminated();
        } finally {
            core.lock.unlock();
        }
        idleWorkers.forEach(Worker::wake);
        if (forQueue != null) {
            core.launch.forPool(forQueue);
        }
        return drained;
    }

    /**
     * After every close (also one that found the pool closed already): retires, with nothing queued, the workers that
     * hold no task and took none since their last future completed or since they were reserved for the queue
     * ({@link Worker#takeOutIfDone}; they see it themselves and leave without taking anything), then waits, without the
     * lock and at most {@link #SEEKER_WAIT_NANOS} (not counting a pause of this thread), for the workers on their way
     * from a future they ran ({@link Worker#isBetweenTasks}: still completing it, or done since the take-out, then
     * taken out as above, or already looking for work), when nothing else keeps the pool from terminating: nothing
     * queued, and every other worker holding no task. Such a worker moves on within a few steps, so a caller who saw
     * its last future done finds the pool terminated when {@code release()} returns, and a pool closed while its last
     * future completes is not terminated before the future is done. A pool with a task running or queued is not waited
     * for at all, nor is a call on one of the pool's own workers.
     */
    void retireFinishedWorkers() {
        List<Worker> onTheirWay = takeOutDoneWorkers();
        long waited = 0;
        long last = System.nanoTime();
        while (!onTheirWay.isEmpty() && waited < SEEKER_WAIT_NANOS) {
            Thread.yield(); // no lock: the workers need it to leave
            long now = System.nanoTime();
            waited += Math.min(now - last, WAIT_STEP_NANOS);
            last = now;
            if (core.state == PoolCore.State.OPEN || core.termination.reached()) {
                break; // rebooted meanwhile (a seeker may then go idle), or done
            }
            if (onTheirWay.stream().anyMatch(w -> w.isDone() || w.isTakenOut())) {
                // a future completed: take its worker out now; or another close took one out: once it has retired
                // it (under the lock, which this waits for), look again at what is listed
                onTheirWay = takeOutDoneWorkers();
            } else {
                onTheirWay.removeIf(w -> !w.isBetweenTasks()); // busy now, or gone (counted out, termination checked)
            }
        }
    }

    /**
     * Retires the workers that hold no task (see {@link #retireFinishedWorkers}) if the pool is closed with nothing
     * queued: the state was written before the queue is read here (invariant 3).
     *
     * @return the workers on their way worth waiting for, none if the pool cannot terminate now
     */
    private List<Worker> takeOutDoneWorkers() {
        List<Worker> done = new ArrayList<>();
        List<Worker> onTheirWay = new ArrayList<>();
        core.lock.lock();
        try {
            if (core.state == PoolCore.State.OPEN || core.termination.reached() || core.queuedCount() != 0) {
                return onTheirWay;
            }
            core.workers.forEach(w -> {
                if (w.takeOutIfDone()) {
                    done.add(w);
                }
            });
            done.forEach(core::retire); // not while walking the set, which retiring changes
            Thread self = Thread.currentThread();
            boolean[] busy = {false};
            core.workers.forEach(w -> {
                if (w.isBetweenTasks() && w.thread != self) {
                    onTheirWay.add(w);
                } else {
                    busy[0] = true; // runs a task (or is this thread): the pool does not terminate now
                }
            });
            if (busy[0]) {
                onTheirWay.clear();
            }
            return onTheirWay;
        } finally {
            core.lock.unlock();
        }
    }

    /** Counts a caller that closes the pool and waits for it (+1), or is done waiting (-1): see {@link #waiters}. */
    void waiting(int change) {
        core.lock.lock();
        try {
            waiters += change;
        } finally {
            core.lock.unlock();
        }
    }

    /**
     * Reopens a closed pool (no-op when open): it accepts tasks again and purges idle workers again.
     *
     * @throws IllegalStateException if a caller waits for the pool to terminate after closing it
     */
    void reboot() {
        core.lock.lock();
        try {
            if (waiters > 0) {
                throw new IllegalStateException("pool '" + core.name() + "' is being closed: close() or"
                        + " releaseTimeout() is waiting for its tasks to finish; reboot it after that returns");
            }
            if (core.state != PoolCore.State.OPEN) {
                // the latch first: a lock-free reader that sees the pool open then sees it not terminated
                core.termination.reopened();
                core.state = PoolCore.State.OPEN;
                startChores();
            }
        } finally {
            core.lock.unlock();
        }
    }

    /** Stops the idle workers unused for longer than the expiry (called by the {@link Purger}). */
    void purgeExpiredWorkers() {
        List<Worker> expired = new ArrayList<>();
        Worker fresh;
        core.lock.lock();
        try {
            if (core.state != PoolCore.State.OPEN) {
                return;
            }
            core.retireAll(core.idle.claimIdleSince(System.nanoTime() - expiryNanos, Worker.STOP), expired);
            fresh = core.reserveForQueue(); // an append may have seen them idle (invariant 3)
        } finally {
            core.lock.unlock();
        }
        expired.forEach(Worker::wake);
        if (fresh != null) {
            core.launch.forPool(fresh);
        }
    }

    /** Called by the {@link OverdueChecker}: finds overdue tasks, or stops the checks once the pool terminated. */
    void checkOverdue() {
        if (core.isTerminated()) {
            core.lock.lock();
            try {
                if (core.isTerminated() && overdueCheck != null) { // reboot() starts them again
                    overdueCheck.cancel(false);
                    overdueCheck = null;
                }
            } finally {
                core.lock.unlock();
            }
            return;
        }
        core.overdue.check();
    }

    /** {@return the pool's name} */
    String name() {
        return core.name();
    }
}
