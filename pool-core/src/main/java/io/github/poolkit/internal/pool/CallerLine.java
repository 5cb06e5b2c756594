package io.github.poolkit.internal.pool;

import io.github.poolkit.internal.Spin;
import java.util.ArrayDeque;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The FIFO line of callers blocked in {@code execute}, each with the task it brought ({@link BlockedCaller}).
 *
 * <p>A finishing worker serves the head of the line directly ({@link #serveHead}): it takes the caller's task (to run
 * next, or into the queue slot it just freed), marks it taken and wakes the caller, which returns at once, its task
 * accepted. Other events that make room (a worker retiring, capacity growing) wake callers to retry
 * ({@link #wakeHead}, {@link #wakeAll}); only the head may take the room ({@link #isTurnOf}), and a head that leaves
 * passes the wake-up on. The pool closing takes every caller out of the line, refused ({@link #refuseAll}). A caller
 * that gives up (interrupted, or its wait ran out) leaves the line ({@link #leave}) unless its task was taken: both
 * happen under the pool's lock, so a task is either taken (and runs) or withdrawn with its caller (and is refused),
 * never both and never neither.
 *
 * <p>Waiting: a caller parks on its own permit with the lock released ({@link #await}), the head after a short spin
 * ({@link Spin#BLOCKED_CALLER_SPINS}), and is unparked by {@link BlockedCaller#wake}, which needs no lock, so that a
 * worker that frees room without the lock can wake the head ({@link #wakeHeadWithoutLock}). Every other method is
 * called with the pool's lock held. (The pool mirrors {@link #size()} in a volatile field of its own for lock-free
 * readers, beside its other hot counters.)
 */
final class CallerLine {

    /** A deadline meaning "wait without limit". */
    static final long NO_DEADLINE = Long.MIN_VALUE;

    private final ReentrantLock lock;
    private final String poolName;
    private final ArrayDeque<BlockedCaller> callers = new ArrayDeque<>();
    /** The caller first in line, for {@link #wakeHeadWithoutLock}; written under the lock after every change. */
    private volatile BlockedCaller head;

    /**
     * @param lock     the pool's lock, which guards the line
     * @param poolName for messages
     */
    CallerLine(ReentrantLock lock, String poolName) {
        this.lock = lock;
        this.poolName = poolName;
    }

    /** {@return callers in line} */
    int size() {
        return callers.size();
    }

    /** {@return whether nobody is in line} */
    boolean isEmpty() {
        return callers.isEmpty();
    }

    /**
     * @param me a caller in line, or null for a caller that has not joined it
     * @return whether that caller may take room that frees up: it is first in line, or nobody is in line
     */
    boolean isTurnOf(BlockedCaller me) {
        return me == null ? callers.isEmpty() : callers.peekFirst() == me;
    }

    /** {@return the task of the caller first in line, or null; it stays in line} */
    Object headTask() {
        BlockedCaller first = callers.peekFirst();
        return first == null ? null : first.task;
    }

    /** {@return the accept time of the caller first in line, for the queue slot its task moves into} */
    long headAcceptedAt() {
        BlockedCaller first = callers.peekFirst();
        return first == null ? TaskQueue.UNWATCHED : first.acceptedAt;
    }

    /**
     * For the overdue checker: tells {@code sink} of each caller in line that came at least {@code timeoutNanos}
     * before {@code now} and was not yet reported, and marks it reported.
     */
    void scanOverdue(long now, long timeoutNanos, TaskQueue.OverdueSink sink) {
        for (BlockedCaller c : callers) {
            if (c.acceptedAt != TaskQueue.UNWATCHED && now - c.acceptedAt >= timeoutNanos) {
                sink.overdue(c.task, now - c.acceptedAt);
                c.acceptedAt = TaskQueue.UNWATCHED;
            }
        }
    }

    /**
     * Puts the calling thread at the end of the line.
     *
     * @param task       the task it brought
     * @param acceptedAt when it came ({@link System#nanoTime()}), or {@link TaskQueue#UNWATCHED}
     * @return its place, for {@link #await} and {@link #leave}
     */
    BlockedCaller join(Object task, long acceptedAt) {
        BlockedCaller me = new BlockedCaller(task, Thread.currentThread(), acceptedAt);
        callers.addLast(me);
        head = callers.peekFirst();
        return me;
    }

    /**
     * Blocks a caller, with the lock released, until it is woken (its task taken, or to retry) or {@code deadline}
     * passes. Interrupted before its task was taken, it leaves the line and gives up; interrupted after, it returns
     * (its task is accepted). Either way its interrupt status is set. The caller must have cleared
     * {@link BlockedCaller#woken} under the lock before it last looked for room.
     *
     * @param me       the caller
     * @param deadline in {@link System#nanoTime()} terms, or {@link #NO_DEADLINE}
     * @return false if the deadline passed and the task was not taken: the caller must then {@link #leave}
     * @throws RejectedExecutionException if interrupted before its task was taken (it has left the line)
     */
    boolean await(BlockedCaller me, long deadline) {
        long nanos = deadline == NO_DEADLINE ? 0 : deadline - System.nanoTime();
        if (deadline != NO_DEADLINE && nanos <= 0) {
            return me.taken;
        }
        lock.unlock();
        try {
            // The head spins a little first: a place often frees within microseconds, and a park and unpark per
            // freed place would cost the caller more than the place (only the head is woken for one).
            for (int spins = head == me ? Spin.budget(Spin.BLOCKED_CALLER_SPINS) : 0; spins > 0 && !me.woken; spins--) {
                Thread.onSpinWait();
            }
            if (!me.woken) {
                if (deadline == NO_DEADLINE) {
                    LockSupport.park(this);
                } else {
                    LockSupport.parkNanos(this, nanos);
                }
            }
        } finally {
            lock.lock();
        }
        if (Thread.interrupted()) {
            Thread.currentThread().interrupt();
            if (me.taken) {
                return true;
            }
            leave(me);
            RejectedExecutionException r = new RejectedExecutionException("interrupted while waiting for a worker of"
                    + " pool '" + poolName + "': the task was not accepted");
            r.initCause(new InterruptedException());
            throw r;
        }
        return true;
    }

    /**
     * Takes a caller whose task was not taken out of the line (a no-op if it is no longer in it). A wake-up to retry
     * that was meant for it is passed on to the new head.
     */
    void leave(BlockedCaller me) {
        if (!me.taken && callers.remove(me)) {
            head = callers.peekFirst();
            wakeHead();
        }
    }

    /**
     * Serves the caller first in line: takes its task, marks it accepted and wakes the caller.
     *
     * @return the task, or null when nobody is in line
     */
    Object serveHead() {
        BlockedCaller first = callers.pollFirst();
        if (first == null) {
            return null;
        }
        head = callers.peekFirst();
        boolean hadWake = first.woken; // woken to retry (room freed) since it last looked: pass that on
        first.taken = true;
        first.wake();
        if (hadWake) {
            wakeHead();
        }
        return first.task;
    }

    /** Wakes the caller first in line to retry. */
    void wakeHead() {
        BlockedCaller first = callers.peekFirst();
        if (first != null) {
            first.wake();
        }
    }

    /**
     * Wakes the caller first in line to retry, without the lock: for a thread that freed room without it, after it
     * did (see {@link BlockedCaller#woken}). A caller that has just left may get a stray unpark, which its next park
     * absorbs.
     */
    void wakeHeadWithoutLock() {
        BlockedCaller first = head;
        if (first != null) {
            first.wake();
        }
    }

    /**
     * The pool is closing: every caller leaves the line, refused ({@link BlockedCaller#refused}), and is woken to
     * fail. Taken out at once, so that no worker takes a refused caller's task, and a {@code reboot} before the
     * caller looks does not let it wait on.
     */
    void refuseAll() {
        for (BlockedCaller c; (c = callers.pollFirst()) != null; ) {
            c.refused = true;
            c.wake();
        }
        head = null;
    }

    /** Wakes every caller in line to retry. */
    void wakeAll() {
        for (BlockedCaller c : callers) {
            c.wake();
        }
    }
}
