package io.github.poolkit;

import io.github.poolkit.MultiPool.LoadBalancing;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code maxWait} is the longest a caller blocks in a multi-pool's {@code execute} too: the round-robin retry on
 * another pool gets what is left of it, not a second {@code maxWait}.
 */
@Timeout(20)
class MultiPoolMaxWaitTest {

    private static final Duration MAX_WAIT = Duration.ofSeconds(1);

    @RepeatedTest(2)
    void roundRobinRetryWaitsOnlyWhatIsLeftOfMaxWait() throws Exception {
        MultiPool pool = MultiPool.create(2, 1, LoadBalancing.ROUND_ROBIN,
                PoolOptions.builder().name("mpw").maxWait(MAX_WAIT).build());
        Blocker busy = Blocker.occupy(pool, 2); // one task on each pool
        try {
            assertThat(pool.running(0)).isEqualTo(1);
            assertThat(pool.running(1)).isEqualTo(1);
            AtomicInteger ran = new AtomicInteger();
            long start = System.nanoTime();
            assertThatThrownBy(() -> pool.execute(ran::incrementAndGet)).isInstanceOf(PoolOverloadException.class);
            long waited = System.nanoTime() - start;
            // waiting twice takes at least 2 * maxWait; once, maxWait and a little (scheduling on a busy machine)
            assertThat(Duration.ofNanos(waited)).isGreaterThanOrEqualTo(MAX_WAIT)
                    .isLessThan(MAX_WAIT.multipliedBy(19).dividedBy(10));
            assertThat(ran).hasValue(0);
        } finally {
            busy.open();
            pool.close();
        }
        assertThat(pool.awaitTermination(1, TimeUnit.SECONDS)).isTrue();
    }
}
