package io.github.poolkit.internal;

/**
 * When poolkit's threads spin instead of parking at once, in one place. Spinning pays only when another core can
 * produce what the spinner waits for meanwhile, so a thread spins only on a multi-core machine, and never on a
 * virtual thread, which would hold one of the few carrier threads. Every spin is bounded; then the thread parks (or,
 * waiting for a store that another thread is about to make, yields).
 */
public final class SpinPolicy {

    /** Spins of a worker waiting for its hand-off in a pool without a queue, where every task is a hand-off. */
    static final int HANDOFF_SPINS = 128;

    /** Polls of an empty queue by a finishing worker before it goes idle. */
    static final int QUEUE_SPINS = 128;

    /**
     * The most workers spinning on a pool's queue at once. One keeps a busy pool from parking between tiny tasks;
     * more would take the cores from the threads that submit (measured: at 64 workers, uncapped spinners starved
     * them).
     */
    static final int MAX_QUEUE_SPINNERS = 1;

    /** Spins while another thread finishes a store it has committed to, before yielding instead. */
    private static final int SPINS_BEFORE_YIELD = 64;

    private static final boolean MULTI_CORE = Runtime.getRuntime().availableProcessors() > 1;

    private SpinPolicy() {
    }

    /**
     * @param spins the spins that would pay on a multi-core machine
     * @return {@code spins} on a platform thread of a multi-core machine, else 0
     */
    public static int spinsBeforePark(int spins) {
        return MULTI_CORE && !Thread.currentThread().isVirtual() ? spins : 0;
    }

    /**
     * Waits one step for another thread that has committed to a store and is about to make it (it may have been
     * descheduled in between): spins first, then yields.
     *
     * @param waits the steps waited so far
     * @return {@code waits + 1}
     */
    static int awaitStore(int waits) {
        if (waits < SPINS_BEFORE_YIELD) {
            Thread.onSpinWait();
        } else {
            Thread.yield();
        }
        return waits + 1;
    }
}
