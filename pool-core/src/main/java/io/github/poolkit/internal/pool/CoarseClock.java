package io.github.poolkit.internal.pool;

import io.github.poolkit.internal.NamedThreadFactory;

import java.util.concurrent.locks.LockSupport;

/**
 * The clock the overdue watch stamps tasks with ({@code runTimeout}, {@code queueTimeout}): a time that one shared
 * daemon thread ({@code poolkit-clock}) advances every {@link #TICK_NANOS}, so that stamping a task costs a volatile
 * read of a line written 250 times a second rather than a {@link System#nanoTime()} call (measured: two clock calls per
 * task cost tiny queued tasks 30% of their throughput). The thread starts with the first watched pool; a pool without
 * a timeout never loads this class.
 *
 * <p>A stamp lags behind the true time by at most the gap between two ticks. The checker, which reads the true time,
 * treats a task as overdue only once the stamp is older than the timeout plus {@link #lagBound}, so a report never
 * comes early, and at most that bound (two ticks, normally 8 ms) late. One exception, documented: a task stamped
 * while the clock's thread could not run (a process-wide pause, or this one thread kept off the processors while
 * every processor runs the pools' workers) carries that delay in its stamp and may be reported early by the part of
 * it beyond two ticks, if the clock has caught up by the check. The thread runs for the life of the JVM once started:
 * one wake-up every tick, even after every watched pool has closed.
 */
final class CoarseClock {

    /** How often the clock advances. */
    static final long TICK_NANOS = 4_000_000L;

    private static volatile long now = System.nanoTime();

    static {
        NamedThreadFactory.housekeeping("poolkit-clock", CoarseClock::tickForever).start();
    }

    private CoarseClock() {
    }

    /** {@return the time, in {@link System#nanoTime()} terms, as of the last tick} */
    static long now() {
        return now;
    }

    /**
     * @param trueNow {@link System#nanoTime()} read just now
     * @return how far behind the true time a stamp can be: two ticks, or more while the clock's thread is late
     */
    static long lagBound(long trueNow) {
        return Math.max(2 * TICK_NANOS, trueNow - now);
    }

    private static void tickForever() {
        for (;;) {
            now = System.nanoTime();
            LockSupport.parkNanos(TICK_NANOS);
        }
    }
}
