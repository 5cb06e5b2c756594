package io.github.poolkit.internal.pool;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.IntSupplier;

/**
 * The workers of an unpooled pool (a virtual thread per task), added and removed without the pool's lock: a worker is
 * reserved for one task and leaves when it ends, so the set is on the path of every task, and must cost no lock and
 * no write to memory another worker uses.
 *
 * <ul>
 *   <li><b>Slots.</b> A worker sits in one slot of a table with room for four times the pool's capacity: it claims a
 *       free slot with one CAS, trying {@link #PROBES} neighbours of a start its thread id picks (spread, so workers
 *       started one after another land far apart), and gives it back with a release store. No lock, and no other
 *       worker's memory is touched (a linked list would update its neighbours). Up to a capacity of 32 768 the
 *       table is at most a quarter full, so the first slot tried is free three times out of four.</li>
 *   <li><b>Overflow.</b> A worker that finds no free slot (the capacity grew past the table, or the pool is unlimited
 *       and busier than the table) joins the striped {@link LinkedWorkers} lists, each with a small lock of its own:
 *       slower, still correct.</li>
 *   <li><b>Counts.</b> A worker's counts are folded into striped counters when it leaves the slots (the overflow
 *       lists fold their own). {@link #tally} reads only those folded counts: each is only ever added to, so a task
 *       is never counted twice and successive tallies never go down; a task counts from the moment its worker
 *       leaves, a moment after it ends; a submitted future's task is folded as it ends ({@link #countEnded}), before
 *       its future completes, and not again when its worker leaves. Every live worker is busy (it exists only for its
 *       task), so busy is the pool's count of reserved places.</li>
 * </ul>
 *
 * <p>Interrupting ({@link #forEach}, for {@code shutdownNow} and the overdue watch) reads each slot with a volatile
 * read: a worker added after the scan passed its slot has made its CAS before it reads the pool's state, which the
 * scanner wrote before it scanned, so one of the two sees the other (the pool checks the state before each task).
 * (A hash set was measured slower: identity hash codes cost a header update per worker, and its bins lock with
 * monitors, which pin virtual threads on JDK 21.)
 */
final class ConcurrentWorkers implements WorkerSet {

    /** Slots tried from a worker's start before it joins the overflow (16 references: one or two cache lines). */
    static final int PROBES = 16;

    private static final int MIN_SLOTS = 64;
    private static final int MAX_SLOTS = 1 << 17;
    /** The table of a pool with no capacity. */
    private static final int UNLIMITED_SLOTS = 1 << 12;

    private static final int STRIPES = Integer.highestOneBit(Math.max(1, Runtime.getRuntime().availableProcessors()
            * 4 - 1)) << 1;
    /** Longs between two stripes' counters: 128 bytes, so that no two stripes share a cache line. */
    private static final int SPACING = 16;

    private final AtomicReferenceArray<Worker> slots;
    private final int mask;
    /** Per stripe, at {@code stripe * SPACING}: tasks completed; at {@code + 1}: tasks failed; by workers that left. */
    private final AtomicLongArray counts = new AtomicLongArray(STRIPES * SPACING);
    private final ReentrantLock[] locks = new ReentrantLock[STRIPES];
    private final LinkedWorkers[] overflow = new LinkedWorkers[STRIPES];
    private final IntSupplier busy;

    /**
     * @param capacity the pool's capacity, {@code <= 0} for none (sizes the table)
     * @param busy     the pool's count of reserved places, which is its count of busy workers
     */
    ConcurrentWorkers(int capacity, IntSupplier busy) {
        int size = capacity <= 0 ? UNLIMITED_SLOTS
                : Integer.highestOneBit((int) Math.min(MAX_SLOTS, Math.max(MIN_SLOTS, 4L * capacity) * 2 - 1));
        this.slots = new AtomicReferenceArray<>(size);
        this.mask = size - 1;
        this.busy = busy;
        for (int i = 0; i < STRIPES; i++) {
            locks[i] = new ReentrantLock();
            overflow[i] = new LinkedWorkers();
        }
    }

    /** {@return the number of slots} */
    int slotCount() {
        return mask + 1;
    }

    /**
     * Adds a worker on its own thread, or a fetcher on the thread that reserves it, under the pool's lock: into a free
     * slot near the start that thread's id picks, else into an overflow list.
     */
    @Override
    public void add(Worker w) {
        int start = spread(Thread.currentThread().threadId());
        for (int k = 0; k < PROBES; k++) {
            int i = (start + k) & mask;
            if (slots.get(i) == null && slots.compareAndSet(i, null, w)) {
                w.stripe = i;
                w.listed = true;
                return;
            }
        }
        w.stripe = -1 - (start & (STRIPES - 1));
        listOverflowed(w, true);
    }

    /** Removes a worker whose task has ended (or that never started), keeping its counts. */
    @Override
    public void remove(Worker w) {
        if (w.stripe < 0) {
            listOverflowed(w, false);
        } else if (w.listed) { // else never listed: its thread did not start
            fold(w);
            unlist(w);
        }
    }

    /**
     * {@inheritDoc} A worker in a slot: its counts folded, then {@code whileListed}, then its slot freed
     * ({@link #tally} reads only folded counts, so the worker may stay in its slot meanwhile, counted once).
     */
    @Override
    public void remove(Worker w, Runnable whileListed) {
        if (w.stripe < 0 || !w.listed) {
            WorkerSet.super.remove(w, whileListed);
            return;
        }
        fold(w);
        whileListed.run();
        unlist(w);
    }

    /** Adds the counts of a worker leaving its slot to the striped counts. */
    private void fold(Worker w) {
        int s = spread(Thread.currentThread().threadId()) & (STRIPES - 1);
        long completed = w.completedCount();
        long failed = w.failedCount();
        if (completed != 0) {
            counts.getAndAdd(s * SPACING, completed);
        }
        if (failed != 0) {
            counts.getAndAdd(s * SPACING + 1, failed);
        }
    }

    private void unlist(Worker w) {
        w.listed = false;
        slots.setRelease(w.stripe, null);
    }

    /**
     * {@inheritDoc} A worker in a slot adds the task to the striped counts now (its own counts, folded when it
     * leaves, never hold it); one in an overflow list counts it on itself, which that list's tally reads live.
     */
    @Override
    public void countEnded(Worker w, boolean failed) {
        if (w.stripe < 0 || !w.listed) {
            WorkerSet.super.countEnded(w, failed);
            return;
        }
        int s = spread(Thread.currentThread().threadId()) & (STRIPES - 1);
        counts.getAndIncrement(s * SPACING + (failed ? 1 : 0));
    }

    @Override
    public void forEach(Consumer<Worker> action) {
        for (int i = 0; i <= mask; i++) {
            Worker w = slots.get(i);
            if (w != null) {
                action.accept(w);
            }
        }
        for (int s = 0; s < STRIPES; s++) {
            locks[s].lock();
            try {
                overflow[s].forEach(action);
            } finally {
                locks[s].unlock();
            }
        }
    }

    @Override
    public Tally tally() {
        long completed = 0;
        long failed = 0;
        for (int s = 0; s < STRIPES; s++) {
            completed += counts.get(s * SPACING);
            failed += counts.get(s * SPACING + 1);
            locks[s].lock();
            try {
                Tally t = overflow[s].tally(); // exact under its lock, live workers included
                completed += t.completed();
                failed += t.failed();
            } finally {
                locks[s].unlock();
            }
        }
        return new Tally(completed, failed, busy.getAsInt());
    }

    /**
     * Adds or removes a worker that found no slot, in the list of its stripe ({@code -1 - w.stripe}), with plain calls
     * under that stripe's lock. (These used to go through one helper that took {@code add}, {@code remove} and
     * {@code forEach} as method references. In a pool with 100 000s of virtual threads in flight, profiled with JFR
     * on 2 processors, a third of all samples were then these removals, running in the interpreter; with plain
     * calls, fewer, and runs at a capacity of 1 000 000 took a third less time. See docs/benchmarks.md.)
     */
    private void listOverflowed(Worker w, boolean add) {
        int s = -1 - w.stripe;
        locks[s].lock();
        try {
            if (add) {
                overflow[s].add(w);
            } else {
                overflow[s].remove(w);
            }
        } finally {
            locks[s].unlock();
        }
    }

    /** Fibonacci hashing of a thread id: consecutive ids land far apart. */
    private static int spread(long threadId) {
        return (int) ((threadId * 0x9E3779B97F4A7C15L) >>> 40);
    }
}
