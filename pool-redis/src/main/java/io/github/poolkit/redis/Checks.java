package io.github.poolkit.redis;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/** The argument checks of {@link RedisPermitSemaphore} and its builder: each failure names the problem and the fix. */
final class Checks {

    /** The longest lease time or command timeout: a {@code long} of nanoseconds, which the heartbeat compares. */
    private static final Duration LONGEST = Duration.ofNanos(Long.MAX_VALUE);

    private Checks() {
    }

    static long size(String name, long size) {
        if (size < 0 || size > RedisPermitSemaphore.MAX_SIZE) {
            throw new IllegalArgumentException("Cluster semaphore '" + name + "': size must be between 0 and "
                    + RedisPermitSemaphore.MAX_SIZE + " (2^53 - 1, the largest count Redis's Lua scripts hold exactly),"
                    + " got " + size);
        }
        return size;
    }

    static Duration leaseTime(String name, Duration leaseTime) {
        if (leaseTime == null || leaseTime.compareTo(RedisPermitSemaphore.MIN_LEASE_TIME) < 0
                || leaseTime.compareTo(LONGEST) > 0) {
            throw new IllegalArgumentException("Cluster semaphore '" + name + "': lease time must be at least 30ms"
                    + " (and at most " + LONGEST + "), got " + leaseTime + "; a few times the longest pause of the JVM"
                    + " or network is a safe choice");
        }
        return leaseTime;
    }

    static Duration commandTimeout(String name, Duration commandTimeout) {
        if (commandTimeout == null || commandTimeout.isNegative() || commandTimeout.isZero()
                || commandTimeout.compareTo(LONGEST) > 0) {
            throw new IllegalArgumentException("Cluster semaphore '" + name + "': command timeout must be > 0 (and at"
                    + " most " + LONGEST + "), got " + commandTimeout + "; a few seconds is a safe choice");
        }
        return commandTimeout;
    }

    static void weight(long n) {
        if (n < 0) {
            throw new IllegalArgumentException("Cannot acquire a negative number of permits: " + n);
        }
    }

    /**
     * Converts a timed request's timeout to nanoseconds, saturating: a timeout too long for a {@code long} of
     * nanoseconds (about 292 years, such as {@code Duration.ofSeconds(Long.MAX_VALUE)}) waits {@link Long#MAX_VALUE}
     * ns instead of failing with the {@link ArithmeticException} of {@link Duration#toNanos()}.
     */
    static long timeoutNanos(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout must not be null; use Duration.ZERO not to wait");
        return TimeUnit.NANOSECONDS.convert(timeout); // saturates at Long.MIN_VALUE and Long.MAX_VALUE
    }

    static void notInterrupted() throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
    }
}
