package io.github.poolkit.internal.limit;

import io.github.poolkit.AdaptiveLimit;

import java.util.concurrent.locks.ReentrantLock;

/**
 * What both adaptive limits share: the limit kept as a real number {@code L} between its bounds (starting at
 * {@code min}), moved by one step per sample; each limit says only how a sample moves {@code L}.
 *
 * <p>Per sample that counts:
 * <pre>
 *   inUse = inFlight * 2 &gt;= L
 *   L = clamp(next(L, inUse, sample), min, max); limit() = floor(L)
 * </pre>
 * A sample that was not dropped and has no timing ({@code rtt <= 0}) never counts; a dropped one counts only for a
 * limit that backs off on drops.
 *
 * <p>Thread-safe: the lock guards {@code L} and the {@link RttBaseline}, and is held for a step's few arithmetic
 * operations only (the pool and the semaphore take it only when they are adaptive); {@link #limit()} is a volatile
 * read of the last {@code floor(L)}, written under the lock.
 */
abstract class EstimatedLimit implements AdaptiveLimit, WeightedSamples {

    private final String name;
    private final boolean backsOffOnDrop;
    private final LimitBounds bounds;
    private final ReentrantLock lock = new ReentrantLock();
    private final RttBaseline rtt = new RttBaseline();
    private double estimate;
    private volatile int limit;

    /**
     * @param name           the limit's name in {@link #toString()}, such as {@code aimd}
     * @param backsOffOnDrop whether a dropped sample counts
     * @param min            the smallest limit, {@code >= 1}
     * @param max            the largest limit, {@code >= min}
     * @throws IllegalArgumentException if {@code min < 1} or {@code max < min}
     */
    EstimatedLimit(String name, boolean backsOffOnDrop, int min, int max) {
        this.name = name;
        this.backsOffOnDrop = backsOffOnDrop;
        this.bounds = new LimitBounds(min, max);
        this.estimate = min;
        this.limit = min;
    }

    /**
     * The step of one sample that counts, called under the lock.
     *
     * @param l        the limit as a real number now
     * @param inUse    whether at least half of it was in use
     * @param rttNanos the sample's round-trip time, {@code > 0} unless dropped
     * @param dropped  whether the work was dropped (only for a limit that backs off on drops)
     * @param units    how many units of the limit the work held, {@code 1 <= units <= max(1, l)}: the size of a step
     *                 that assumes about {@code L} samples per round trip is multiplied by it
     * @return the next {@code L}, before it is clamped to the bounds
     */
    abstract double next(double l, boolean inUse, long rttNanos, boolean dropped, double units);

    /**
     * Adds a timed sample to the round-trip times, within {@link #next}: the baseline may rise only while the limit is
     * at its floor or less than half of it is in use (see {@link RttBaseline}).
     *
     * @return the round-trip times, the sample included
     */
    final RttBaseline timed(long rttNanos, double l, boolean inUse) {
        rtt.add(rttNanos, l <= bounds.min() || !inUse);
        return rtt;
    }

    @Override
    public final int limit() {
        return limit;
    }

    @Override
    public final void onSample(long rttNanos, int inFlight, boolean dropped) {
        onSample(rttNanos, inFlight, dropped, 1);
    }

    @Override
    public final void onSample(long rttNanos, long inFlight, boolean dropped, long weight) {
        if (dropped ? !backsOffOnDrop : rttNanos <= 0) {
            return;
        }
        lock.lock();
        try {
            double l = estimate;
            double units = Math.clamp(weight, 1, Math.max(1, l)); // one sample is at most a round trip's worth
            estimate = bounds.clamp(next(l, inFlight * 2.0 >= l, rttNanos, dropped, units));
            limit = (int) estimate;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public final String toString() {
        return "AdaptiveLimit." + name + "[min=" + bounds.min() + ", max=" + bounds.max() + ", limit=" + limit + "]";
    }
}
