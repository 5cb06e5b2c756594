package io.github.poolkit.autoconfigure;

import org.jspecify.annotations.Nullable;

import io.github.poolkit.Pool;
import io.github.poolkit.PoolOptions;

/**
 * A pool's options, where it exposes them: poolkit's pools all do, while a pool the application implements itself
 * need not ({@link Pool#options()} then throws {@link UnsupportedOperationException}). The endpoint, the metrics and
 * the adaptive settings read options through here, so such a pool is listed and measured like the others, without the
 * figures its options would give.
 */
public final class ExposedOptions {

    private ExposedOptions() {
    }

    /**
     * Reads a pool's options, if it exposes them.
     *
     * @param pool a pool
     * @return its options, or {@code null} when it does not expose them
     */
    public static @Nullable PoolOptions of(Pool pool) {
        try {
            return pool.options();
        }
        catch (UnsupportedOperationException ex) {
            return null;
        }
    }
}
