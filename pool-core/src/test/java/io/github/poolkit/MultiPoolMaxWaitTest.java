package io.github.poolkit;

import io.github.poolkit.MultiPool.LoadBalancing;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
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
                    .isLessThan(MAX_WAIT.multipliedBy(2));
            assertThat(ran).hasValue(0);
        } finally {
            busy.open();
            pool.close();
        }
        assertThat(pool.awaitTermination(1, TimeUnit.SECONDS)).isTrue();
    }

    /**
     * A task that waited out {@code maxWait} on its round-robin pool and then ran on another is told to the listeners
     * with its whole wait, the first pool's included (the starter's {@code executor.idle} timer): not only the wait
     * on the pool that ran it.
     */
    @Test
    void aTaskRetriedOnAnotherPoolIsToldItsWholeWait() throws Exception {
        Duration maxWait = Duration.ofMillis(200);
        MultiPool pool = MultiPool.create(2, 1, LoadBalancing.ROUND_ROBIN,
                PoolOptions.builder().name("mpw-told").maxWait(maxWait).build());
        List<Long> waits = new CopyOnWriteArrayList<>();
        CountDownLatch ran = new CountDownLatch(1);
        Blocker busy = Blocker.occupy(pool, 1); // the first pool's only worker, busy throughout
        try {
            CountDownLatch quick = new CountDownLatch(1);
            pool.execute(quick::countDown); // the second pool, which then has an idle worker
            Latches.await(quick);
            pool.addListener(new PoolListener() {
                @Override
                public void taskFinished(long waitedNanos, long ranNanos, Throwable failure) {
                    waits.add(waitedNanos);
                }
            });
            pool.execute(ran::countDown); // the first pool's turn: waits out maxWait there, then runs on the second
            Latches.await(ran);
            await().until(() -> waits.size() == 1);
            assertThat(Duration.ofNanos(waits.get(0))).isGreaterThanOrEqualTo(maxWait);
        } finally {
            busy.open();
            pool.close();
        }
    }
}
