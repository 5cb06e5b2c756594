package io.github.poolkit.internal;

import java.time.Duration;

/**
 * Duration arithmetic shared by the pools, the scheduler and the semaphore. Internal; not part of poolkit's API.
 */
public final class Durations {

    private Durations() {
    }

    /**
     * Converts a duration to nanoseconds, saturating instead of overflowing: a duration longer than
     * {@link Long#MAX_VALUE} nanoseconds (about 292 years) becomes {@link Long#MAX_VALUE}, one more negative than
     * {@link Long#MIN_VALUE} nanoseconds becomes {@link Long#MIN_VALUE}. {@link Duration#toNanos()} throws
     * {@link ArithmeticException} there, which would turn "wait practically forever" into a crash.
     *
     * @param duration any duration, not {@code null}
     * @return the duration in nanoseconds, clamped to the range of {@code long}
     */
    public static long toNanosSaturated(Duration duration) {
        try {
            return duration.toNanos();
        } catch (ArithmeticException tooLong) {
            return duration.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }
}
