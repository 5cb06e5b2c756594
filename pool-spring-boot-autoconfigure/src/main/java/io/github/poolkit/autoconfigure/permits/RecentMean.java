package io.github.poolkit.autoconfigure.permits;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * A recent mean of durations that many threads record at once: the mean over the latest closed window of at least
 * {@value #WINDOW} samples, or over every sample while fewer have been recorded. A window closes once it holds
 * {@value #WINDOW} samples and either the mean is read or {@link #PERIOD_NANOS} have passed since the previous close,
 * so after a calm period the mean covers its last second or so, not the whole period.
 *
 * <p>Invariants: {@code sum} and {@code count} only grow; {@link #record} adds to them (two striped additions, which
 * never contend) and reads the clock and {@code closedAt}, and only when a period has passed does it try to close the
 * window, without waiting for the lock. {@code markSum}, {@code markCount}, {@code recent} and {@code closedAt} change
 * only when a window closes, under {@code lock}. The two adders are read one after the other, not atomically: a sample
 * recorded in between skews one mean slightly, which an estimate tolerates.
 */
final class RecentMean {

    /** The fewest samples a window averages once it is closed. */
    static final int WINDOW = 64;

    /** How long a full window stays open while nobody reads the mean: one second. */
    static final long PERIOD_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final LongAdder sum = new LongAdder();
    private final LongAdder count = new LongAdder();
    private final ReentrantLock lock = new ReentrantLock();
    private final LongSupplier clock;
    private long markSum;
    private long markCount;
    private long recent = -1;
    private volatile long closedAt;

    RecentMean() {
        this(System::nanoTime);
    }

    /** @param clock the time in nanoseconds, as {@link System#nanoTime()} (a test's own clock) */
    RecentMean(LongSupplier clock) {
        this.clock = clock;
        this.closedAt = clock.getAsLong();
    }

    /** @param nanos a duration; negative values (a clock that went back) are ignored */
    void record(long nanos) {
        if (nanos >= 0) {
            sum.add(nanos);
            count.increment();
            long now = clock.getAsLong();
            if (now - closedAt >= PERIOD_NANOS && lock.tryLock()) {
                try {
                    closeIfFull(now);
                } finally {
                    lock.unlock();
                }
            }
        }
    }

    /** @return the recent mean in nanoseconds, or {@code -1} when nothing has been recorded */
    long meanNanos() {
        lock.lock();
        try {
            closeIfFull(clock.getAsLong());
            if (recent >= 0) {
                return recent;
            }
            long samples = count.sum();
            return (samples == 0) ? -1 : sum.sum() / samples;
        } finally {
            lock.unlock();
        }
    }

    /** Closes the open window if it holds {@value #WINDOW} samples or more. Lock held. */
    private void closeIfFull(long now) {
        long samples = count.sum();
        long total = sum.sum();
        long fresh = samples - markCount;
        if (fresh >= WINDOW) {
            recent = (total - markSum) / fresh;
            markSum = total;
            markCount = samples;
            closedAt = now;
        }
    }
}
