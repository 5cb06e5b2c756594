package io.github.poolkit.autoconfigure.actuate;

import java.time.Duration;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import io.github.poolkit.PoolStats;
import io.github.poolkit.SemaphoreStats;

/**
 * A read of figures that cost a round trip or are the application's own code (the cluster semaphores'
 * {@link SemaphoreStats}, the {@link PoolStats} of a {@code Pool} class of the application's own), made once and
 * shared by all of their meters during a scrape. A registry samples its gauges one by one; without this, a scrape
 * would cost one round trip (one script run in Redis), or one call of code that may be slow, per gauge. A snapshot
 * younger than {@code maxAge} is reused, so every meter of one scrape shows the same instant (scrapes are seconds
 * apart; a scrape takes milliseconds). poolkit's own pools, schedulers and local semaphores do not need it: their
 * gauges read them when sampled, as fresh as can be.
 *
 * <p>A read that fails (a cluster semaphore whose Redis does not answer, after its command timeout) is kept as well,
 * and rethrown to the other meters of that scrape: without it, each gauge would wait out the timeout again. A
 * snapshot's age counts from the end of its read, so a slow read is not old at once.
 *
 * <p>Thread-safe: the current snapshot is one volatile reference to an immutable record; two threads that find it old
 * at the same moment may both read the source, which is harmless.
 */
final class StatsSnapshot<T> {

    private final Supplier<T> source;
    private final long maxAgeNanos;
    private volatile Taken<T> current;

    /**
     * @param source reads the figures, e.g. {@code pool::stats}
     * @param maxAge how long a snapshot is reused
     */
    StatsSnapshot(Supplier<T> source, Duration maxAge) {
        this.source = source;
        this.maxAgeNanos = maxAge.toNanos();
    }

    /**
     * @return a snapshot no older than {@code maxAge}
     * @throws RuntimeException what the read of that snapshot threw
     */
    T get() {
        Taken<T> taken = current;
        if (taken == null || System.nanoTime() - taken.nanoTime() >= maxAgeNanos) {
            T stats = null;
            RuntimeException failure = null;
            try {
                stats = source.get();
            }
            catch (RuntimeException ex) {
                failure = ex;
            }
            taken = new Taken<>(stats, failure, System.nanoTime());
            current = taken;
        }
        if (taken.failure() != null) {
            throw taken.failure();
        }
        return taken.stats();
    }

    /** A read: its figures, or what it threw; and when it ended. */
    private record Taken<T>(@Nullable T stats, @Nullable RuntimeException failure, long nanoTime) {
    }
}
