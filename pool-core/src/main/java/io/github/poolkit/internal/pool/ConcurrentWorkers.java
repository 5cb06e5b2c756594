package io.github.poolkit.internal.pool;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * The workers of an unpooled pool (a virtual thread per task), added and removed without a lock: a worker is reserved
 * for one task and leaves when it ends, so a set under the pool's lock would make every task take it twice.
 *
 * <p>Counting: a worker's counts are folded into the totals when it is removed, right after its one task, and only
 * the totals are reported, so the figures never go down and never count a task twice; a task that has just ended
 * counts a moment later. Every live worker is busy (it exists only for its task), so {@code busy} is the set's size.
 */
final class ConcurrentWorkers implements WorkerSet {

    private final Set<Worker> live = ConcurrentHashMap.newKeySet();
    private final LongAdder completed = new LongAdder();
    private final LongAdder failed = new LongAdder();

    @Override
    public void add(Worker w) {
        live.add(w);
    }

    @Override
    public void remove(Worker w) {
        if (live.remove(w)) {
            completed.add(w.completedCount());
            failed.add(w.failedCount());
        }
    }

    @Override
    public void forEach(Consumer<Worker> action) {
        live.forEach(action);
    }

    @Override
    public Tally tally() {
        return new Tally(completed.sum(), failed.sum(), live.size());
    }
}
