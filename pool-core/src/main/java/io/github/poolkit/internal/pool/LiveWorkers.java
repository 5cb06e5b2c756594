package io.github.poolkit.internal.pool;

import java.util.function.Consumer;

/**
 * The workers a pool counts (reserved and not yet retired), for interrupting them, and the task counts of all its
 * workers, live or retired. The list is threaded through the workers themselves, so adding and removing one costs no
 * allocation and no hashing (an unpooled pool adds and removes a worker per task); a removed worker's counts are
 * folded into the totals. Not thread-safe: the pool's lock guards it.
 */
final class LiveWorkers {

    /**
     * The task counts of a pool's workers.
     *
     * @param completed tasks that returned
     * @param failed    tasks that threw
     * @param busy      workers running a task now
     */
    record Tally(long completed, long failed, int busy) {
    }

    private Worker first;
    private long retiredCompleted;
    private long retiredFailed;

    /** Adds a worker that is in no list. */
    void add(Worker w) {
        w.nextLive = first;
        if (first != null) {
            first.previousLive = w;
        }
        first = w;
    }

    /** Removes a worker that is in this list, keeping its task counts. */
    void remove(Worker w) {
        retiredCompleted += w.completedCount();
        retiredFailed += w.failedCount();
        Worker before = w.previousLive;
        Worker after = w.nextLive;
        if (before == null) {
            first = after;
        } else {
            before.nextLive = after;
        }
        if (after != null) {
            after.previousLive = before;
        }
        w.previousLive = null;
        w.nextLive = null;
    }

    /** Calls {@code action} for every worker in the list. */
    void forEach(Consumer<Worker> action) {
        for (Worker w = first; w != null; w = w.nextLive) {
            action.accept(w);
        }
    }

    /**
     * @param pooled whether workers wait idle between tasks; an unpooled worker exists only for its tasks, from the
     *               moment it is reserved for one, so every live one counts as busy
     * @return the counts of every worker so far, retired or live
     */
    Tally tally(boolean pooled) {
        long completed = retiredCompleted;
        long failed = retiredFailed;
        int live = 0;
        int busy = 0;
        for (Worker w = first; w != null; w = w.nextLive) {
            completed += w.completedCount();
            failed += w.failedCount();
            live++;
            busy += w.isBusy() ? 1 : 0;
        }
        return new Tally(completed, failed, pooled ? busy : live);
    }
}
