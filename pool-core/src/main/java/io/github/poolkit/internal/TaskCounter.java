package io.github.poolkit.internal;

/**
 * A pool's worker, as the futures it runs see it: it counts a submitted task as the task ends, on its own thread,
 * before the task's future completes ({@link CountedRun#runCounted}).
 */
public interface TaskCounter {

    /**
     * Counts a task that ended, if called on this worker's own thread.
     *
     * @param failure what the task threw, or {@code null} if it returned
     * @param last    whether nothing of the task runs after this on this worker, only the future's own bookkeeping
     *                (its completion, or a periodic job's reschedule or cancel; not a rethrow to the panic handler,
     *                nor a decorator's code): the worker may then be counted as gone by a pool that closes once the
     *                future is seen done; the future then calls {@link #futureCompleted()} as soon as that is over
     * @return whether it was counted: false on any other thread (the worker's counts are written by its thread only)
     */
    boolean countEnded(Throwable failure, boolean last);

    /**
     * Says that the future whose task was counted as the {@code last} step ({@link #countEnded}) has completed (or, a
     * periodic job, is back among the pending jobs), on this worker's own thread (a no-op elsewhere, or after any other
     * count): the worker holds no task now, and a pool that closes may count it as gone. Until then such a pool is not
     * terminated, so whoever sees it terminated sees the future done. A counter that keeps no such state ignores it.
     */
    default void futureCompleted() {
    }
}
