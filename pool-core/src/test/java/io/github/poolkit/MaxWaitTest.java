package io.github.poolkit;

import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** {@code maxWait}, and timed {@code invokeAll}/{@code invokeAny} on a full pool. */
@Timeout(20)
class MaxWaitTest {

    private static PoolOptions.Builder opts() {
        return PoolOptions.builder().name("mw").panicHandler(e -> { });
    }

    @Test
    void aBlockedCallerGivesUpAfterMaxWaitAndItsTaskNeverRuns() throws Exception {
        AtomicInteger ran = new AtomicInteger();
        WorkerPool pool = WorkerPool.create(1, opts().maxWait(Duration.ofMillis(80)).build());
        Blocker blocker = Blocker.occupy(pool, 1);
        long start = System.nanoTime();
        assertThatThrownBy(() -> pool.execute(ran::incrementAndGet))
                .isInstanceOf(PoolOverloadException.class)
                .hasMessageContaining("pool 'mw'")
                .hasMessageContaining("maxWait")
                .hasMessageContaining("0.08s");
        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(80));
        assertThat(pool.stats().blocked()).isZero();
        assertThat(pool.stats().rejected()).isEqualTo(1);
        blocker.open();
        pool.close();
        assertThat(ran.get()).isZero();
        assertThat(pool.stats().completed()).isEqualTo(1);
    }

    @Test
    void aBlockedCallerServedBeforeMaxWaitIsAccepted() throws Exception {
        CountDownLatch ran = new CountDownLatch(1);
        try (WorkerPool pool = WorkerPool.create(1, opts().maxWait(Duration.ofSeconds(30)).build())) {
            Blocker blocker = Blocker.occupy(pool, 1);
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            Thread caller = Callers.start(() -> pool.execute(ran::countDown), thrown);
            await().until(() -> pool.stats().blocked() == 1);
            blocker.open();
            caller.join();
            assertThat(thrown.get()).isNull();
            Latches.await(ran);
            assertThat(pool.stats().rejected()).isZero();
        }
    }

    @Test
    void zeroMaxWaitFailsAtOnceLikeNonblocking() throws Exception {
        try (WorkerPool pool = WorkerPool.create(1, opts().maxWait(Duration.ZERO).build())) {
            Blocker blocker = Blocker.occupy(pool, 1); // a free worker was still accepted
            assertThatThrownBy(() -> pool.execute(() -> { }))
                    .isInstanceOf(PoolOverloadException.class)
                    .hasMessageContaining("maxWait is 0");
            assertThat(pool.stats().blocked()).isZero();
            blocker.open();
        }
    }

    @Test
    void maxWaitAppliesToFuncPoolInvoke() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(1);
        AtomicInteger ran = new AtomicInteger();
        FuncPool<Integer> pool = FuncPool.create(1, n -> {
            ran.incrementAndGet();
            started.countDown();
            Latches.await(gate);
        }, opts().maxWait(Duration.ofMillis(30)).queueCapacity(1).build());
        pool.invoke(1);
        Latches.await(started);
        pool.invoke(2); // queued
        assertThatThrownBy(() -> pool.invoke(3)).isInstanceOf(PoolOverloadException.class);
        gate.countDown();
        pool.close();
        assertThat(ran.get()).isEqualTo(2);
        assertThat(pool.stats().rejected()).isEqualTo(1);
    }

    @Test
    void timedInvokeAnyOnAFullPoolTimesOutWhileBlocked() throws Exception {
        AtomicInteger ran = new AtomicInteger();
        WorkerPool pool = WorkerPool.create(1, opts().build()); // no queue, waits without limit
        Blocker blocker = Blocker.occupy(pool, 1);
        List<Callable<Integer>> tasks = List.of(ran::incrementAndGet, ran::incrementAndGet);
        long start = System.nanoTime();
        assertThatThrownBy(() -> pool.invokeAny(tasks, 100, TimeUnit.MILLISECONDS))
                .isInstanceOf(TimeoutException.class);
        assertThat(System.nanoTime() - start).isBetween(TimeUnit.MILLISECONDS.toNanos(100),
                TimeUnit.SECONDS.toNanos(5));
        assertThat(pool.stats().blocked()).isZero();
        blocker.open();
        pool.close();
        assertThat(ran.get()).isZero();
    }

    @Test
    void timedInvokeAllOnAFullPoolReturnsTheUnplacedTasksCancelled() throws Exception {
        AtomicInteger ran = new AtomicInteger();
        WorkerPool pool = WorkerPool.create(1, opts().build());
        Blocker blocker = Blocker.occupy(pool, 1);
        List<Callable<Integer>> tasks = List.of(ran::incrementAndGet, ran::incrementAndGet);
        List<Future<Integer>> futures = pool.invokeAll(tasks, 100, TimeUnit.MILLISECONDS);
        assertThat(futures).hasSize(2).allMatch(Future::isCancelled);
        blocker.open();
        pool.close();
        assertThat(ran.get()).isZero();
    }

    @Test
    void timedInvokeAllStillReturnsResultsThatCameInTime() throws Exception {
        try (WorkerPool pool = WorkerPool.create(1, opts().build())) {
            List<Future<Integer>> futures = pool.invokeAll(List.of(() -> 1, () -> 2), 10, TimeUnit.SECONDS);
            assertThat(futures.get(0).get()).isEqualTo(1);
            assertThat(futures.get(1).get()).isEqualTo(2);
            assertThat(pool.invokeAny(List.<Callable<Integer>>of(() -> 7), 10, TimeUnit.SECONDS)).isEqualTo(7);
        }
    }

    @Test
    void timedInvokeAnyOnAFullMultiPoolTimesOutWhileBlocked() throws Exception {
        AtomicInteger ran = new AtomicInteger();
        MultiPool pool = MultiPool.create(2, 1, MultiPool.LoadBalancing.ROUND_ROBIN, opts().build());
        Blocker blocker = Blocker.occupy(pool, 2);
        List<Callable<Integer>> tasks = List.of(ran::incrementAndGet);
        long start = System.nanoTime();
        assertThatThrownBy(() -> pool.invokeAny(tasks, 100, TimeUnit.MILLISECONDS))
                .isInstanceOf(TimeoutException.class);
        assertThat(System.nanoTime() - start).isLessThan(TimeUnit.SECONDS.toNanos(5));
        assertThat(pool.invokeAll(tasks, 50, TimeUnit.MILLISECONDS)).allMatch(Future::isCancelled);
        blocker.open();
        pool.close();
        assertThat(ran.get()).isZero();
    }

    /** Callers that time out race workers that serve the line: every task runs once or is refused, never both. */
    @RepeatedTest(20)
    void timeoutsRacingGrantsLoseNoTaskAndRunNoneTwice() throws Exception {
        int callers = 6;
        int perCaller = 200;
        AtomicInteger ran = new AtomicInteger();
        AtomicInteger accepted = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        WorkerPool pool = WorkerPool.create(2, opts().maxWait(Duration.ofNanos(20_000)).build());
        Thread[] threads = new Thread[callers];
        for (int c = 0; c < callers; c++) {
            threads[c] = new Thread(() -> {
                for (int i = 0; i < perCaller; i++) {
                    try {
                        pool.execute(() -> {
                            ran.incrementAndGet();
                            Thread.onSpinWait();
                        });
                        accepted.incrementAndGet();
                    } catch (PoolOverloadException e) {
                        refused.incrementAndGet();
                    }
                }
            });
            threads[c].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        pool.close();
        assertThat(accepted.get() + refused.get()).isEqualTo(callers * perCaller);
        assertThat(ran.get()).isEqualTo(accepted.get());
        assertThat(pool.stats().completed()).isEqualTo(accepted.get());
        assertThat(pool.stats().rejected()).isEqualTo(refused.get());
    }
}
