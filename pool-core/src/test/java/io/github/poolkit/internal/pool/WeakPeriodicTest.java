package io.github.poolkit.internal.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;

/** A pool's periodic chore on a shared timer: run on the pool while it lives, cancelled once it is collected. */
@Timeout(30)
class WeakPeriodicTest {

    private static final long PERIOD_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

    private final ScheduledThreadPoolExecutor timer = WeakPeriodic.timer("poolkit-test-periodic");

    @AfterEach
    void stopTimer() {
        timer.shutdownNow();
    }

    @RepeatedTest(20)
    void theChoreRunsOnTheTimerThreadWithThePoolEachPeriod() throws InterruptedException {
        PoolLifecycle pool = new PoolLifecycle(null, -1);
        CountDownLatch runs = new CountDownLatch(3);
        AtomicReference<PoolLifecycle> seen = new AtomicReference<>();
        AtomicReference<String> thread = new AtomicReference<>();

        Future<?> future = WeakPeriodic.schedule(timer, pool, PERIOD_NANOS, p -> {
            seen.set(p);
            thread.set(Thread.currentThread().getName());
            runs.countDown();
        });

        assertThat(runs.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(seen.get()).isSameAs(pool);
        assertThat(thread.get()).isEqualTo("poolkit-test-periodic-1");
        assertThat(future.isCancelled()).isFalse();
        future.cancel(false);
        // a cancelled chore leaves the timer's queue at once, unless the cancel came as the run ended (the timer then
        // puts it back, cancelled, and drops it when it falls due): one period at most
        await().atMost(Duration.ofSeconds(10)).until(() -> timer.getQueue().isEmpty());
    }

    @RepeatedTest(20)
    void aCollectedPoolsChoreCancelsItselfWithoutHoldingThePool() {
        CountDownLatch ran = new CountDownLatch(1);
        WeakReference<PoolLifecycle> dropped = scheduleOnADroppedPool(ran);

        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(10)).until(() -> {
            System.gc();
            return dropped.get() == null;
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> timer.getQueue().isEmpty());
    }

    /** Schedules a chore on a pool that nothing but the chore can reach once this returns. */
    private WeakReference<PoolLifecycle> scheduleOnADroppedPool(CountDownLatch ran) {
        PoolLifecycle pool = new PoolLifecycle(null, -1);
        WeakPeriodic.schedule(timer, pool, PERIOD_NANOS, p -> ran.countDown());
        return new WeakReference<>(pool);
    }
}
