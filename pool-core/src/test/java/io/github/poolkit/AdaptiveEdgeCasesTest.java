package io.github.poolkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Adaptive limits at their edges: odd samples never move a limit out of its bounds, every kind of overload refusal is
 * a dropped sample, a task that throws is an ordinary one, and the other pool kinds follow their limit too.
 */
@Timeout(20)
class AdaptiveEdgeCasesTest {

    private static final long MS = 1_000_000L;

    private static PoolOptions.Builder opts(AdaptiveLimit limit) {
        return PoolOptions.builder().name("adaptive-edge").panicHandler(e -> { }).adaptiveCapacity(limit);
    }

    @Test
    void oddSamplesNeverMoveALimitOutOfItsBounds() {
        long[] rtts = {0, -5, 1, Long.MAX_VALUE, 10 * MS, Long.MIN_VALUE, 3 * MS, 1_000_000 * MS};
        int[] inFlights = {0, -1, 1, Integer.MAX_VALUE, 7, Integer.MIN_VALUE};
        for (boolean aimd : new boolean[] {false, true}) {
            AdaptiveLimit limit = aimd ? AdaptiveLimit.aimd(2, 9) : AdaptiveLimit.gradient(2, 9);
            assertThat(limit.limit()).isEqualTo(2);
            for (int i = 0; i < 5_000; i++) {
                limit.onSample(rtts[i % rtts.length], inFlights[i % inFlights.length], i % 11 == 0);
                assertThat(limit.limit()).as("after sample %d", i).isBetween(2, 9);
            }
        }
    }

    @Test
    void aimdNeverLeavesItsBoundsAndEqualBoundsPinIt() {
        AdaptiveLimit a = AdaptiveLimit.aimd(3, 6);
        for (int i = 0; i < 500; i++) {
            a.onSample(10 * MS, a.limit(), false);
            assertThat(a.limit()).isBetween(3, 6);
        }
        assertThat(a.limit()).isEqualTo(6);
        for (int i = 0; i < 500; i++) {
            a.onSample(0, a.limit(), true);
            assertThat(a.limit()).isBetween(3, 6);
        }
        assertThat(a.limit()).isEqualTo(3);
        AdaptiveLimit pinned = AdaptiveLimit.aimd(4, 4);
        pinned.onSample(10 * MS, 4, false);
        pinned.onSample(0, 4, true);
        assertThat(pinned.limit()).isEqualTo(4);
        assertThat(AdaptiveLimit.gradient(1, Integer.MAX_VALUE).limit()).isEqualTo(1);
        assertThatThrownBy(() -> AdaptiveLimit.aimd(0, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> AdaptiveLimit.gradient(Integer.MIN_VALUE, 1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * An application's limit that throws an {@code Error} is logged as one that throws an exception is: the worker
     * still reports its task and lives on, and a refused caller still gets the refusal, which the listener hears.
     */
    @Test
    void aLimitThatThrowsAnErrorReachesNeitherTheWorkerNorTheCaller() throws Exception {
        AdaptiveLimit failing = new BrokenLimit(1);
        CountDownLatch finished = new CountDownLatch(1);
        CountDownLatch rejected = new CountDownLatch(1);
        PoolListener listener = new PoolListener() {
            @Override
            public void taskFinished(long waitedNanos, long ranNanos, Throwable failure) {
                finished.countDown();
            }

            @Override
            public void taskRejected(RuntimeException reason) {
                rejected.countDown();
            }
        };
        try (WorkerPool pool = WorkerPool.create(1, opts(failing).nonblocking(true).listener(listener).build())) {
            Blocker blocker = Blocker.occupy(pool, 1);
            assertThatThrownBy(() -> pool.execute(() -> { })).isInstanceOf(PoolOverloadException.class);
            assertThat(rejected.await(5, TimeUnit.SECONDS)).as("the listener heard the refusal").isTrue();
            blocker.open();
            assertThat(finished.await(5, TimeUnit.SECONDS)).as("the listener heard the task end").isTrue();
            assertThat(pool.stats().completed()).isEqualTo(1);
            assertThat(pool.stats().rejected()).isEqualTo(1);
        }
    }

    @RepeatedTest(5)
    void aTaskThatThrowsIsAnOrdinarySample() {
        SettableLimit limit = new SettableLimit(1);
        try (WorkerPool pool = WorkerPool.create(1, opts(limit).build())) {
            pool.execute(() -> {
                throw new IllegalStateException("task failure");
            });
            await().until(() -> limit.samples().size() == 1);
            SettableLimit.Sample s = limit.samples().getFirst();
            assertThat(s.dropped()).isFalse();
            assertThat(s.inFlight()).isEqualTo(1);
            assertThat(s.rttNanos()).isPositive();
        }
    }

    @RepeatedTest(5)
    void aRefusalByMaxBlockingTasksIsADroppedSample() throws Exception {
        SettableLimit limit = new SettableLimit(1);
        try (WorkerPool pool = WorkerPool.create(1, opts(limit).maxBlockingTasks(1).build())) {
            Blocker blocker = Blocker.occupy(pool, 1);
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            Thread waiting = Callers.start(() -> pool.execute(() -> { }), thrown);
            await().until(() -> pool.stats().blocked() == 1);
            assertThatThrownBy(() -> pool.execute(() -> { })).isInstanceOf(PoolOverloadException.class);
            assertThat(limit.samples()).containsExactly(new SettableLimit.Sample(0, 1, true));
            blocker.open();
            waiting.join();
            assertThat(thrown.get()).isNull();
        }
    }

    @RepeatedTest(5)
    void aRefusalByMaxWaitIsADroppedSample() throws Exception {
        SettableLimit limit = new SettableLimit(1);
        try (WorkerPool pool = WorkerPool.create(1, opts(limit).maxWait(Duration.ofMillis(20)).build())) {
            Blocker blocker = Blocker.occupy(pool, 1);
            assertThatThrownBy(() -> pool.execute(() -> { })).isInstanceOf(PoolOverloadException.class);
            assertThat(limit.samples()).containsExactly(new SettableLimit.Sample(0, 1, true));
            blocker.open();
        }
    }

    @RepeatedTest(5)
    void aRefusalByAFullQueueIsADroppedSample() throws Exception {
        SettableLimit limit = new SettableLimit(1);
        try (WorkerPool pool = WorkerPool.create(1, opts(limit).queueCapacity(1).nonblocking(true).build())) {
            Blocker blocker = Blocker.occupy(pool, 1);
            pool.execute(() -> { }); // queued
            assertThatThrownBy(() -> pool.execute(() -> { })).isInstanceOf(PoolOverloadException.class);
            assertThat(limit.samples()).containsExactly(new SettableLimit.Sample(0, 1, true));
            blocker.open();
        }
    }

    @RepeatedTest(5)
    void anInterruptedCallerIsNoSample() throws Exception {
        SettableLimit limit = new SettableLimit(1);
        try (WorkerPool pool = WorkerPool.create(1, opts(limit).build())) {
            Blocker blocker = Blocker.occupy(pool, 1);
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            Thread waiting = Callers.start(() -> pool.execute(() -> { }), thrown);
            await().until(() -> pool.stats().blocked() == 1);
            waiting.interrupt();
            waiting.join();
            assertThat(thrown.get()).isNotNull().isNotInstanceOf(PoolOverloadException.class);
            assertThat(limit.samples()).isEmpty();
            blocker.open();
        }
    }

    @RepeatedTest(5)
    void aFuncPoolFollowsItsLimit() {
        SettableLimit limit = new SettableLimit(2);
        CountDownLatch ran = new CountDownLatch(1);
        FuncPool<String> pool = FuncPool.create(50, arg -> ran.countDown(), opts(limit).build());
        try {
            assertThat(pool.capacity()).isEqualTo(2);
            limit.set(5);
            pool.invoke("x");
            Latches.await(ran);
            await().until(() -> pool.capacity() == 5);
            assertThat(pool.stats().capacity()).isEqualTo(5);
            assertThat(limit.samples()).extracting(SettableLimit.Sample::dropped).containsExactly(false);
        } finally {
            pool.release();
        }
    }

    @RepeatedTest(5)
    void aVirtualThreadPoolFollowsItsLimit() throws Exception {
        SettableLimit limit = new SettableLimit(3);
        try (WorkerPool pool = WorkerPool.create(10, opts(limit).virtualThreads(true).build())) {
            assertThat(pool.capacity()).isEqualTo(3);
            Blocker blocker = Blocker.occupy(pool, 2);
            limit.set(1);
            blocker.open();
            await().until(() -> limit.samples().size() == 2);
            await().until(() -> pool.capacity() == 1);
            assertThat(pool.stats().capacity()).isEqualTo(1);
            assertThat(limit.samples()).extracting(SettableLimit.Sample::inFlight).containsExactlyInAnyOrder(1, 2);
        }
    }

    @RepeatedTest(5)
    void aReleasedPoolStillTakesItsLastSamplesAndTerminates() throws Exception {
        SettableLimit limit = new SettableLimit(2);
        WorkerPool pool = WorkerPool.create(2, opts(limit).build());
        Blocker blocker = Blocker.occupy(pool, 2);
        pool.release();
        limit.set(4);
        blocker.open();
        assertThat(pool.awaitTermination(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThat(limit.samples()).hasSize(2).extracting(SettableLimit.Sample::dropped).containsOnly(false);
        assertThat(pool.isClosed()).isTrue();
        pool.reboot();
        try {
            CountDownLatch ran = new CountDownLatch(1);
            pool.execute(ran::countDown);
            Latches.await(ran);
            await().until(() -> pool.capacity() == 4);
        } finally {
            pool.release();
        }
    }

    /**
     * A sample times the task, not the panic handler after it: a task that throws at once, followed by a slow
     * handler (a synchronous alert, a stack logged), is a fast sample, as the same failure through submit() is.
     */
    @Test
    void aSampleOfATaskThatThrowsLeavesOutThePanicHandler() {
        SettableLimit limit = new SettableLimit(2);
        CountDownLatch inHandler = new CountDownLatch(1);
        CountDownLatch handlerMayReturn = new CountDownLatch(1);
        long[] handlerNanos = new long[1];
        WorkerPool pool = WorkerPool.create(2, PoolOptions.builder().name("adaptive-edge").adaptiveCapacity(limit)
                .panicHandler(e -> { // a slow handler: held until the test lets it return
                    long start = System.nanoTime();
                    inHandler.countDown();
                    Latches.await(handlerMayReturn);
                    handlerNanos[0] = System.nanoTime() - start;
                }).build());
        try {
            pool.execute(() -> {
                throw new IllegalStateException("expected by the test");
            });
            Latches.await(inHandler);
            long end = System.nanoTime() + 300 * MS; // time passes on this thread while the handler holds the worker
            while (System.nanoTime() < end) {
                LockSupport.parkNanos(end - System.nanoTime());
            }
            handlerMayReturn.countDown();
            await().atMost(Duration.ofSeconds(10)).until(() -> limit.samples().size() == 1);
            // with the handler's time in it, the sample would be at least the handler's 300 ms and more
            assertThat(limit.samples().get(0).rttNanos()).as("the task's own time").isLessThan(handlerNanos[0]);
        } finally {
            pool.release();
        }
    }
}
