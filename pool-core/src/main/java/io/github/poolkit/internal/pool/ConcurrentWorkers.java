package io.github.poolkit.internal.pool;

import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The workers of an unpooled pool (a virtual thread per task), added and removed without the pool's lock: a worker is
 * reserved for one task and leaves when it ends, so a set under the pool's lock would make every task take that lock
 * twice. The set is striped: {@link LinkedWorkers} lists, each with a small lock of its own, a worker in the stripe its
 * thread's id picks when it is added, so that workers on different processors rarely meet. (A hash set was measured
 * slower: identity hash codes cost a header update per worker, and its bins lock with monitors, which pin virtual
 * threads.)
 *
 * <p>Counts are exact per stripe, as in {@link LinkedWorkers}: each stripe folds a removed worker's counts into its
 * totals under its own lock, and {@link #tally} reads each stripe under its lock, so no task counts twice or not at
 * all. Every live worker is busy (it exists only for its task).
 */
final class ConcurrentWorkers implements WorkerSet {

    private static final int STRIPES = Integer.highestOneBit(Math.max(1, Runtime.getRuntime().availableProcessors()
            * 4 - 1)) << 1;

    private final ReentrantLock[] locks = new ReentrantLock[STRIPES];
    private final LinkedWorkers[] stripes = new LinkedWorkers[STRIPES];

    ConcurrentWorkers() {
        for (int i = 0; i < STRIPES; i++) {
            locks[i] = new ReentrantLock();
            stripes[i] = new LinkedWorkers();
        }
    }

    @Override
    public void add(Worker w) {
        int i = stripeOf(Thread.currentThread());
        w.stripe = i;
        locks[i].lock();
        try {
            stripes[i].add(w);
        } finally {
            locks[i].unlock();
        }
    }

    /**
     * The stripe of a worker starting on thread {@code t}: its thread id, spread (Fibonacci hashing), so that workers
     * started one after another land on different stripes. Not {@code ThreadLocalRandom}: on a fresh virtual thread
     * its first use seeds the thread from two counters shared by the whole JVM, one more contended write per task.
     */
    private static int stripeOf(Thread t) {
        return (int) ((t.threadId() * 0x9E3779B97F4A7C15L) >>> 32) & (STRIPES - 1);
    }

    @Override
    public void remove(Worker w) {
        int i = w.stripe;
        locks[i].lock();
        try {
            stripes[i].remove(w);
        } finally {
            locks[i].unlock();
        }
    }

    @Override
    public void forEach(Consumer<Worker> action) {
        for (int i = 0; i < STRIPES; i++) {
            locks[i].lock();
            try {
                stripes[i].forEach(action);
            } finally {
                locks[i].unlock();
            }
        }
    }

    @Override
    public Tally tally() {
        long completed = 0;
        long failed = 0;
        int live = 0;
        for (int i = 0; i < STRIPES; i++) {
            locks[i].lock();
            try {
                Tally t = stripes[i].tally();
                completed += t.completed();
                failed += t.failed();
                live += stripes[i].size();
            } finally {
                locks[i].unlock();
            }
        }
        return new Tally(completed, failed, live);
    }
}
