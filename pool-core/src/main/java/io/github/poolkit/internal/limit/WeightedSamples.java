package io.github.poolkit.internal.limit;

/**
 * A limit that takes the weight of a sample into account: poolkit's own limits, fed by an adaptive
 * {@code WeightedSemaphore}, to which a closed {@code Permit} of {@code n} permits is one sample of weight {@code n}.
 * Their steps assume about {@code L} samples per round trip, one per unit of the limit in use; a semaphore whose
 * requests hold {@code n} permits each closes only about {@code L / n} per round trip, so each counts {@code n} times.
 * Internal to poolkit; an application's own {@code AdaptiveLimit} gets one plain sample per {@code Permit}.
 */
public interface WeightedSamples {

    /**
     * Records one sample of work that held {@code weight} units of the limit.
     *
     * @param rttNanos how long the work took; see {@code AdaptiveLimit.onSample}
     * @param inFlight how much was in use (permits, for a semaphore: those in use before this release), itself included
     * @param dropped  whether the work was refused because of overload
     * @param weight   the units it held; taken as at least 1 and at most the limit
     */
    void onSample(long rttNanos, long inFlight, boolean dropped, long weight);
}
