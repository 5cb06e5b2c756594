package io.github.poolkit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Tasks given to {@code submit}, {@code invokeAll} and {@code invokeAny}: one that throws counts as failed (its
 * exception goes to the future and the listener, never the panic handler), and its count is final before its future
 * completes, so a caller that reads {@link Pool#stats()} right after {@code get()} sees it.
 */
@Timeout(60)
class SubmittedTaskCountsTest {

    private static final Callable<String> FAIL = () -> {
        throw new IllegalStateException("expected by the test");
    };

    /** The pool shapes whose workers run submitted futures. */
    enum Shape {
        POOLED(PoolOptions.builder()),
        QUEUED(PoolOptions.builder().queueCapacity(-1)),
        VIRTUAL(PoolOptions.builder().virtualThreads(true)),
        DECORATED(PoolOptions.builder().queueCapacity(8).taskDecorator(task -> () -> {
            DECORATED_RUNS.incrementAndGet();
            task.run();
        }));

        final PoolOptions.Builder options;

        Shape(PoolOptions.Builder options) {
            this.options = options;
        }
    }

    private static final AtomicInteger DECORATED_RUNS = new AtomicInteger();

    /** What the listener's record holds for a task that returned. */
    private static final Throwable RETURNED = new Throwable("returned");

    /**
     * Records what the panic handler and the listener are told. A synchronized list, not a copy-on-write one: a test
     * here records 50 000 runs or more, which a list copied at each add makes quadratic.
     */
    private static final class Witness implements PoolListener {
        final List<Throwable> panics = new CopyOnWriteArrayList<>();
        final List<Throwable> finished = java.util.Collections.synchronizedList(new java.util.ArrayList<>());

        PoolOptions options(PoolOptions.Builder builder) {
            return builder.panicHandler(panics::add).listener(this).build();
        }

        @Override
        public void taskFinished(long waitedNanos, long ranNanos, Throwable failure) {
            finished.add(failure == null ? RETURNED : failure);
        }
    }

    @ParameterizedTest
    @EnumSource(Shape.class)
    void aSubmittedTaskThatThrowsCountsAsFailedAtOnceAndOnlyItsFutureAndListenerGetTheException(Shape shape) {
        Witness witness = new Witness();
        WorkerPool pool = WorkerPool.create(2, witness.options(shape.options));
        Future<String> future = pool.submit(FAIL);
        assertThatThrownBy(future::get).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(IllegalStateException.class);
        PoolStats s = pool.stats();
        assertThat(s.failed()).isEqualTo(1);
        assertThat(s.completed()).isZero();
        pool.close();
        assertThat(witness.panics).isEmpty();
        assertThat(witness.finished).singleElement().isInstanceOf(IllegalStateException.class);
        assertThat(pool.stats().failed()).isEqualTo(1);
        assertThat(pool.stats().completed()).isZero();
    }

    @ParameterizedTest
    @EnumSource(Shape.class)
    void theCountAndTheListenersRecordAreFinalWhenGetReturns(Shape shape) throws Exception {
        int before = DECORATED_RUNS.get();
        Witness witness = new Witness();
        try (WorkerPool pool = WorkerPool.create(4, shape.options.panicHandler(e -> { }).listener(witness).build())) {
            for (int i = 1; i <= 2000; i++) {
                boolean fails = i % 3 == 0;
                Future<String> f = fails ? pool.submit(FAIL) : pool.submit(() -> "ok");
                try {
                    assertThat(f.get()).isEqualTo("ok");
                } catch (ExecutionException expected) {
                    assertThat(fails).isTrue();
                }
                PoolStats s = pool.stats();
                assertThat(s.completed() + s.failed()).as("task %d counted when get() returned", i).isEqualTo(i);
                assertThat(s.failed()).isEqualTo(i / 3);
                assertThat(witness.finished).as("task %d told to the listener when get() returned", i).hasSize(i);
            }
        }
        if (shape == Shape.DECORATED) {
            assertThat(DECORATED_RUNS.get() - before).isEqualTo(2000); // the decorator ran each future
        }
    }

    @ParameterizedTest
    @EnumSource(Shape.class)
    void invokeAllReturnsWithEveryTaskCounted(Shape shape) throws Exception {
        try (WorkerPool pool = WorkerPool.create(3, shape.options.panicHandler(e -> { }).build())) {
            List<Callable<String>> tasks = List.of(() -> "a", FAIL, () -> "c", FAIL);
            for (int round = 1; round <= 500; round++) {
                List<Future<String>> futures = round % 2 == 0 ? pool.invokeAll(tasks)
                        : pool.invokeAll(tasks, 1, TimeUnit.MINUTES);
                assertThat(futures).allMatch(Future::isDone);
                PoolStats s = pool.stats();
                assertThat(s.completed()).as("round %d", round).isEqualTo(2L * round);
                assertThat(s.failed()).as("round %d", round).isEqualTo(2L * round);
            }
        }
    }

    @Test
    void invokeAnyCountsTheTasksThatThrewAsFailed() throws Exception {
        Witness witness = new Witness();
        try (WorkerPool pool = WorkerPool.create(1, witness.options(PoolOptions.builder()))) {
            assertThatThrownBy(() -> pool.invokeAny(List.of(FAIL, FAIL))).isInstanceOf(ExecutionException.class);
            assertThat(pool.invokeAny(List.of(FAIL, () -> "ok"))).isEqualTo("ok");
            pool.close();
            assertThat(pool.stats().failed()).isEqualTo(3);
            assertThat(pool.stats().completed()).isEqualTo(1);
            assertThat(witness.panics).isEmpty();
        }
    }

    @Test
    void aMultiPoolsSubmittedTaskThatThrowsCountsAsFailed() throws Exception {
        MultiPool pool = MultiPool.create(2, 1, MultiPool.LoadBalancing.ROUND_ROBIN,
                PoolOptions.builder().panicHandler(e -> { }).build());
        try {
            for (int i = 1; i <= 200; i++) {
                assertThatThrownBy(pool.submit(FAIL)::get).isInstanceOf(ExecutionException.class);
                assertThat(pool.stats().failed()).isEqualTo(i);
                assertThat(pool.submit(() -> "ok").get()).isEqualTo("ok");
                assertThat(pool.stats().completed()).isEqualTo(i);
            }
        } finally {
            pool.close();
        }
    }

    @Test
    void aTaskCancelledBeforeItStartedIsNotCountedNorReported() throws Exception {
        Witness witness = new Witness();
        WorkerPool pool = WorkerPool.create(1, witness.options(PoolOptions.builder().queueCapacity(4)));
        Blocker blocker = Blocker.occupy(pool, 1);
        AtomicInteger ran = new AtomicInteger();
        Future<?> cancelled = pool.submit(ran::incrementAndGet);
        assertThat(cancelled.cancel(true)).isTrue();
        blocker.open();
        assertThat(pool.submit(() -> "after").get()).isEqualTo("after");
        pool.close();
        assertThat(ran).hasValue(0);
        PoolStats s = pool.stats();
        assertThat(s.completed()).isEqualTo(2); // the blocker and "after"
        assertThat(s.failed()).isZero();
        assertThat(s.busy()).isZero();
        assertThat(witness.finished).hasSize(2);
    }

    @Test
    void aTaskInterruptedByCancelCountsAsItEndsAndTheNextTaskIsNotInterrupted() throws Exception {
        for (int round = 0; round < 20; round++) {
            Witness witness = new Witness();
            WorkerPool pool = WorkerPool.create(1, witness.options(PoolOptions.builder()));
            CountDownLatch started = new CountDownLatch(1);
            Future<String> running = pool.submit(() -> {
                started.countDown();
                new CountDownLatch(1).await(); // until interrupted
                return "never";
            });
            Latches.await(started);
            assertThat(running.cancel(true)).isTrue();
            assertThatThrownBy(running::get).isInstanceOf(CancellationException.class);
            assertThat(pool.submit(() -> Thread.currentThread().isInterrupted()).get()).isFalse();
            pool.close();
            assertThat(pool.stats().failed()).isEqualTo(1); // it threw InterruptedException
            assertThat(pool.stats().completed()).isEqualTo(1);
            assertThat(witness.finished.get(0)).isInstanceOf(InterruptedException.class);
            assertThat(witness.panics).isEmpty();
        }
    }

    @Test
    void shutdownNowHandsBackTheQueuedFuturesThemselvesAlsoWhenDecorated() throws Exception {
        WorkerPool pool = WorkerPool.create(1, Shape.DECORATED.options.build());
        Blocker blocker = Blocker.occupy(pool, 1);
        List<Future<String>> queued = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            queued.add(pool.submit(() -> "late"));
        }
        List<Runnable> handedBack = pool.shutdownNow();
        assertThat(handedBack).containsExactlyElementsOf(queued.stream().map(Runnable.class::cast).toList());
        blocker.open();
        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        handedBack.forEach(Runnable::run); // run elsewhere, they complete as plain futures
        for (Future<String> f : queued) {
            assertThat(f.get()).isEqualTo("late");
        }
    }

    @Test
    void executeOfAThrowingRunnableStillGoesToThePanicHandler() {
        Witness witness = new Witness();
        WorkerPool pool = WorkerPool.create(1, witness.options(PoolOptions.builder()));
        pool.execute(() -> {
            throw new IllegalStateException("expected by the test");
        });
        pool.close();
        assertThat(witness.panics).singleElement().isInstanceOf(IllegalStateException.class);
        assertThat(pool.stats().failed()).isEqualTo(1);
    }

    @Test
    void aSchedulersJobIsCountedWhenItsFutureCompletes() throws Exception {
        List<Throwable> panics = new CopyOnWriteArrayList<>();
        Witness witness = new Witness();
        DelayScheduler scheduler = DelayScheduler.create(2, PoolOptions.builder().panicHandler(panics::add)
                .listener(witness).build());
        try {
            for (int i = 1; i <= 500; i++) {
                assertThat(scheduler.submit(() -> "ok").get()).isEqualTo("ok");
                assertThat(scheduler.stats().completed()).as("job %d", i).isEqualTo(i);
                assertThatThrownBy(scheduler.submit(FAIL)::get).isInstanceOf(ExecutionException.class);
                assertThat(scheduler.stats().failed()).as("job %d", i).isEqualTo(i);
                assertThat(witness.finished).as("job %d told to the listener", i).hasSize(2 * i);
            }
        } finally {
            scheduler.shutdown();
        }
        assertThat(scheduler.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        assertThat(panics).hasSize(500); // a scheduler's failing job also reaches its panic handler (after its future)
    }

    /** A pool of the other kind does not mistake a future passed as its argument for a task of its own. */
    @Test
    void aFuncPoolPassesAFutureArgumentToItsFunction() throws Exception {
        try (ExecutorService source = WorkerPool.create(1)) {
            Future<String> future = source.submit(() -> "x");
            future.get();
            List<Object> seen = new CopyOnWriteArrayList<>();
            FuncPool<Future<String>> pool = FuncPool.create(1, seen::add);
            pool.invoke(future);
            pool.close();
            assertThat(seen).containsExactly(future);
            assertThat(pool.stats().completed()).isEqualTo(1);
        }
    }

    /**
     * A fixed-rate job that has fallen behind is due again at once, so its next run may start on another worker while
     * the one that ran it is still finishing its bookkeeping: each run is counted once all the same.
     */
    @Test
    void overlappingRunsOfAFixedRateJobAreEachCountedOnce() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        Witness witness = new Witness();
        DelayScheduler scheduler = DelayScheduler.create(4, PoolOptions.builder().listener(witness).build());
        for (int i = 0; i < 8; i++) {
            scheduler.scheduleAtFixedRate(runs::incrementAndGet, 0, 1, TimeUnit.NANOSECONDS);
        }
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).until(() -> runs.get() >= 50_000);
        scheduler.shutdown();
        assertThat(scheduler.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        PoolStats s = scheduler.stats();
        assertThat(s.completed()).as("runs counted").isEqualTo(runs.get());
        assertThat(s.failed()).isZero();
        assertThat(witness.finished).as("runs told").hasSize(runs.get());
    }
}
