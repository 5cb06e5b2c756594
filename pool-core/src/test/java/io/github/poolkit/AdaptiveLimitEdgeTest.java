package io.github.poolkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

/** The built-in {@link AdaptiveLimit}s fed samples at the edges of their ranges: they stay in bounds and deterministic. */
class AdaptiveLimitEdgeTest {

    private static final long[] RTTS = {Long.MIN_VALUE, -1, 0, 1, 2, 1_000, 1_000_000_000L, Long.MAX_VALUE - 1,
            Long.MAX_VALUE};
    private static final int[] IN_FLIGHT = {Integer.MIN_VALUE, -1, 0, 1, 2, 1_000, Integer.MAX_VALUE};
    private static final int[][] BOUNDS = {{1, 1}, {1, 2}, {1, 64}, {7, 7}, {1, Integer.MAX_VALUE},
            {Integer.MAX_VALUE - 1, Integer.MAX_VALUE}, {Integer.MAX_VALUE, Integer.MAX_VALUE}};

    private static List<Integer> run(AdaptiveLimit limit, long seed, int samples) {
        SplittableRandom random = new SplittableRandom(seed);
        List<Integer> limits = new ArrayList<>();
        for (int i = 0; i < samples; i++) {
            limit.onSample(RTTS[random.nextInt(RTTS.length)], IN_FLIGHT[random.nextInt(IN_FLIGHT.length)],
                    random.nextInt(4) == 0);
            limits.add(limit.limit());
        }
        return limits;
    }

    private static void staysInBoundsAndRepeats(BiFunction<Integer, Integer, AdaptiveLimit> factory) {
        for (int[] b : BOUNDS) {
            for (long seed = 0; seed < 20; seed++) {
                List<Integer> first = run(factory.apply(b[0], b[1]), seed, 2_000);
                assertThat(first).as("bounds [%d, %d], seed %d", b[0], b[1], seed).allSatisfy(
                        l -> assertThat(l).isBetween(b[0], b[1]));
                assertThat(run(factory.apply(b[0], b[1]), seed, 2_000)).isEqualTo(first);
            }
        }
    }

    @Test
    void gradientStaysInItsBoundsAndRepeatsItselfWhateverTheSamples() {
        staysInBoundsAndRepeats(AdaptiveLimit::gradient);
    }

    @Test
    void aimdStaysInItsBoundsAndRepeatsItselfWhateverTheSamples() {
        staysInBoundsAndRepeats(AdaptiveLimit::aimd);
    }

    /** Steady extreme round trips with everything in flight: growth up to a small max, no overflow at a huge one. */
    @Test
    void steadyExtremeSamplesGrowToMaxWithoutOverflow() {
        for (long rtt : new long[] {1, Long.MAX_VALUE}) {
            for (AdaptiveLimit limit : List.of(AdaptiveLimit.gradient(1, 3), AdaptiveLimit.aimd(1, 3),
                    AdaptiveLimit.gradient(Integer.MAX_VALUE - 1, Integer.MAX_VALUE),
                    AdaptiveLimit.aimd(Integer.MAX_VALUE - 1, Integer.MAX_VALUE))) {
                for (int i = 0; i < 100; i++) {
                    limit.onSample(rtt, Integer.MAX_VALUE, false);
                }
                if (limit.limit() <= 3) {
                    assertThat(limit.limit()).as("%s after rtt %d", limit, rtt).isEqualTo(3);
                } else { // about +1 per L samples: it cannot get far, but must not wrap around
                    assertThat(limit.limit()).as("%s after rtt %d", limit, rtt)
                            .isBetween(Integer.MAX_VALUE - 1, Integer.MAX_VALUE);
                }
            }
        }
    }

    /** Untimed samples (rtt <= 0, not dropped) change nothing, even as the very first sample. */
    @Test
    void untimedSamplesChangeNothing() {
        for (AdaptiveLimit limit : List.of(AdaptiveLimit.gradient(2, 10), AdaptiveLimit.aimd(2, 10))) {
            limit.onSample(0, 10, false);
            limit.onSample(-1, 10, false);
            limit.onSample(Long.MIN_VALUE, Integer.MAX_VALUE, false);
            assertThat(limit.limit()).isEqualTo(2);
            for (int i = 0; i < 20; i++) {
                limit.onSample(1_000, 10, false);
            }
            int grown = limit.limit();
            assertThat(grown).isGreaterThan(2);
            limit.onSample(0, 10, false);
            limit.onSample(Long.MIN_VALUE, 10, false);
            assertThat(limit.limit()).isEqualTo(grown);
        }
    }
}
