package io.github.poolkit.internal.pool;

import java.util.ArrayDeque;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The FIFO line of callers blocked in {@code execute}, each with the task it brought ({@link BlockedCaller}).
 *
 * <p>A finishing worker serves the head of the line directly ({@link #serveHead}): it takes the caller's task (to run
 * next, or into the queue slot it just freed), marks it taken and wakes the caller, which returns at once, its task
 * accepted. Other events that make room (a worker retiring, capacity growing, the pool closing) wake callers to retry
 * ({@link #wakeHead}, {@link #wakeAll}). A caller that gives up (interrupted, or its wait ran out) leaves the line
 * ({@link #leave}) unless its task was taken: both happen under the pool's lock, so a task is either taken (and
 * runs) or withdrawn with its caller (and is refused), never both and never neither.
 *
 * <p>Every method is called with the pool's lock held; the conditions callers wait on belong to that lock. (The pool
 * mirrors {@link #size()} in a volatile field of its own for lock-free readers, beside its other hot counters.)
 */
final class CallerLine {

    /** A deadline meaning "wait without limit". */
    static final long NO_DEADLINE = Long.MIN_VALUE;

    private final ReentrantLock lock;
    private final String poolName;
    private final ArrayDeque<BlockedCaller> callers = new ArrayDeque<>();

    /**
     * @param lock     the pool's lock, which guards the line
     * @param poolName for messages
     */
    CallerLine(ReentrantLock lock, String poolName) {
        this.lock = lock;
        this.poolName = poolName;
    }

    /** @return callers in line */
    int size() {
        return callers.size();
    }

    /** @return whether nobody is in line */
    boolean isEmpty() {
        return callers.isEmpty();
    }

    /** @return the task of the caller first in line, or null; it stays in line */
    Object headTask() {
        BlockedCaller head = callers.peekFirst();
        return head == null ? null : head.task;
    }

    /**
     * Puts a caller at the end of the line.
     *
     * @param task the task it brought
     * @return its place, for {@link #await} and {@link #leave}
     */
    BlockedCaller join(Object task) {
        BlockedCaller me = new BlockedCaller(task, lock.newCondition());
        callers.addLast(me);
        return me;
    }

    /**
     * Blocks a caller until its task is taken, it is woken to retry, or {@code deadline} passes. Interrupted before
     * its task was taken, it leaves the line and gives up; interrupted after, it returns (its task is accepted).
     * Either way its interrupt status is set.
     *
     * @param me       the caller
     * @param deadline in {@link System#nanoTime()} terms, or {@link #NO_DEADLINE}
     * @return false if the deadline passed and the task was not taken: the caller must then {@link #leave}
     * @throws RejectedExecutionException if interrupted before its task was taken (it has left the line)
     */
    boolean await(BlockedCaller me, long deadline) {
        try {
            if (deadline == NO_DEADLINE) {
                me.wake.await();
                return true;
            }
            long nanos = deadline - System.nanoTime();
            if (nanos <= 0) {
                return me.taken;
            }
            me.wake.awaitNanos(nanos);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            if (me.taken) {
                return true;
            }
            leave(me);
            RejectedExecutionException r = new RejectedExecutionException("interrupted while waiting for a worker of"
                    + " pool '" + poolName + "': the task was not accepted");
            r.initCause(e);
            throw r;
        }
    }

    /**
     * Takes a caller whose task was not taken out of the line (a no-op if it is no longer in it). A wake-up to retry
     * that was meant for it is passed on to the new head.
     */
    void leave(BlockedCaller me) {
        if (!me.taken && callers.remove(me)) {
            wakeHead();
        }
    }

    /**
     * Serves the caller first in line: takes its task, marks it accepted and wakes the caller.
     *
     * @return the task, or null when nobody is in line
     */
    Object serveHead() {
        BlockedCaller head = callers.pollFirst();
        if (head == null) {
            return null;
        }
        head.taken = true;
        head.wake.signal();
        return head.task;
    }

    /** Wakes the caller first in line to retry. */
    void wakeHead() {
        BlockedCaller head = callers.peekFirst();
        if (head != null) {
            head.wake.signal();
        }
    }

    /** Wakes every caller in line to retry. */
    void wakeAll() {
        for (BlockedCaller c : callers) {
            c.wake.signal();
        }
    }
}
