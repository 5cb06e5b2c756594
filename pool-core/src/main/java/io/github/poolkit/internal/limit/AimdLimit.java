package io.github.poolkit.internal.limit;

import io.github.poolkit.AdaptiveLimit;

/**
 * The additive-increase, multiplicative-decrease limit ({@link AdaptiveLimit#aimd}).
 *
 * <p>Per sample, with {@code L} the limit as a real number (starting at {@code min}), {@link RttBaseline} updated
 * first by a timed sample:
 * <pre>
 *   dropped, or short-term rtt &gt; SLOWDOWN * baseline:   L *= BACKOFF                (0.9)
 *   else, with inFlight * 2 &gt;= L:                     L += units / L                (about +1 per round trip)
 *   L = clamp(L, min, max); limit() = floor(L)
 * </pre>
 * {@code units} is 1, or a semaphore's {@code Permit}'s permits ({@link WeightedSamples}); the back-off stays per
 * sample. A dropped sample needs no timing and never enters the averages; a sample that was not dropped and has none
 * ({@code rtt <= 0}) changes nothing.
 *
 * <p>Thread-safe, as {@link GradientLimit}: a small lock per sample, a volatile read for {@link #limit()} (see
 * {@code EstimatedLimit}).
 */
public final class AimdLimit extends EstimatedLimit {

    /** The short-term round-trip time above this multiple of the baseline counts as a slowdown. */
    static final double SLOWDOWN = 2.0;

    /** What a drop or a slowdown multiplies the limit by. */
    static final double BACKOFF = 0.9;

    /**
     * @param min the smallest limit, {@code >= 1}
     * @param max the largest limit, {@code >= min}
     * @throws IllegalArgumentException if {@code min < 1} or {@code max < min}
     */
    public AimdLimit(int min, int max) {
        super("aimd", true, min, max);
    }

    @Override
    double next(double l, boolean inUse, long rttNanos, boolean dropped, double units) {
        boolean slow = false;
        if (!dropped) {
            RttBaseline rtt = timed(rttNanos, l, inUse);
            slow = rtt.shortRtt() > SLOWDOWN * rtt.baseline();
        }
        if (dropped || slow) {
            return l * BACKOFF;
        }
        return inUse ? l + units / l : l;
    }
}
