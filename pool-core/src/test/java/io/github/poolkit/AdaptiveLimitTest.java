package io.github.poolkit;

import org.junit.jupiter.api.Test;

import io.github.poolkit.internal.limit.WeightedSamples;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The built-in {@link AdaptiveLimit}s, fed samples by hand: no clock, no threads, so every limit is exact.
 */
class AdaptiveLimitTest {

    private static final long MS = 1_000_000L;

    /** Feeds {@code n} samples of {@code rtt}, each with the whole limit in flight; returns the limit after each. */
    private static List<Integer> saturated(AdaptiveLimit limit, int n, long rtt) {
        List<Integer> limits = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            limit.onSample(rtt, limit.limit(), false);
            limits.add(limit.limit());
        }
        return limits;
    }

    @Test
    void badBoundsAreRefusedNamingTheFix() {
        assertThatThrownBy(() -> AdaptiveLimit.gradient(0, 10)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("min must be >= 1, got 0");
        assertThatThrownBy(() -> AdaptiveLimit.gradient(5, 4)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("max must be >= min (5), got 4");
        assertThatThrownBy(() -> AdaptiveLimit.aimd(-1, 4)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("min must be >= 1");
        assertThatThrownBy(() -> AdaptiveLimit.aimd(3, 2)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("max must be >= min");
        assertThat(AdaptiveLimit.gradient(3, 3).limit()).isEqualTo(3);
    }

    @Test
    void bothStartAtMin() {
        assertThat(AdaptiveLimit.gradient(4, 20).limit()).isEqualTo(4);
        assertThat(AdaptiveLimit.aimd(7, 20).limit()).isEqualTo(7);
    }

    @Test
    void gradientAddsOneOverTheLimitPerSampleWhileTheRoundTripIsSteady() {
        // 4 + 1/4 = 4.25; + 1/4.25 = 4.49; + 1/4.49 = 4.71; + 1/4.71 = 4.92; + 1/4.92 = 5.12: about +1 per round trip
        AdaptiveLimit g = AdaptiveLimit.gradient(4, 20);
        assertThat(saturated(g, 40, 10 * MS)).containsExactly(
                4, 4, 4, 4, 5, 5, 5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 7, 7, 7, 7, 7, 7, 7, 8, 8, 8, 8, 8, 8, 8, 8, 8, 9, 9, 9, 9,
                9, 9, 9, 9);
        assertThat(saturated(g, 160, 10 * MS)).endsWith(20, 20, 20);
    }

    @Test
    void gradientFallsWhenTheRoundTripGrowsBeyondTheTolerance() {
        AdaptiveLimit g = AdaptiveLimit.gradient(4, 20);
        saturated(g, 200, 10 * MS);
        assertThat(g.limit()).isEqualTo(20);
        // twice the baseline: the short-term average passes 1.2x the reference after two samples (the first of which
        // also widens the noise allowance a little, before the spread counts as congestion), then the limit falls to min
        assertThat(saturated(g, 50, 20 * MS)).containsExactly(
                20, 20, 19, 19, 19, 19, 19, 19, 18, 18, 18, 18, 17, 17, 17, 16, 16, 15, 15, 15, 14, 14, 14, 13, 13, 12,
                12, 12, 11, 11, 10, 10, 10, 9, 9, 8, 8, 8, 7, 7, 6, 6, 5, 5, 5, 4, 4, 4, 4, 4);
    }

    @Test
    void gradientGrowsWithinTenPercentOfTheBaseline() {
        AdaptiveLimit g = AdaptiveLimit.gradient(2, 100);
        saturated(g, 40, 10 * MS);
        int before = g.limit();
        saturated(g, 50, 10_500_000L); // 5% slower: still grows
        assertThat(g.limit()).isGreaterThan(before);
    }

    @Test
    void gradientHoldsBetweenTenAndTwentyPercentOverTheBaseline() {
        AdaptiveLimit g = AdaptiveLimit.gradient(2, 100);
        saturated(g, 40, 10 * MS);
        saturated(g, 30, 11_500_000L); // the short-term average climbs to 15% over the baseline
        int resting = g.limit();
        // 15% slower, for long: neither grows (that would overshoot into the cut) nor falls (latency is tolerated)
        assertThat(saturated(g, 500, 11_500_000L)).containsOnly(resting);
        // beyond 20%: falls
        assertThat(saturated(g, 50, 13 * MS).getLast()).isLessThan(resting);
    }

    @Test
    void aLoneOutlierDoesNotCutTheGradientLimit() {
        AdaptiveLimit g = AdaptiveLimit.gradient(4, 20);
        saturated(g, 100, 10 * MS);
        int before = g.limit();
        g.onSample(1000 * MS, before, false); // a pause: counted as twice the average, 12.5% above it
        assertThat(g.limit()).isEqualTo(before);
        assertThat(saturated(g, 20, 10 * MS)).allSatisfy(l -> assertThat(l).isGreaterThanOrEqualTo(before));
    }

    @Test
    void gradientTakesTheOrdinarySwingsOfANoisyResourceForNoiseNotCongestion() {
        // Alternating 7 and 13 ms (mean 10): the limit grows to its max as if the resource were steady ...
        AdaptiveLimit g = AdaptiveLimit.gradient(2, 40);
        for (int i = 0; i < 4000; i++) {
            g.onSample((i % 2 == 0 ? 7 : 13) * MS, g.limit(), false);
        }
        assertThat(g.limit()).isEqualTo(40);
        // ... while a real slowdown of the same resource, twice as slow, still brings it down to min (from where it
        // later re-learns the slower resource, as gradientRelearnsTheBaselineOfAResourceThatBecameSlowerForGood shows)
        List<Integer> limits = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            g.onSample((i % 2 == 0 ? 14 : 26) * MS, g.limit(), false);
            limits.add(g.limit());
        }
        assertThat(limits).contains(2);
    }

    @Test
    void gradientKeepsAUsefulLimitWhenTheLatencyIsNoisyForReal() {
        // Log-normal service times (sigma 0.3, mean 10 ms) from a fixed seed, independent of the limit. Compared with
        // the bare baseline, which sits at the low end of the short-term average's swings, the limit averaged 7.7;
        // with the noise allowance 12.5. A known limit, written here: it still stays well below its max of 40, as
        // random swings of the short-term average beyond 20% still cut it (docs: AdaptiveLimit.gradient).
        AdaptiveLimit g = AdaptiveLimit.gradient(2, 40);
        java.util.Random random = new java.util.Random(42);
        long sum = 0;
        for (int i = 0; i < 20_000; i++) {
            g.onSample((long) (10 * MS * Math.exp(0.3 * random.nextGaussian() - 0.045)), g.limit(), false);
            sum += i >= 10_000 ? g.limit() : 0;
        }
        assertThat(sum / 10_000.0).isBetween(10.0, 40.0);
    }

    @Test
    void gradientDoesNotGrowWhileLessThanHalfTheLimitIsInUse() {
        AdaptiveLimit g = AdaptiveLimit.gradient(10, 100);
        for (int i = 0; i < 1000; i++) {
            g.onSample(10 * MS, 4, false);
        }
        assertThat(g.limit()).isEqualTo(10);
    }

    @Test
    void gradientIgnoresDropsAndUntimedSamples() {
        AdaptiveLimit g = AdaptiveLimit.gradient(4, 20);
        saturated(g, 10, 10 * MS);
        int before = g.limit();
        for (int i = 0; i < 100; i++) {
            g.onSample(0, 20, true);
            g.onSample(0, 20, false);
        }
        assertThat(g.limit()).isEqualTo(before);
    }

    @Test
    void gradientNeverLeavesItsBounds() {
        AdaptiveLimit g = AdaptiveLimit.gradient(3, 9);
        assertThat(saturated(g, 500, 10 * MS)).allSatisfy(l -> assertThat(l).isBetween(3, 9)).endsWith(9);
        assertThat(saturated(g, 500, 1000 * MS)).allSatisfy(l -> assertThat(l).isBetween(3, 9)).contains(3);
    }

    @Test
    void gradientRelearnsTheBaselineOfAResourceThatBecameSlowerForGood() {
        AdaptiveLimit g = AdaptiveLimit.gradient(2, 50);
        saturated(g, 1300, 10 * MS);
        assertThat(g.limit()).isEqualTo(50);
        List<Integer> after = saturated(g, 2000, 30 * MS);
        // first down to the floor (the slowdown might be ours), then up again once the baseline has followed
        assertThat(after.subList(0, 100)).endsWith(2);
        assertThat(after.subList(100, 400)).contains(2, 4, 8, 16); // growth resumes within 10% of the new baseline
        assertThat(after.getLast()).isEqualTo(50);
    }

    @Test
    void sameSamplesGiveTheSameLimits() {
        long[] rtts = {10, 12, 9, 30, 31, 8, 10, 10, 55, 10, 11, 10, 9, 70, 10, 10};
        for (boolean aimd : new boolean[] {false, true}) {
            AdaptiveLimit a = aimd ? AdaptiveLimit.aimd(1, 30) : AdaptiveLimit.gradient(1, 30);
            AdaptiveLimit b = aimd ? AdaptiveLimit.aimd(1, 30) : AdaptiveLimit.gradient(1, 30);
            for (int i = 0; i < 2000; i++) {
                long rtt = rtts[i % rtts.length] * MS;
                boolean dropped = i % 97 == 0;
                a.onSample(rtt, a.limit(), dropped);
                b.onSample(rtt, b.limit(), dropped);
                assertThat(a.limit()).isEqualTo(b.limit());
            }
        }
    }

    @Test
    void aimdAddsAboutOnePerRoundTripWhileNothingIsDropped() {
        // 1 + 1/1 = 2; + 1/2 = 2.5; + 1/2.5 = 2.9; + 1/2.9 = 3.24; ...
        AdaptiveLimit a = AdaptiveLimit.aimd(1, 10);
        assertThat(saturated(a, 30, 10 * MS)).containsExactly(
                2, 2, 2, 3, 3, 3, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 6, 6, 6, 6, 6, 6, 7, 7, 7, 7, 7, 7, 7, 7);
    }

    @Test
    void aimdBacksOffByATenthOnEachDrop() {
        AdaptiveLimit a = AdaptiveLimit.aimd(1, 100);
        for (int i = 0; i < 1000; i++) {
            a.onSample(10 * MS, a.limit(), false);
        }
        int before = a.limit();
        a.onSample(0, before, true);
        assertThat(a.limit()).isBetween((int) (before * 0.9) - 1, (int) ((before + 1) * 0.9));
        for (int i = 0; i < 100; i++) {
            a.onSample(0, 1, true);
        }
        assertThat(a.limit()).isEqualTo(1);
    }

    /**
     * Calls that return at once (cache hits, a task that fails at once, a cancelled future that returns at once) do not
     * drag the baseline down so far that ordinary calls read as congestion.
     */
    @Test
    void aFewCallsThatReturnAtOnceDoNotPullTheGradientLimitDown() {
        AdaptiveLimit g = AdaptiveLimit.gradient(1, 64);
        saturated(g, 5000, 10 * MS);
        assertThat(g.limit()).isEqualTo(64);
        saturated(g, 3, 1000);
        assertThat(saturated(g, 5000, 10 * MS)).allSatisfy(l -> assertThat(l).isGreaterThan(48));
    }

    /** What the documentation recommends for work with a steady share of calls that return at once. */
    @Test
    void theAimdLimitHoldsWhenOneCallInTwentyReturnsAtOnce() {
        AdaptiveLimit limit = AdaptiveLimit.aimd(1, 64);
        Random random = new Random(1); // the same calls every run
        List<Integer> limits = new ArrayList<>();
        for (int i = 0; i < 100_000; i++) {
            limit.onSample(random.nextInt(20) == 0 ? 1000 : 10 * MS, limit.limit(), false);
            limits.add(limit.limit());
        }
        assertThat(limits.subList(50_000, 100_000)).allSatisfy(l -> assertThat(l).isEqualTo(64));
    }

    @Test
    void aResourceThatBecameFasterForGoodIsBelievedWithinAFewRoundTrips() {
        AdaptiveLimit g = AdaptiveLimit.gradient(1, 64);
        saturated(g, 5000, 10 * MS);
        // ten times faster: the short-term average falls by up to 3/32 per sample and the baseline follows it down, so
        // the limit never reads the change as congestion, and later slowdowns are measured against the new time
        assertThat(saturated(g, 200, MS)).allSatisfy(l -> assertThat(l).isEqualTo(64));
        assertThat(saturated(g, 200, 3 * MS).getLast()).isLessThan(64);
    }

    /**
     * A semaphore's permit of n permits is one sample worth n steps: about L / n such samples arrive per round trip,
     * so the limit moves about as fast per round trip as with n times as many single-permit samples.
     */
    @Test
    void aSampleOfWeightNMovesTheLimitAsNSamplesOfOneDo() {
        for (boolean gradient : new boolean[] {false, true}) {
            AdaptiveLimit weighted = gradient ? AdaptiveLimit.gradient(1024, 16384) : AdaptiveLimit.aimd(1024, 16384);
            AdaptiveLimit single = gradient ? AdaptiveLimit.gradient(1024, 16384) : AdaptiveLimit.aimd(1024, 16384);
            for (int i = 0; i < 400; i++) {
                ((WeightedSamples) weighted).onSample(10 * MS, weighted.limit(), false, 256);
                for (int j = 0; j < 256; j++) {
                    single.onSample(10 * MS, single.limit(), false);
                }
            }
            assertThat(weighted.limit()).as("weighted, gradient " + gradient).isGreaterThan(1100)
                    .isCloseTo(single.limit(), within(2));
        }
        AdaptiveLimit huge = AdaptiveLimit.gradient(4, 64);
        ((WeightedSamples) huge).onSample(10 * MS, 4, false, Long.MAX_VALUE);
        assertThat(huge.limit()).as("one sample is at most a round trip's worth: +1").isEqualTo(5);
    }

    @Test
    void aimdBacksOffWhenTwiceAsSlowAsItsBaseline() {
        AdaptiveLimit a = AdaptiveLimit.aimd(1, 10);
        saturated(a, 30, 10 * MS);
        // four times the baseline, each sample counted as at most twice the average: the short-term average grows
        // by 1/8 per sample and passes 2x after six samples, then 0.9x per sample
        assertThat(saturated(a, 20, 40 * MS)).containsExactly(
                8, 8, 8, 8, 8, 7, 6, 6, 5, 5, 4, 4, 3, 3, 2, 2, 2, 2, 1, 1);
    }

    @Test
    void aimdDoesNotGrowWhileLessThanHalfTheLimitIsInUse() {
        AdaptiveLimit a = AdaptiveLimit.aimd(8, 100);
        for (int i = 0; i < 1000; i++) {
            a.onSample(10 * MS, 3, false);
        }
        assertThat(a.limit()).isEqualTo(8);
    }
}
