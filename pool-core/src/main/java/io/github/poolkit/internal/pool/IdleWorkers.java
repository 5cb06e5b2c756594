package io.github.poolkit.internal.pool;

/**
 * The store of idle workers (ants' {@code workerQueue}). Workers are kept ordered by the time they were last put
 * back, oldest first, so the ones idle for longer than the expiry form a prefix that a binary search finds.
 *
 * <p>Not thread-safe: every method is called with the pool's lock held.
 */
interface IdleWorkers {

    /** @return how many workers are idle */
    int size();

    /**
     * Puts back a worker that just became idle; its {@link Worker#lastUsedNanos} is the newest in the store.
     *
     * @param worker the worker
     */
    void push(Worker worker);

    /** @return the most recently used idle worker, removed from the store, or {@code null} when there is none */
    Worker pop();

    /**
     * Removes the workers last used before {@code deadlineNanos} (in {@link System#nanoTime()} terms).
     *
     * @param deadlineNanos workers last used strictly before this are expired
     * @return the removed workers, or an empty array
     */
    Worker[] removeExpired(long deadlineNanos);

    /** @return every idle worker, removed from the store */
    Worker[] removeAll();

    /**
     * Creates the store ants would: a pre-allocated ring for {@code preAlloc}, else a stack that grows on demand.
     *
     * @param preAlloc whether to allocate for {@code capacity} up front
     * @param capacity the pool's capacity (only used with {@code preAlloc})
     * @return an empty store
     */
    static IdleWorkers create(boolean preAlloc, int capacity) {
        return preAlloc ? new IdleWorkerRing(capacity) : new IdleWorkerStack();
    }

    /**
     * The number of workers in {@code [0, size)} of a last-use-ordered sequence that are expired: the index of the
     * first worker last used at or after the deadline.
     */
    static int countExpired(int size, long deadlineNanos, java.util.function.IntFunction<Worker> at) {
        int lo = 0;
        int hi = size;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (at.apply(mid).lastUsedNanos - deadlineNanos < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
