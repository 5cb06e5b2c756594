package io.github.poolkit;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** {@link PoolOptions.Builder#adaptiveCapacity}: what the pool feeds the limit, and how its capacity follows it. */
@Timeout(20)
class AdaptiveCapacityTest {

    private static PoolOptions.Builder opts(AdaptiveLimit limit) {
        return PoolOptions.builder().name("adaptive").panicHandler(e -> { }).adaptiveCapacity(limit);
    }

    @Test
    void thePoolStartsAtTheLimit() {
        try (WorkerPool pool = WorkerPool.create(100, opts(new SettableLimit(3)).build())) {
            assertThat(pool.capacity()).isEqualTo(3);
            assertThat(pool.stats().capacity()).isEqualTo(3);
        }
    }

    @RepeatedTest(5)
    void eachFinishedTaskIsASampleAfterWhichTheCapacityFollowsTheLimit() {
        SettableLimit limit = new SettableLimit(2);
        try (WorkerPool pool = WorkerPool.create(1, opts(limit).build())) {
            limit.set(7);
            pool.execute(() -> { });
            await().until(() -> limit.samples().size() == 1);
            await().until(() -> pool.capacity() == 7);
            assertThat(pool.stats().capacity()).isEqualTo(7);
            SettableLimit.Sample s = limit.samples().getFirst();
            assertThat(s.rttNanos()).isPositive();
            assertThat(s.inFlight()).isEqualTo(1);
            assertThat(s.dropped()).isFalse();
        }
    }

    @RepeatedTest(5)
    void inFlightCountsTheBusyWorkersWhenTheTaskStarted() throws Exception {
        SettableLimit limit = new SettableLimit(2);
        try (WorkerPool pool = WorkerPool.create(2, opts(limit).build())) {
            Blocker blocker = Blocker.occupy(pool, 2);
            blocker.open();
            await().until(() -> limit.samples().size() == 2);
            assertThat(limit.samples()).extracting(SettableLimit.Sample::inFlight).containsExactlyInAnyOrder(1, 2);
        }
    }

    /** A future cancelled while it waited in the queue never runs: the worker that takes it feeds no sample. */
    @RepeatedTest(5)
    void aFutureCancelledBeforeItStartedIsNoSample() throws Exception {
        SettableLimit limit = new SettableLimit(1);
        try (WorkerPool pool = WorkerPool.create(1, opts(limit).queueCapacity(4).build())) {
            Blocker blocker = Blocker.occupy(pool, 1);
            Future<?> cancelled = pool.submit(() -> { });
            assertThat(cancelled.cancel(false)).isTrue();
            pool.execute(() -> { });
            blocker.open();
            pool.shutdown(); // the worker ends once it has taken all three, each run's sample fed
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
            assertThat(limit.samples()).as("the blocker's and the last task's").hasSize(2)
                    .extracting(SettableLimit.Sample::inFlight).containsOnly(1);
        }
    }

    @RepeatedTest(5)
    void anOverloadRejectionIsADroppedSampleOnTheCallersThread() throws Exception {
        SettableLimit limit = new SettableLimit(1);
        try (WorkerPool pool = WorkerPool.create(1, opts(limit).nonblocking(true).build())) {
            Blocker blocker = Blocker.occupy(pool, 1);
            limit.set(2);
            assertThatThrownBy(() -> pool.execute(() -> { })).isInstanceOf(PoolOverloadException.class);
            assertThat(limit.samples()).containsExactly(new SettableLimit.Sample(0, 1, true));
            assertThat(pool.capacity()).isEqualTo(2); // tuned before execute threw
            blocker.open();
        }
    }

    @RepeatedTest(5)
    void aShrinkingLimitShrinksThePool() throws Exception {
        SettableLimit limit = new SettableLimit(3);
        try (WorkerPool pool = WorkerPool.create(1, opts(limit).nonblocking(true).build())) {
            Blocker blocker = Blocker.occupy(pool, 3);
            limit.set(1);
            CountDownLatch ran = new CountDownLatch(1);
            blocker.open();
            await().until(() -> pool.capacity() == 1);
            await().until(() -> pool.running() <= 1);
            pool.execute(ran::countDown);
            Latches.await(ran);
        }
    }

    @Test
    void aClosedPoolsRefusalIsNoSample() {
        SettableLimit limit = new SettableLimit(1);
        WorkerPool pool = WorkerPool.create(1, opts(limit).build());
        pool.release();
        assertThatThrownBy(() -> pool.execute(() -> { })).isInstanceOf(PoolClosedException.class);
        assertThat(limit.samples()).isEmpty();
    }

    @RepeatedTest(5)
    void aGradientPoolStaysWithinItsBounds() throws Exception {
        AdaptiveLimit gradient = AdaptiveLimit.gradient(2, 5);
        try (WorkerPool pool = WorkerPool.create(1, opts(gradient).build())) {
            CountDownLatch done = new CountDownLatch(500);
            for (int i = 0; i < 500; i++) {
                pool.execute(done::countDown);
            }
            Latches.await(done);
            // a worker samples its task after the task has counted down: the last samples may still be landing
            await().until(() -> pool.capacity() == gradient.limit());
            assertThat(pool.capacity()).isBetween(2, 5);
        }
    }

    @Test
    void unlimitedCapacityPreAllocMultiPoolAndLiveChangesAreRefused() {
        AdaptiveLimit limit = AdaptiveLimit.gradient(1, 10);
        assertThatThrownBy(() -> WorkerPool.create(0, opts(limit).build()))
                .isInstanceOf(InvalidOptionException.class).hasMessageContaining("adaptiveCapacity")
                .hasMessageContaining("bounded capacity");
        assertThatThrownBy(() -> WorkerPool.create(10, opts(limit).preAlloc(true).build()))
                .isInstanceOf(InvalidOptionException.class).hasMessageContaining("adaptiveCapacity")
                .hasMessageContaining("preAlloc");
        assertThatThrownBy(() -> MultiPool.create(2, 10, MultiPool.LoadBalancing.ROUND_ROBIN, opts(limit).build()))
                .isInstanceOf(InvalidOptionException.class).hasMessageContaining("adaptiveCapacity");
        try (WorkerPool pool = WorkerPool.create(10, opts(limit).build())) {
            assertThatThrownBy(() -> pool.reconfigure(pool.options().toBuilder()
                    .adaptiveCapacity(AdaptiveLimit.aimd(1, 10)).build()))
                    .isInstanceOf(InvalidOptionException.class).hasMessageContaining("adaptiveCapacity");
        }
    }
}
