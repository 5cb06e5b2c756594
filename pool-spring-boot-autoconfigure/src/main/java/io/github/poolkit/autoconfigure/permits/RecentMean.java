package io.github.poolkit.autoconfigure.permits;

import java.util.concurrent.atomic.LongAdder;

/**
 * A recent mean of durations that many threads record at once: the mean over the latest closed window of at least
 * {@value #WINDOW} samples, or over every sample while fewer have been recorded.
 *
 * <p>Invariants: {@code sum} and {@code count} only grow, and {@link #record} touches nothing else, so recording is
 * two striped additions and never contends. A window closes when {@link #meanNanos()} finds at least
 * {@value #WINDOW} samples recorded since the previous close; {@code markSum}, {@code markCount} and {@code recent}
 * change only then, under this object's lock. The two adders are read one after the other, not atomically: a sample
 * recorded in between skews one mean slightly, which an estimate tolerates.
 */
final class RecentMean {

    /** The fewest samples a window averages once it is closed. */
    static final int WINDOW = 64;

    private final LongAdder sum = new LongAdder();
    private final LongAdder count = new LongAdder();
    private long markSum;
    private long markCount;
    private long recent = -1;

    /** @param nanos a duration; negative values (a clock that went back) are ignored */
    void record(long nanos) {
        if (nanos >= 0) {
            sum.add(nanos);
            count.increment();
        }
    }

    /** @return the recent mean in nanoseconds, or {@code -1} when nothing has been recorded */
    synchronized long meanNanos() {
        long samples = count.sum();
        long total = sum.sum();
        long fresh = samples - markCount;
        if (fresh >= WINDOW) {
            recent = (total - markSum) / fresh;
            markSum = total;
            markCount = samples;
        }
        if (recent >= 0) {
            return recent;
        }
        return (samples == 0) ? -1 : total / samples;
    }
}
