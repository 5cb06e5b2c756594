package io.github.poolkit;

/**
 * One snapshot of a pool's figures, read at once by {@link Pool#stats()}: what a metrics scrape, a health check or an
 * admin endpoint shows.
 *
 * @param capacity  the most workers, or -1 when unlimited
 * @param running   workers alive: busy, or idle and not yet purged
 * @param busy      workers running a task now
 * @param queued    tasks waiting in the queue
 * @param blocked   callers blocked in {@code execute}/{@code invoke}
 * @param completed tasks that ran to the end without throwing, since the pool was created
 * @param failed    tasks that threw, since the pool was created (not counted in {@code completed}); a task given to
 *                  {@code submit}, {@code invokeAll} or {@code invokeAny} that throws counts here too, though its
 *                  exception goes to its future. Such a task is counted before its future completes, so a
 *                  {@code stats()} read after {@code Future.get()} returns sees it; one cancelled before it started
 *                  never ran and is counted nowhere
 * @param rejected  tasks refused since the pool was created: overload, closed pool, interrupted or timed-out wait, a
 *                  worker thread that could not be started
 * @param closed    whether the pool is released
 * @param overdue   tasks reported overdue since the pool was created ({@link PoolListener#taskOverdue}), each once
 *                  per kind: run too long, or waited too long to start (counted also when a listener that had
 *                  fallen behind was not told)
 */
public record PoolStats(int capacity, int running, int busy, int queued, int blocked,
                        long completed, long failed, long rejected, boolean closed, long overdue) {

    /**
     * A snapshot of a pool that counts no overdue tasks ({@link #overdue()} is 0): the components every snapshot had
     * before {@code overdue} was added, so that code building one (a {@link Pool} of its own, a test) still compiles.
     *
     * @param capacity  the most workers, or -1 when unlimited
     * @param running   workers alive: busy, or idle and not yet purged
     * @param busy      workers running a task now
     * @param queued    tasks waiting in the queue
     * @param blocked   callers blocked in {@code execute}/{@code invoke}
     * @param completed tasks that ran to the end without throwing, since the pool was created
     * @param failed    tasks that threw, since the pool was created
     * @param rejected  tasks refused since the pool was created
     * @param closed    whether the pool is released
     */
    public PoolStats(int capacity, int running, int busy, int queued, int blocked,
                     long completed, long failed, long rejected, boolean closed) {
        this(capacity, running, busy, queued, blocked, completed, failed, rejected, closed, 0);
    }

    /** {@return {@code queued() + blocked()}: what {@link Pool#waiting()} reports} */
    public int waiting() {
        return queued + blocked;
    }

    /** {@return {@code max(0, capacity() - running())}, or -1 when unlimited: what {@link Pool#free()} reports} */
    public int free() {
        return capacity < 0 ? -1 : Math.max(0, capacity - running);
    }

    /** {@return whether the capacity is unlimited} */
    public boolean unlimited() {
        return capacity < 0;
    }
}
