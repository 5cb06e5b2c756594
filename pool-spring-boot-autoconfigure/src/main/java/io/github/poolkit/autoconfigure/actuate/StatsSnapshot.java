package io.github.poolkit.autoconfigure.actuate;

import java.time.Duration;
import java.util.function.Supplier;

import io.github.poolkit.PoolStats;

/**
 * One pool's {@link PoolStats}, read once and shared by all of that pool's meters during a scrape. A registry samples
 * its gauges one by one; without this, each of a pool's gauges would read the pool at a different instant, and a
 * scrape would cost one {@code stats()} per gauge. A snapshot younger than {@code maxAge} is reused, so every meter
 * of one scrape shows the same instant (scrapes are seconds apart; a scrape takes milliseconds).
 *
 * <p>Thread-safe: the current snapshot is one volatile reference to an immutable pair; two threads that find it old
 * at the same moment may both read the pool, which is harmless.
 */
final class StatsSnapshot {

    private final Supplier<PoolStats> source;
    private final long maxAgeNanos;
    private volatile Taken current;

    /**
     * @param source reads the pool, e.g. {@code pool::stats}
     * @param maxAge how long a snapshot is reused
     */
    StatsSnapshot(Supplier<PoolStats> source, Duration maxAge) {
        this.source = source;
        this.maxAgeNanos = maxAge.toNanos();
    }

    /** @return a snapshot no older than {@code maxAge} */
    PoolStats get() {
        Taken taken = current;
        long now = System.nanoTime();
        if (taken == null || now - taken.nanoTime() >= maxAgeNanos) {
            taken = new Taken(source.get(), now);
            current = taken;
        }
        return taken.stats();
    }

    private record Taken(PoolStats stats, long nanoTime) {
    }
}
