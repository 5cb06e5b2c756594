package io.github.poolkit.internal;

import java.util.concurrent.locks.Condition;

/**
 * A caller blocked in {@code execute}, waiting in the pool's FIFO line of blocked callers with the task it brought.
 * A finishing worker serves the head of the line directly: it takes the caller's task (to run next, or into the room
 * it just made in the queue), marks it {@link #taken} and wakes the caller, which returns at once: one wake-up per
 * blocked task instead of two (the caller's, then the idle worker's). Other events that make room (a worker
 * retiring, capacity growing, the pool closing) wake callers to retry {@code execute}'s steps themselves.
 *
 * <p>Every field is guarded by the pool's lock, and {@link #wake} belongs to that lock.
 */
final class BlockedCaller {

    /** The task the caller brought (as the pool carries it). */
    final Object item;

    /** Signalled when the task was taken or the caller should retry. */
    final Condition wake;

    /** Whether a worker has taken the task: the caller then returns, its task accepted. */
    boolean taken;

    BlockedCaller(Object item, Condition wake) {
        this.item = item;
        this.wake = wake;
    }
}
