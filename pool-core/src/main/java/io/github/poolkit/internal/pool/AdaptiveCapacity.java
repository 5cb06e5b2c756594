package io.github.poolkit.internal.pool;

import io.github.poolkit.internal.PaddedLong;
import io.github.poolkit.AdaptiveLimit;
import io.github.poolkit.internal.limit.LimitFollowing;

/**
 * A pool's capacity following an {@link AdaptiveLimit} ({@code PoolOptions.adaptiveCapacity}): counts the tasks in
 * flight, hands the limit a sample for each finished or refused task, and tunes the pool when the limit changed.
 * Exists only in an adaptive pool, so a pool without one pays nothing for it.
 *
 * <p>Invariant: after the last sample of any burst has been handled, the pool's capacity equals {@code limit.limit()}
 * ({@link LimitFollowing}). Each sample reads the limit after feeding it; only a reading that differs from the capacity
 * enters {@link #follow()}'s monitor, held only while the limit changes (rarely compared with samples), never while a
 * task runs; the only application code {@code tune} may run is the thread factory (and, should it throw, the panic
 * handler), when a grown capacity starts workers for queued tasks.
 */
final class AdaptiveCapacity {

    private static final System.Logger LOG = System.getLogger("io.github.poolkit");

    private final String poolName;
    private final AdaptiveLimit limit;
    private final PoolEngine pool;
    /** Tasks running now: one shared counter, acceptable only because the feature is on. */
    private final PaddedLong inFlight = new PaddedLong();

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
            long n = inFlight.get();
            if (inFlight.compareAndSet(n, n + 1)) {
                return (int) n + 1;
            }
        }
    }

    /**
     * The task that {@link #started} has ended after {@code runNanos}: one sample, then follow the limit; a future
     * cancelled before it started ({@code ran} false) took no time worth measuring, so it is no sample (its few
     * nanoseconds would drag the round-trip baseline down, and real runs would then look congested).
     */
    void finished(long runNanos, int inFlightAtStart, boolean ran) {
        inFlight.decrement();
        if (ran) {
            sample(Math.max(1, runNanos), inFlightAtStart, false);
        }
    }

    /** A task was refused for overload: a dropped sample. */
    void rejected() {
        sample(0, (int) inFlight.get(), true);
    }

    private void sample(long rttNanos, int inFlightNow, boolean dropped) {
        try {
            limit.onSample(rttNanos, inFlightNow, dropped);
            if (limit.limit() != pool.capacity()) {
                follow();
            }
        } catch (Throwable e) { // an application's limit, as a listener: on a worker or a refusal, never thrown
            LOG.log(System.Logger.Level.WARNING, "the adaptive limit of pool '" + poolName + "' threw", e);
        }
    }

    private synchronized void follow() {
        LimitFollowing.follow(limit, 1, pool::capacity, pool::tune);
    }
}
