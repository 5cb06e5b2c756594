package io.github.poolkit.internal.pool;

import java.util.function.Consumer;

/**
 * The pooled workers of a pool ({@link WorkerSet}). The list is threaded through the workers themselves, so adding and
 * removing one costs no allocation and no hashing; a removed worker's counts are folded into the totals. Not
 * thread-safe: the pool's lock guards it, and {@link #tally} is read under it so that each task counts once.
 */
final class LinkedWorkers implements WorkerSet {

    private Worker first;
    private int size;
    private long retiredCompleted;
    private long retiredFailed;

    @Override
    public void add(Worker w) {
        w.listed = true;
        w.nextLive = first;
        if (first != null) {
            first.previousLive = w;
        }
        first = w;
        size++;
    }

    /** {@return workers in the list} */
    int size() {
        return size;
    }

    @Override
    public void remove(Worker w) {
        if (!w.listed) {
            return; // never listed: an unpooled worker whose thread did not start
        }
        w.listed = false;
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
        size--;
    }

    @Override
    public void forEach(Consumer<Worker> action) {
        for (Worker w = first; w != null; w = w.nextLive) {
            action.accept(w);
        }
    }

    @Override
    public Tally tally() {
        long completed = retiredCompleted;
        long failed = retiredFailed;
        int busy = 0;
        for (Worker w = first; w != null; w = w.nextLive) {
            completed += w.completedCount();
            failed += w.failedCount();
            busy += w.isBusy() ? 1 : 0;
        }
        return new Tally(completed, failed, busy);
    }
}
