package io.github.poolkit;

import io.github.poolkit.internal.limit.AimdLimit;
import io.github.poolkit.internal.limit.GradientLimit;

/**
 * A concurrency limit that follows the latency of what it protects, in the manner of Netflix's concurrency-limits:
 * each finished piece of work is a <em>sample</em> (how long it took, how much work was in flight, and
 * whether it was dropped), and the limit rises while the samples say there is room and falls when they say the
 * protected resource is saturated.
 *
 * <p>A pool follows one with {@link PoolOptions.Builder#adaptiveCapacity(AdaptiveLimit)}, a semaphore with
 * {@link WeightedSemaphore#adaptive(AdaptiveLimit)}. Give each pool or semaphore a limit of its own: one limit shared
 * by two mixes their samples (one's overload shrinks the other), and only the one whose sample changed it follows it at
 * once. Two algorithms are built in:
 * <ul>
 *   <li>{@link #gradient(int, int)}, the default: compares the short-term round-trip time with a long-term baseline
 *       and scales the limit by their ratio, so the limit settles where latency starts to grow (after Netflix's
 *       {@code Gradient2Limit}).</li>
 *   <li>{@link #aimd(int, int)}: additive increase, multiplicative decrease (after TCP's congestion control): grows by
 *       about one per round trip while nothing is dropped and latency stays within twice its baseline, and shrinks by
 *       10% on each drop and on each sample while latency is over twice its baseline (unlike TCP, which cuts once per
 *       window: a lasting slowdown takes it to {@code min} within about one round trip).</li>
 * </ul>
 *
 * <p>Contract of every implementation: {@link #limit()} stays within the bounds it was made with, and, for a given
 * sequence of samples, the limits it returns are always the same: it reads no clock and draws no random number of its
 * own (the caller measures the round-trip time). {@link #onSample} is called concurrently by every thread that
 * finishes work, so implementations must be thread-safe; {@link #limit()} is read after each sample and should not
 * block.
 */
public interface AdaptiveLimit {

    /**
     * Returns the current limit.
     *
     * @return how much work may be in flight now, within the limit's bounds
     */
    int limit();

    /**
     * Records one sample.
     *
     * @param rttNanos how long the work took (for a dropped sample: what the caller measured, often 0); a sample with
     *                 {@code rttNanos <= 0} that was not dropped carries no timing and is ignored
     * @param inFlight how much work was in flight, itself included: for a pool, the busy workers when the task
     *                 started; for a semaphore, the permits in use when the permits were given back
     * @param dropped  whether the work was refused or failed because of overload rather than done
     */
    void onSample(long rttNanos, int inFlight, boolean dropped);

    /**
     * A gradient limit: starts at {@code min} and follows the ratio of a baseline round-trip time to the short-term
     * one, so it settles where latency starts to grow.
     *
     * <p>Rules. The short-term round-trip time is an exponential average of the samples (weight 1/8), each sample
     * counted as at least a quarter and at most twice the average so that a lone outlier cannot move it far (a call
     * that returned at once, such as a cache hit, included), except the very first, which both times start from: a
     * first call much faster than the rest keeps the limit low until the baseline has risen to them. The baseline
     * starts at the first sample, follows the short-term time down quickly (weight 1/4), and up slowly (1/64) only
     * while the limit is at {@code min} or less than half of it is in use: otherwise a rising latency is taken to be
     * caused by the limit, not by the resource. The comparisons below are with a reference: the baseline plus a third
     * of the samples' noise (the average distance of a sample from the short-term average while not congested), so
     * that ordinary swings of a noisy resource are not taken for congestion. With {@code L} the limit as a real
     * number: while the short-term time is within 10% of the reference and at least half of {@code L} is in flight,
     * {@code L += 1 / L} (about one per round trip, as about {@code L} samples arrive per round trip); between 10% and
     * 20% over it, {@code L} holds; beyond 20%, {@code L *= gradient^(1/L)} with
     * {@code gradient = max(0.5, 1.2 * reference / short)} (about {@code L * gradient} per round trip, at most halving
     * it). {@code limit()} is
     * {@code L} rounded down, within [{@code min}, {@code max}]. Dropped samples do not move it: a rejection only says
     * the limit was reached, which is its job. An adaptive {@link WeightedSemaphore} feeds a closed {@link Permit} of
     * {@code n} permits as one sample worth {@code n} of those steps ({@code L += n / L}, {@code gradient^(n/L)}; at
     * most {@code L}), since only about {@code L / n} such samples arrive per round trip.
     *
     * @param min the smallest limit, {@code >= 1}
     * @param max the largest limit, {@code >= min}
     * @return a new limit at {@code min}
     * @throws IllegalArgumentException if {@code min < 1} or {@code max < min}
     */
    static AdaptiveLimit gradient(int min, int max) {
        return new GradientLimit(min, max);
    }

    /**
     * An additive-increase, multiplicative-decrease limit: starts at {@code min}, grows by {@code 1 / limit} per sample
     * (about one per round trip) while samples are neither dropped nor slower than twice the baseline round-trip
     * time and at least half the limit is in use, and is multiplied by 0.9 on each drop or slowdown. The short-term
     * round-trip time and its baseline are kept as for {@link #gradient(int, int)}; dropped samples do not enter them.
     * {@code limit()} is the limit rounded down, within [{@code min}, {@code max}]. A semaphore's {@link Permit} of
     * {@code n} permits grows it by {@code n / limit} (at most one), as for {@link #gradient(int, int)}; a slowdown
     * still takes a tenth off per sample. Where the pool turns callers away
     * ({@code nonblocking}, {@code maxWait}), each rejection is a drop, so under sustained overload this limit stays
     * near {@code min}: prefer it where a rejection means the protected resource is saturated.
     *
     * @param min the smallest limit, {@code >= 1}
     * @param max the largest limit, {@code >= min}
     * @return a new limit at {@code min}
     * @throws IllegalArgumentException if {@code min < 1} or {@code max < min}
     */
    static AdaptiveLimit aimd(int min, int max) {
        return new AimdLimit(min, max);
    }
}
