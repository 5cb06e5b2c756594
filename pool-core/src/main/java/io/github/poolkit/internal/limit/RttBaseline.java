package io.github.poolkit.internal.limit;

/**
 * The round-trip times an adaptive limit compares: a short-term average of the samples, and a baseline, the time the
 * protected resource takes when the limit itself is not what slows it down. Not thread-safe: its limit guards it.
 *
 * <p>Rules, in the order applied to each timed sample:
 * <ol>
 *   <li>The first sample sets both.</li>
 *   <li>short: an exponential average of the samples, each counted as at least a quarter and at most twice the
 *       average, {@code short += (clamp(rtt, short / 4, 2 * short) - short) / 8}: a lone slow outlier (a pause of the
 *       collector, a thread that waited for a processor) moves it up by at most 1/8, a lone fast one (a cache hit, a
 *       task that fails at once, a cancelled future that returns at once) down by at most 3/32, while a lasting
 *       change still moves it by that much per sample. (In a simulation where 1% of the calls took 4 times longer,
 *       the gradient limit without the upper bound lost a quarter of the throughput; with it, under 3%. Without the
 *       lower bound, three calls that returned at once dragged the baseline down so far that ordinary calls then
 *       read as congestion: the gradient limit went from 64 to its floor of 1; with it, it stays at 64.) The lower
 *       bound is loose on purpose: a bound at half the average also bounds ordinary noise (a log-normal service time
 *       of sigma 0.3 falls below half its mean in 1.5% of the calls), and in A/B runs of the noisy
 *       {@code AdaptiveKnee} downstream at twice the knee's load it served about 8% fewer calls; at a quarter, such
 *       noise never reaches the bound. So a steady share of calls that return at once still weighs on the gradient
 *       limit (with 1% of them it averaged 28 of 64 in a simulation, 16 without the bound), while the AIMD limit
 *       held 64 with 1% and 5%: for such work, prefer AIMD.</li>
 *   <li>baseline, down: when {@code short < baseline}, {@code baseline += (short - baseline) / 4}: the resource got
 *       faster, believe it soon.</li>
 *   <li>baseline, up: only when {@code mayRise} (the limit is at its floor, or less than half of it is in use), and
 *       then slowly, {@code baseline += (short - baseline) / 64}. A baseline that rose whenever latency did would
 *       chase the slowdown the limit itself causes, and the limit would creep up under sustained load; one that never
 *       rose would pin the limit to its floor for good after the resource became slower for reasons of its own.</li>
 *   <li>noise: an exponential average of how far the samples stray from the short-term average,
 *       {@code noise += (|min(rtt, 2 * short) - short| - noise) / 8}, taken (before {@code short} moves) only while
 *       {@code short <= 1.2 * reference}: a spread beyond that is the congestion a limit must see, not noise.</li>
 * </ol>
 *
 * <p>The reference a gradient compares with is {@code baseline + noise / 3} ({@link #reference()}). Why: the baseline
 * follows the short-term average down at once but up only at the floor, so when the resource's latency is noisy it
 * settles near the low end of the short-term average's swings, a few standard deviations below its mean, and every
 * ordinary swing up then looks like congestion. In front of the {@code AdaptiveKnee} benchmark's downstream with
 * service times drawn from a log-normal distribution (sigma 0.3), the gradient limit compared with the bare baseline
 * fell to its floor and served about 0.37x the calls of a fixed limit at the knee; with the allowance, 0.85x to 0.99x.
 * A resource without noise has no allowance, so the limit behaves as before there.
 */
final class RttBaseline {

    /** How far over the reference the short-term time may be while the samples' spread still counts as noise. */
    private static final double QUIET = 1.2;

    private double shortRtt;
    private double baseline;
    /** The average distance of a sample from the short-term average, while not congested. */
    private double noise;
    private boolean started;

    /** Takes a timed sample ({@code rtt > 0}). */
    void add(long rtt, boolean mayRise) {
        if (!started) {
            shortRtt = rtt;
            baseline = rtt;
            started = true;
            return;
        }
        double sample = Math.min(rtt, 2 * shortRtt);
        if (shortRtt <= QUIET * reference()) {
            noise += (Math.abs(sample - shortRtt) - noise) / 8;
        }
        shortRtt += (Math.max(sample, shortRtt / 4) - shortRtt) / 8;
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

    /** {@return the baseline with an allowance for the samples' noise, {@code baseline + noise / 3}, in nanoseconds} */
    double reference() {
        return baseline + noise / 3;
    }
}
