package io.github.poolkit.internal.pool;

import java.util.concurrent.locks.Condition;

/**
 * A caller blocked in {@code execute}: its place in the {@link CallerLine}, with the task it brought. Every field is
 * guarded by the pool's lock, and {@link #wake} belongs to that lock.
 */
final class BlockedCaller {

    /** The task the caller brought (as the pool carries it). */
    final Object task;

    /** Signalled when the task was taken or the caller should retry. */
    final Condition wake;

    /** Whether a worker has taken the task: the caller then returns, its task accepted. */
    boolean taken;

    BlockedCaller(Object task, Condition wake) {
        this.task = task;
        this.wake = wake;
    }
}
