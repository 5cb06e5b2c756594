package io.github.poolkit.internal.limit;

import io.github.poolkit.AdaptiveLimit;

/**
 * The gradient limit ({@link AdaptiveLimit#gradient}): the limit is scaled, about once per round trip, by the ratio of
 * the baseline round-trip time (with a tolerance) to the short-term one, so it settles where latency starts to grow.
 *
 * <p>Per timed sample, with {@code L} the limit as a real number (starting at {@code min}), {@link RttBaseline}
 * updated first:
 * <pre>
 *   gradient = clamp(TOLERANCE * baseline / short, 0.5, 1.0)
 *   gradient == 1 (latency within tolerance) and inFlight * 2 &gt;= L:  L += 1 / L             (about +1 per round trip)
 *   gradient &lt; 1:                                                  L *= gradient ^ (1 / L) (about * gradient per round trip)
 *   L = clamp(L, min, max); limit() = floor(L)
 * </pre>
 * Each finished piece of work is one sample, so about {@code L} samples arrive per round trip: dividing each step by
 * {@code L} keeps the change per round trip independent of the limit and of the load, which keeps the limit from
 * overshooting before the latency its growth causes is measured. (Growing by {@code sqrt(L)} per round trip instead
 * overshot the knee of a simulated downstream enough to cost 10% of its throughput and 60% more p99 latency; the
 * tolerance of 1.2 and the short-term weight of 1/8 held up best there when the service time was noisy.) Dropped samples and samples without timing change
 * nothing. {@link StrictMath} makes the sequence of limits the same on every JVM.
 *
 * <p>Thread-safe: a sample updates the state under a small lock held for a few arithmetic operations (the pool and the
 * semaphore take it only when they are adaptive); {@link #limit()} is a volatile read (see {@code EstimatedLimit}).
 */
public final class GradientLimit extends EstimatedLimit {

    /** How much slower than the baseline the short-term round-trip time may be before the limit falls. */
    static final double TOLERANCE = 1.2;

    /**
     * @param min the smallest limit, {@code >= 1}
     * @param max the largest limit, {@code >= min}
     * @throws IllegalArgumentException if {@code min < 1} or {@code max < min}
     */
    public GradientLimit(int min, int max) {
        super("gradient", false, min, max);
    }

    @Override
    double next(double l, boolean inUse, long rttNanos, boolean dropped) {
        RttBaseline rtt = timed(rttNanos, l, inUse);
        double gradient = Math.max(0.5, Math.min(1.0, TOLERANCE * rtt.baseline() / rtt.shortRtt()));
        if (gradient < 1.0) {
            return l * StrictMath.pow(gradient, 1.0 / l);
        }
        return inUse ? l + 1.0 / l : l;
    }
}
