package io.github.poolkit.abuse;

import io.github.poolkit.MultiPool;
import io.github.poolkit.MultiPool.LoadBalancing;
import io.github.poolkit.PoolClosedException;
import io.github.poolkit.PoolOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Abuse of {@link MultiPool}'s public entry points: null, zero, negative and huge values, calls after release. */
@Timeout(20)
class MultiPoolAbuseTest {

    @Test
    void nonPositivePoolCountsAndNullArgumentsAreRejected() {
        for (int pools : new int[] {0, -1, Integer.MIN_VALUE}) {
            assertThatThrownBy(() -> MultiPool.create(pools, 1, LoadBalancing.ROUND_ROBIN))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("pools")
                    .hasMessageContaining(String.valueOf(pools));
        }
        assertThatThrownBy(() -> MultiPool.create(2, 1, null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> MultiPool.create(2, 1, LoadBalancing.LEAST_TASKS, null))
                .isInstanceOf(NullPointerException.class);
    }

    /**
     * A huge pool count must fail like any other invalid option, with an {@link IllegalArgumentException} naming it,
     * not with an {@link OutOfMemoryError} from allocating or creating that many pools.
     */
    @Test
    void aHugePoolCountFailsWithAClearMessageNotOutOfMemory() {
        assertThatThrownBy(() -> MultiPool.create(Integer.MAX_VALUE, 1, LoadBalancing.ROUND_ROBIN))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("pools");
    }

    @Test
    void nullTaskIsRejected() {
        try (MultiPool pool = MultiPool.create(2, 1, LoadBalancing.ROUND_ROBIN)) {
            assertThatThrownBy(() -> pool.execute(null)).isInstanceOf(NullPointerException.class);
            assertThat(pool.waiting()).isZero();
        }
    }

    @Test
    void badIndexesAreRejectedWithIndexOutOfBounds() {
        try (MultiPool pool = MultiPool.create(2, 1, LoadBalancing.LEAST_TASKS)) {
            for (int index : new int[] {-1, 2, Integer.MAX_VALUE, Integer.MIN_VALUE}) {
                assertThatThrownBy(() -> pool.running(index)).isInstanceOf(IndexOutOfBoundsException.class);
                assertThatThrownBy(() -> pool.free(index)).isInstanceOf(IndexOutOfBoundsException.class);
                assertThatThrownBy(() -> pool.waiting(index)).isInstanceOf(IndexOutOfBoundsException.class);
            }
        }
    }

    @Test
    void unlimitedAndHugePerPoolCapacitiesTakeTasks() throws Exception {
        try (MultiPool unlimited = MultiPool.create(3, 0, LoadBalancing.ROUND_ROBIN);
             MultiPool huge = MultiPool.create(2, Integer.MAX_VALUE, LoadBalancing.ROUND_ROBIN)) {
            assertThat(unlimited.capacity()).isEqualTo(-1);
            assertThat(unlimited.free()).isEqualTo(-1);
            assertThat(unlimited.submit(() -> "ran").get(5, TimeUnit.SECONDS)).isEqualTo("ran");
            assertThat(huge.submit(() -> "ran").get(5, TimeUnit.SECONDS)).isEqualTo("ran");
        }
    }

    @Test
    void summedCapacitySaturatesInsteadOfOverflowing() {
        try (MultiPool huge = MultiPool.create(2, Integer.MAX_VALUE, LoadBalancing.ROUND_ROBIN)) {
            assertThat(huge.capacity()).isEqualTo(Integer.MAX_VALUE);
        }
    }

    /**
     * The summed {@code free()} of sub-pools with huge capacities must not overflow {@code int} (two idle pools of
     * {@code Integer.MAX_VALUE} would report -2, read as "unlimited"): like {@code capacity()}, it saturates at
     * {@code Integer.MAX_VALUE}.
     */
    @Test
    void summedFreeDoesNotOverflow() throws InterruptedException {
        try (MultiPool huge = MultiPool.create(2, Integer.MAX_VALUE, LoadBalancing.ROUND_ROBIN)) {
            assertThat(huge.free()).isEqualTo(Integer.MAX_VALUE);
            CountDownLatch running = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            huge.execute(() -> {
                running.countDown();
                awaitQuietly(release);
            });
            try {
                running.await();
                // the summed capacity is capped first, as capacity() shows it: free() agrees with stats().free()
                assertThat(huge.free()).isEqualTo(Integer.MAX_VALUE - 1).isEqualTo(huge.stats().free());
            } finally {
                release.countDown();
            }
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void tuneIgnoresZeroAndNegative() {
        try (MultiPool pool = MultiPool.create(2, 3, LoadBalancing.ROUND_ROBIN)) {
            pool.tune(0);
            pool.tune(-1);
            assertThat(pool.capacity()).isEqualTo(6);
        }
    }

    @Test
    void callsOnAReleasedMultiPool() throws Exception {
        MultiPool pool = MultiPool.create(2, 1, LoadBalancing.ROUND_ROBIN,
                PoolOptions.builder().name("abuse-multi").build());
        pool.release();
        assertThatThrownBy(() -> pool.execute(() -> { })).isInstanceOf(PoolClosedException.class);
        assertThatThrownBy(() -> pool.submit(() -> 1)).isInstanceOf(PoolClosedException.class);
        assertThatCode(() -> {
            pool.release();
            pool.shutdown();
            pool.tune(3);
            pool.close();
        }).doesNotThrowAnyException();
        assertThat(pool.shutdownNow()).isEmpty();
        assertThat(pool.isTerminated()).isTrue();
        assertThatThrownBy(() -> pool.releaseTimeout(Duration.ofSeconds(1))).isInstanceOf(PoolClosedException.class);
        pool.reboot();
        assertThat(pool.submit(() -> "again").get(5, TimeUnit.SECONDS)).isEqualTo("again");
        pool.close();
    }
}
