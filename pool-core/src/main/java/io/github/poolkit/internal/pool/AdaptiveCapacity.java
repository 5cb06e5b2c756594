package io.github.poolkit.internal.pool;

import io.github.poolkit.AdaptiveLimit;

/**
 * A pool's capacity following an {@link AdaptiveLimit} ({@code PoolOptions.adaptiveCapacity}): counts the tasks in
 * flight, hands the limit a sample for each finished or refused task, and tunes the pool when the limit changed.
 * Exists only in an adaptive pool, so a pool without one pays nothing for it.
 *
 * <p>Invariant: after the last sample of any burst has been handled, the pool's capacity equals {@code limit.limit()}.
 * Each sample reads the limit after feeding it; only a reading that differs from the capacity enters
 * {@link #follow()}'s monitor, which reads the limit again, tunes to it, and reads it once more: if it moved meanwhile
 * it tunes again. That last read matters: another sample may have moved the limit back to the capacity not yet tuned
 * and found nothing to do, so the thread in the monitor must not leave the capacity at the value it read before. So
 * whoever tunes last saw the limit equal to what it set. The monitor is held only while the limit changes (rarely
 * compared with samples), never while a task runs.
 */
final class AdaptiveCapacity {

    private static final System.Logger LOG = System.getLogger("io.github.poolkit");

    private final String poolName;
    private final AdaptiveLimit limit;
    private final PoolEngine pool;
    /** Tasks running now: one shared counter, acceptable only because the feature is on. */
    private final PaddedCounter inFlight = new PaddedCounter();

    AdaptiveCapacity(String poolName, AdaptiveLimit limit, PoolEngine pool) {
        this.poolName = poolName;
        this.limit = limit;
        this.pool = pool;
    }

    /** {@return the capacity the pool starts with: the limit's current value (at least 1)} */
    int initial() {
        return Math.max(1, limit.limit());
    }

    /**
     * A task starts on a worker.
     *
     * @return the tasks in flight, this one included, to pass to {@link #finished}
     */
    int started() {
        for (;;) {
            int n = inFlight.get();
            if (inFlight.compareAndSet(n, n + 1)) {
                return n + 1;
            }
        }
    }

    /** The task that {@link #started} has ended after {@code runNanos}: one sample, then follow the limit. */
    void finished(long runNanos, int inFlightAtStart) {
        inFlight.decrement();
        sample(Math.max(1, runNanos), inFlightAtStart, false);
    }

    /** A task was refused for overload: a dropped sample. */
    void rejected() {
        sample(0, inFlight.get(), true);
    }

    private void sample(long rttNanos, int inFlightNow, boolean dropped) {
        try {
            limit.onSample(rttNanos, inFlightNow, dropped);
            if (limit.limit() != pool.capacity()) {
                follow();
            }
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "the adaptive limit of pool '" + poolName + "' threw", e);
        }
    }

    private synchronized void follow() {
        int l = limit.limit();
        while (l >= 1 && l != pool.capacity()) {
            pool.tune(l);
            int after = limit.limit();
            if (after == l) {
                return;
            }
            l = after; // moved while we tuned: another sample may have found it equal to the old capacity
        }
    }
}
