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

    private static final boolean MULTICORE = Runtime.getRuntime().availableProcessors() > 1;

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
}
