package io.github.poolkit.autoconfigure.actuate;

import java.time.Duration;
import java.util.function.Supplier;

import io.github.poolkit.PoolStats;
import io.github.poolkit.SemaphoreStats;

/**
 * One pool's {@link PoolStats} (or one semaphore's {@link SemaphoreStats}), read once and shared by all of its meters
 * during a scrape. A registry samples its gauges one by one; without this, each gauge would read the pool at a
 * different instant, and a scrape would cost one {@code stats()} per gauge (for a cluster semaphore, one script run
 * in Redis per gauge). A snapshot younger than {@code maxAge} is reused, so every meter
 * of one scrape shows the same instant (scrapes are seconds apart; a scrape takes milliseconds).
 *
 * <p>Thread-safe: the current snapshot is one volatile reference to an immutable pair; two threads that find it old
 * at the same moment may both read the pool, which is harmless.
 */
final class StatsSnapshot<T> {

    private final Supplier<T> source;
    private final long maxAgeNanos;
    private volatile Taken<T> current;

    /**
     * @param source reads the pool or semaphore, e.g. {@code pool::stats}
     * @param maxAge how long a snapshot is reused
     */
    StatsSnapshot(Supplier<T> source, Duration maxAge) {
        this.source = source;
        this.maxAgeNanos = maxAge.toNanos();
    }

    /** @return a snapshot no older than {@code maxAge} */
    T get() {
        Taken<T> taken = current;
        long now = System.nanoTime();
        if (taken == null || now - taken.nanoTime() >= maxAgeNanos) {
            taken = new Taken<>(source.get(), now);
            current = taken;
        }
        return taken.stats();
    }

    private record Taken<T>(T stats, long nanoTime) {
    }
}
