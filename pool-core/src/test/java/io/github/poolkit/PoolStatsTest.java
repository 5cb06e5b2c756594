package io.github.poolkit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** Every field of {@link PoolStats}, for each pool kind: what is running, waiting and counted. */
@Timeout(20)
class PoolStatsTest {

    private static final Runnable FAIL = () -> {
        throw new IllegalStateException("expected by the test");
    };

    private static PoolOptions.Builder quiet() {
        return PoolOptions.builder().panicHandler(e -> { });
    }


    @Test
    void freshPoolReadsZeroEverywhere() {
        try (WorkerPool pool = WorkerPool.create(3)) {
            assertThat(pool.stats()).isEqualTo(new PoolStats(3, 0, 0, 0, 0, 0, 0, 0, false, 0));
        }
    }

    /** The snapshot as 0.2 built it, without the overdue count, still compiles and reads zero overdue tasks. */
    @Test
    void theSnapshotWithoutTheOverdueCountStillBuilds() {
        PoolStats stats = new PoolStats(4, 3, 2, 1, 1, 10, 2, 5, false);
        assertThat(stats.overdue()).isZero();
        assertThat(stats).isEqualTo(new PoolStats(4, 3, 2, 1, 1, 10, 2, 5, false, 0));
        assertThat(stats.waiting()).isEqualTo(2);
        assertThat(stats.free()).isEqualTo(1);
        try (WorkerPool pool = WorkerPool.create(3)) {
            assertThat(pool.stats()).isEqualTo(new PoolStats(3, 0, 0, 0, 0, 0, 0, 0, false));
        }
    }

    @Test
    void busyQueuedAndBlockedAreWhatThePoolHoldsNow() throws Exception {
        try (WorkerPool pool = WorkerPool.create(2, quiet().queueCapacity(1).build())) {
            Blocker blocker = Blocker.occupy(pool, 2);
            pool.execute(() -> { });                       // into the queue
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            Thread blockedCaller = Callers.start(() -> pool.execute(() -> { }), thrown);
            await().until(() -> pool.stats().blocked() == 1);

            PoolStats s = pool.stats();
            assertThat(s.capacity()).isEqualTo(2);
            assertThat(s.running()).isEqualTo(2);
            assertThat(s.busy()).isEqualTo(2);
            assertThat(s.queued()).isEqualTo(1);
            assertThat(s.blocked()).isEqualTo(1);
            assertThat(s.waiting()).isEqualTo(2).isEqualTo(pool.waiting());
            assertThat(s.free()).isZero();
            assertThat(s.completed()).isZero();

            blocker.open();
            blockedCaller.join();
            assertThat(thrown.get()).isNull();
            await().until(() -> pool.stats().completed() == 4);
            await().until(() -> pool.stats().busy() == 0);
            assertThat(pool.stats().queued()).isZero();
            assertThat(pool.stats().blocked()).isZero();
        }
    }

    @Test
    void busyCountsWorkersRunningATaskNotIdleOnes() throws Exception {
        try (WorkerPool pool = WorkerPool.create(4, quiet().disablePurge(true).build())) {
            Blocker blocker = Blocker.occupy(pool, 3);
            blocker.open();
            await().until(() -> pool.stats().busy() == 0);
            assertThat(pool.stats().running()).isEqualTo(3); // idle, never purged here
            Blocker one = Blocker.occupy(pool, 1);
            assertThat(pool.stats().busy()).isEqualTo(1);
            one.open();
        }
    }

    @Test
    void completedAndFailedCountEachTaskOnce() {
        WorkerPool pool = WorkerPool.create(3, quiet().build());
        for (int i = 0; i < 50; i++) {
            pool.execute(i % 5 == 0 ? FAIL : () -> { });
        }
        pool.close();
        PoolStats s = pool.stats();
        assertThat(s.completed()).isEqualTo(40);
        assertThat(s.failed()).isEqualTo(10);
        assertThat(s.rejected()).isZero();
        assertThat(s.closed()).isTrue();
        assertThat(s.running()).isZero();
    }

    @Test
    void submittedTasksThatThrowCountAsFailedBeforeGetReturns() throws Exception {
        // The exception goes to the Future (not the panic handler), and the task counts as failed, not completed,
        // already when get() throws.
        try (WorkerPool pool = WorkerPool.create(1, quiet().build())) {
            assertThatThrownBy(() -> pool.submit(FAIL).get()).hasCauseInstanceOf(IllegalStateException.class);
            assertThat(pool.stats().failed()).isEqualTo(1);
            assertThat(pool.stats().completed()).isZero();
        }
    }

    @Test
    void countsSurviveWorkersThatExpireOrRetire() {
        try (WorkerPool pool = WorkerPool.create(4, quiet().expiry(Duration.ofMillis(20)).build())) {
            CountDownLatch ran = new CountDownLatch(8);
            for (int i = 0; i < 8; i++) {
                pool.execute(i < 2 ? () -> {
                    ran.countDown();
                    FAIL.run();
                } : ran::countDown);
            }
            Latches.await(ran);
            await().until(() -> pool.running() == 0); // every worker purged
            assertThat(pool.stats().completed()).isEqualTo(6);
            assertThat(pool.stats().failed()).isEqualTo(2);
        }
    }

    @Test
    void rejectedCountsOverloadAndClosedRefusals() throws Exception {
        WorkerPool pool = WorkerPool.create(1, quiet().nonblocking(true).build());
        Blocker blocker = Blocker.occupy(pool, 1);
        assertThatThrownBy(() -> pool.execute(() -> { })).isInstanceOf(PoolOverloadException.class);
        assertThatThrownBy(() -> pool.execute(() -> { })).isInstanceOf(PoolOverloadException.class);
        assertThat(pool.stats().rejected()).isEqualTo(2);
        blocker.open();
        pool.close();
        assertThatThrownBy(() -> pool.execute(() -> { })).isInstanceOf(PoolClosedException.class);
        assertThat(pool.stats().rejected()).isEqualTo(3);
        assertThat(pool.stats().completed()).isEqualTo(1);
    }

    @Test
    void rejectedCountsAnInterruptedBlockedCaller() throws Exception {
        try (WorkerPool pool = WorkerPool.create(1, quiet().build())) {
            Blocker blocker = Blocker.occupy(pool, 1);
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            Thread t = Callers.start(() -> pool.execute(() -> { }), thrown);
            await().until(() -> pool.stats().blocked() == 1);
            t.interrupt();
            t.join();
            assertThat(thrown.get()).isInstanceOf(java.util.concurrent.RejectedExecutionException.class);
            assertThat(pool.stats().rejected()).isEqualTo(1);
            assertThat(pool.stats().blocked()).isZero();
            blocker.open();
        }
    }

    @Test
    void funcPoolCountsInvocations() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(1);
        FuncPool<Integer> pool = FuncPool.create(1, n -> {
            if (n == 0) {
                started.countDown();
                Latches.await(gate);
            } else if (n < 0) {
                throw new IllegalArgumentException("negative");
            }
        }, quiet().queueCapacity(2).build());
        pool.invoke(0);
        Latches.await(started);
        pool.invoke(-1);
        pool.invoke(1);
        PoolStats s = pool.stats();
        assertThat(s.busy()).isEqualTo(1);
        assertThat(s.queued()).isEqualTo(2);
        gate.countDown();
        pool.close();
        assertThat(pool.stats().completed()).isEqualTo(2);
        assertThat(pool.stats().failed()).isEqualTo(1);
    }

    @Test
    void multiPoolSumsItsPools() throws Exception {
        MultiPool pool = MultiPool.create(2, 1, MultiPool.LoadBalancing.ROUND_ROBIN,
                quiet().queueCapacity(1).nonblocking(true).build());
        Blocker blocker = Blocker.occupy(pool, 2);       // one per sub-pool, round robin
        pool.execute(() -> { });
        pool.execute(FAIL);                              // one queued per sub-pool
        assertThatThrownBy(() -> pool.execute(() -> { })).isInstanceOf(PoolOverloadException.class);
        PoolStats s = pool.stats();
        assertThat(s.capacity()).isEqualTo(2);
        assertThat(s.running()).isEqualTo(2);
        assertThat(s.busy()).isEqualTo(2);
        assertThat(s.queued()).isEqualTo(2);
        // the refused task was tried on its pool, then once more on the other one: refused once, as the caller saw
        assertThat(s.rejected()).isEqualTo(1);
        blocker.open();
        pool.close();
        PoolStats done = pool.stats();
        assertThat(done.completed()).isEqualTo(3);
        assertThat(done.failed()).isEqualTo(1);
        assertThat(done.closed()).isTrue();
    }

    @Test
    void multiPoolDoesNotCountATaskThatItsRetryPlaced() throws Exception {
        try (MultiPool pool = MultiPool.create(2, 1, MultiPool.LoadBalancing.ROUND_ROBIN,
                quiet().nonblocking(true).build())) {
            Blocker blocker = Blocker.occupy(pool, 1);   // pool 0
            pool.execute(() -> { });                     // pool 1
            await().until(() -> pool.stats().busy() == 1);
            pool.execute(() -> { });                     // pool 0 is full: placed on pool 1 instead
            assertThat(pool.stats().rejected()).isZero();
            blocker.open();
        }
    }
}
