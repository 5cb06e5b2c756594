package io.github.poolkit.internal.limit;

import io.github.poolkit.AdaptiveLimit;

/**
 * The gradient limit ({@link AdaptiveLimit#gradient}): the limit is scaled, about once per round trip, by the ratio of
 * the reference round-trip time (with a tolerance) to the short-term one, so it settles where latency starts to grow.
 *
 * <p>Per timed sample, with {@code L} the limit as a real number (starting at {@code min}), {@link RttBaseline}
 * updated first:
 * <pre>
 *   ratio = short / reference          (the baseline, plus a third of the samples' noise: see RttBaseline)
 *   ratio &gt; TOLERANCE (1.2):                          L *= max(0.5, TOLERANCE / ratio) ^ (units / L)  (cut)
 *   ratio &lt;= GROWTH_BOUND (1.1), inFlight * 2 &gt;= L:  L += units / L  (about +1 per round trip)
 *   otherwise (between the two, or little in use):  L unchanged  (hold)
 *   L = clamp(L, min, max); limit() = floor(L)
 * </pre>
 * The band between the two bounds is where the limit rests: growth stops once latency is 10% over the reference, so
 * the round trip's lag (the latency a growth step causes is measured a round trip later) overshoots into the band
 * rather than past the cut. Without it (growth up to the cut), the simulated downstream of the {@code AdaptiveKnee}
 * benchmark saw the limit swing between 15 and 22 with the knee at 16, and a p99 latency up to 2.4 times a fixed
 * limit at the knee under an offered load equal to what the knee serves; with it, it rests at 18 to 20.
 * Each finished piece of work is one sample, so about {@code L} samples arrive per round trip: dividing each step by
 * {@code L} keeps the change per round trip independent of the limit and of the load, which keeps the limit from
 * overshooting before the latency its growth causes is measured. (Growing by {@code sqrt(L)} per round trip instead
 * overshot the knee of a simulated downstream enough to cost 10% of its throughput and 60% more p99 latency.)
 * A semaphore's {@code Permit} of {@code n} permits is one sample of {@code units = n} ({@link WeightedSamples}): only
 * about {@code L / n} of them arrive per round trip, so each takes {@code n} steps' worth. Dropped samples and
 * samples without timing change nothing. {@link StrictMath} makes the sequence of limits the same on every JVM.
 *
 * <p>Thread-safe: a sample updates the state under a small lock held for a few arithmetic operations (the pool and the
 * semaphore take it only when they are adaptive); {@link #limit()} is a volatile read (see {@code EstimatedLimit}).
 */
public final class GradientLimit extends EstimatedLimit {

    /** How much slower than the reference the short-term round-trip time may be before the limit falls. */
    static final double TOLERANCE = 1.2;

    /** How much slower than the reference the short-term round-trip time may be while the limit still grows. */
    static final double GROWTH_BOUND = 1.1;

    /**
     * @param min the smallest limit, {@code >= 1}
     * @param max the largest limit, {@code >= min}
     * @throws IllegalArgumentException if {@code min < 1} or {@code max < min}
     */
    public GradientLimit(int min, int max) {
        super("gradient", false, min, max);
    }

    @Override
    double next(double l, boolean inUse, long rttNanos, boolean dropped, double units) {
        RttBaseline rtt = timed(rttNanos, l, inUse);
        double ratio = rtt.shortRtt() / rtt.reference();
        if (ratio > TOLERANCE) {
            return l * StrictMath.pow(Math.max(0.5, TOLERANCE / ratio), units / l);
        }
        return inUse && ratio <= GROWTH_BOUND ? l + units / l : l;
    }
}
