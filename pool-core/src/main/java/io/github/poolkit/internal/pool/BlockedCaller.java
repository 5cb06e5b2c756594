package io.github.poolkit.internal.pool;

import java.util.concurrent.locks.LockSupport;

/**
 * A caller blocked in {@code execute}: its place in the {@link CallerLine}, with the task it brought and its thread,
 * which parks on its own permit. {@link #taken} is guarded by the pool's lock; {@link #woken} may be set without it.
 */
final class BlockedCaller {

    /** The task the caller brought (as the pool carries it). */
    final Object task;

    /** The caller's thread, unparked by {@link #wake}. */
    final Thread thread;

    /**
     * When the caller came ({@link System#nanoTime()}), in a pool with a queue timeout; else
     * {@link TaskQueue#UNWATCHED}. Set to {@code UNWATCHED} under the lock once its task was reported overdue, so
     * that the task keeps no watch when it moves into the queue.
     */
    long acceptedAt;

    /** Whether a worker has taken the task: the caller then returns, its task accepted. Guarded by the lock. */
    boolean taken;

    /**
     * Whether the pool was closed while the caller waited: it was taken out of the line, its task was not accepted,
     * and it must fail with {@code PoolClosedException}, even if the pool is reopened before it looks. Guarded by
     * the lock.
     */
    boolean refused;

    /**
     * Whether the caller was woken since it last looked (cleared by the caller, under the lock, before it looks), so
     * that many wakers unpark it once: a thread that frees room without the lock sets it after it frees the room, and
     * the caller clears it before it looks for room (a Dekker pair: one of them sees the other).
     */
    volatile boolean woken;

    BlockedCaller(Object task, Thread thread, long acceptedAt) {
        this.task = task;
        this.thread = thread;
        this.acceptedAt = acceptedAt;
    }

    /** Wakes the caller to look again (any thread, with or without the lock). */
    void wake() {
        if (!woken) {
            woken = true;
            LockSupport.unpark(thread);
        }
    }
}
