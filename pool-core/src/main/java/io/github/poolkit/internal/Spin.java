package io.github.poolkit.internal;

/**
 * The one spin policy of poolkit: how long a thread that must wait for another may busy-wait
 * ({@link Thread#onSpinWait()}) before it parks. Internal; not part of poolkit's API.
 *
 * <p>The rule: spin only where spinning can pay off, i.e. on a platform thread when the machine has more than one
 * processor (only then can another core hand over the awaited value meanwhile). A virtual thread never spins: it
 * would pin its carrier, and parking a virtual thread is cheap anyway. Callers choose the number of spins for their
 * own critical section; this class decides whether they may use it.
 */
public final class Spin {

    /** The processors of this machine. */
    public static final int PROCESSORS = Runtime.getRuntime().availableProcessors();

    /** Spins of a pool worker waiting for its hand-off in a pool without a queue, where every task is a hand-off. */
    public static final int HANDOFF_SPINS = 128;

    /**
     * The most callers of a pool without a queue spinning for a worker to come back at once: half the processors, at
     * least one, so that the threads with work to do keep the other half (idle workers: {@link #MAX_IDLE_SPINNERS}).
     */
    public static final int MAX_HANDOFF_SPINNERS = Math.max(1, PROCESSORS / 2);

    /**
     * The most idle workers of a pool without a queue spinning for their next task at once: one per processor. The
     * submitting threads run on the others' processors meanwhile, so a worker that spins is one fewer park and
     * unpark per task (measured on 2 processors: capping this at one halved the hand-off rate).
     */
    public static final int MAX_IDLE_SPINNERS = Math.max(1, PROCESSORS);

    /** The fewest processors on which a caller spins for a hand-off (on fewer, it would take a busy worker's). */
    public static final int CALLER_SPIN_MIN_PROCESSORS = 4;

    /** Whether callers spin for a hand-off on this machine. */
    public static final boolean CALLERS_SPIN = PROCESSORS >= CALLER_SPIN_MIN_PROCESSORS;

    /**
     * Spins of the caller first in line of a full pool before it parks, watching for the wake-up of a place that
     * frees (about as long as {@code AbstractQueuedSynchronizer} lets its first waiter spin). Measured on 2 processors
     * (a virtual-thread pool of capacity 50 000 fed by one thread): the caller parked for about 4% of its tasks
     * without it, and for 1% with it.
     */
    public static final int BLOCKED_CALLER_SPINS = 256;

    /**
     * The fewest processors on which a queued pool's workers take from the queue one at a time, under a lock
     * ({@link #TAKE_LOCKED}).
     *
     * <p>Measured with 16 workers and tiny tasks on a 16-processor Xeon limited to 4, 8 and 16 processors: with every
     * worker taking lock-free at once (a CAS on the queue's head, retried on failure) the pool ran 2.2-4.8 M tasks/s,
     * under {@code ThreadPoolExecutor}'s 4.4 to 5.0; with the takers queued on a lock (whose losers park, so one taker
     * at a time touches the head while its cache lines stay warm) it ran 9.7 to 12.4 M/s. On 2 processors the lock cost
     * 12% to 20% (with 16 or 64 workers on 2 cores, the holder is often descheduled with the lock held), so there the
     * takers stay lock-free.
     */
    public static final int TAKE_LOCK_MIN_PROCESSORS = 4;

    /** Whether a queued pool's workers take from the queue under a lock on this machine. */
    public static final boolean TAKE_LOCKED = PROCESSORS >= TAKE_LOCK_MIN_PROCESSORS;

    /** Polls of an empty queue by a finishing pool worker before it goes idle. */
    public static final int QUEUE_SPINS = 128;

    /** Spins while another thread finishes a store it has committed to, before yielding instead. */
    private static final int SPINS_BEFORE_YIELD = 64;

    private static final boolean MULTICORE = PROCESSORS > 1;

    private Spin() {
    }

    /**
     * Returns how many times the current thread may spin before parking.
     *
     * @param spins the caller's budget on a platform thread of a multi-core machine, {@code >= 0}
     * @return {@code spins}, or {@code 0} on a virtual thread or a single-processor machine
     */
    public static int budget(int spins) {
        return MULTICORE && !Thread.currentThread().isVirtual() ? spins : 0;
    }

    /**
     * Waits one step for another thread that has committed to a store and is about to make it (it may have been
     * descheduled in between): spins first, then yields. Unlike a wait that can park, this one cannot end any other
     * way, so it spins on any thread.
     *
     * @param waits the steps waited so far
     * @return {@code waits + 1}
     */
    public static int awaitStore(int waits) {
        if (waits < SPINS_BEFORE_YIELD) {
            Thread.onSpinWait();
        } else {
            Thread.yield();
        }
        return waits + 1;
    }
}
