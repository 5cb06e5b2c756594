package io.github.poolkit;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A pool of the application's own that implements {@link Pool} with the shared methods only: it compiles, and the
 * optional ones ({@code options}, {@code reconfigure}) refuse with a message that names the pool and the fix.
 */
class ApplicationPoolTest {

    /** Implements exactly the methods every pool kind shares, nothing poolkit-specific. */
    static final class ApplicationPool implements Pool {
        @Override public String name() { return "app-pool"; }
        @Override public int capacity() { return 4; }
        @Override public int running() { return 1; }
        @Override public int free() { return 3; }
        @Override public int waiting() { return 0; }
        @Override public PoolStats stats() { return new PoolStats(4, 1, 1, 0, 0, 7, 2, 0, false, 0); }
        @Override public void tune(int capacity) { }
        @Override public boolean isClosed() { return false; }
        @Override public void release() { }
        @Override public void releaseTimeout(Duration timeout) { }
        @Override public void reboot() { }
        @Override public void close() { }
    }

    @Test
    void optionsAndReconfigureAreOptionalAndRefuseClearly() {
        Pool pool = new ApplicationPool();
        assertThat(pool.stats().completed()).isEqualTo(7);
        assertThatThrownBy(pool::options).isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("app-pool").hasMessageContaining("does not expose its options")
                .hasMessageContaining("implement Pool.options()");
        assertThatThrownBy(() -> pool.reconfigure(PoolOptions.defaults()))
                .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("app-pool")
                .hasMessageContaining("implement Pool.reconfigure(PoolOptions)");
    }

    @Test
    void poolkitsPoolsStillExposeAndChangeTheirOptions() {
        try (WorkerPool pool = WorkerPool.create(2, PoolOptions.builder().name("w").build())) {
            Pool asPool = pool;
            asPool.reconfigure(asPool.options().toBuilder().maxWait(Duration.ofMillis(5)).build());
            assertThat(asPool.options().maxWait()).isEqualTo(Duration.ofMillis(5));
        }
        try (FuncPool<String> pool = FuncPool.create(2, s -> { })) {
            assertThat(((Pool) pool).options()).isNotNull();
        }
        MultiPool multi = MultiPool.create(2, 1, MultiPool.LoadBalancing.ROUND_ROBIN);
        try {
            Pool asPool = multi;
            asPool.reconfigure(asPool.options().toBuilder().nonblocking(true).build());
            assertThat(asPool.options().nonblocking()).isTrue();
        } finally {
            multi.close();
        }
    }
}
