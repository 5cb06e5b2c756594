package io.github.poolkit.internal.limit;

/**
 * The round-trip times an adaptive limit compares: a short-term average of the samples, and a baseline, the time the
 * protected resource takes when the limit itself is not what slows it down. Not thread-safe: its limit guards it.
 *
 * <p>Rules, in the order applied to each timed sample:
 * <ol>
 *   <li>The first sample sets both.</li>
 *   <li>short: an exponential average of the samples, each counted as at most twice the average,
 *       {@code short += (min(rtt, 2 * short) - short) / 8}: a lone outlier (a pause of the collector, a thread that
 *       waited for a processor) moves it by at most 1/8, while a lasting slowdown still lifts it by 1/8 per sample.
 *       (In a simulation where 1% of the calls took 4 times longer, the gradient limit without this lost a quarter
 *       of the throughput; with it, under 3%.)</li>
 *   <li>baseline, down: when {@code short < baseline}, {@code baseline += (short - baseline) / 4}: the resource got
 *       faster, believe it soon.</li>
 *   <li>baseline, up: only when {@code mayRise} (the limit is at its floor, or less than half of it is in use), and
 *       then slowly, {@code baseline += (short - baseline) / 64}. A baseline that rose whenever latency did would
 *       chase the slowdown the limit itself causes, and the limit would creep up under sustained load; one that never
 *       rose would pin the limit to its floor for good after the resource became slower for reasons of its own.</li>
 * </ol>
 */
final class RttBaseline {

    private double shortRtt;
    private double baseline;
    private boolean started;

    /** Takes a timed sample ({@code rtt > 0}). */
    void add(long rtt, boolean mayRise) {
        if (!started) {
            shortRtt = rtt;
            baseline = rtt;
            started = true;
            return;
        }
        shortRtt += (Math.min(rtt, 2 * shortRtt) - shortRtt) / 8;
        if (shortRtt < baseline) {
            baseline += (shortRtt - baseline) / 4;
        } else if (mayRise) {
            baseline += (shortRtt - baseline) / 64;
        }
    }

    /** {@return the short-term average round-trip time, in nanoseconds (0 before the first sample)} */
    double shortRtt() {
        return shortRtt;
    }

    /** {@return the baseline round-trip time, in nanoseconds (0 before the first sample)} */
    double baseline() {
        return baseline;
    }
}
