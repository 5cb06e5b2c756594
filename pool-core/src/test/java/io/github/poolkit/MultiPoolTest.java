package io.github.poolkit;

import io.github.poolkit.MultiPool.LoadBalancing;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Behaviour of {@link MultiPool} as its javadoc states it. Tasks that must stay busy wait on {@link #gate}; the threads
 * that started tasks are read from {@link #started}; callers that may block run on {@link #callers}.
 */
@Timeout(20)
class MultiPoolTest {

    private static final Duration PATIENCE = Duration.ofSeconds(5);

    private final ExecutorService callers = Executors.newCachedThreadPool();
    private final List<MultiPool> pools = new ArrayList<>();
    /** Names of the worker threads that started a task, in start order. */
    private final LinkedBlockingQueue<String> started = new LinkedBlockingQueue<>();
    /** Opened at the end of every test, so no task outlives it. */
    private final CountDownLatch gate = new CountDownLatch(1);

    @AfterEach
    void tearDown() {
        gate.countDown();
        callers.shutdownNow();
        pools.forEach(MultiPool::close);
    }

    private MultiPool pool(int size, int capacityPerPool, LoadBalancing strategy, PoolOptions options) {
        MultiPool pool = MultiPool.create(size, capacityPerPool, strategy, options);
        pools.add(pool);
        return pool;
    }

    private MultiPool pool(int size, int capacityPerPool, LoadBalancing strategy) {
        return pool(size, capacityPerPool, strategy, PoolOptions.builder().name("mp").build());
    }

    /** A task that records its thread and stays busy until {@link #gate} opens. */
    private Runnable busy() {
        return () -> {
            started.add(Thread.currentThread().getName());
            awaitLatch(gate);
        };
    }

    /** A task that records its thread and ends. */
    private Runnable quick() {
        return () -> started.add(Thread.currentThread().getName());
    }

    /** @return the name of the next worker thread that started a task, waiting for it */
    private String nextStarted() throws InterruptedException {
        String name = started.poll(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        assertThat(name).as("a task should have started").isNotNull();
        return name;
    }

    /** Waits for the latch; an interrupt (from {@code shutdownNow}) ends the wait quietly, status kept. */
    private static void awaitLatch(CountDownLatch latch) {
        try {
            if (!latch.await(PATIENCE.toSeconds(), TimeUnit.SECONDS)) {
                throw new AssertionError("latch not released in time");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void awaitUntil(org.awaitility.core.ThrowingRunnable assertion) {
        await().atMost(PATIENCE).untilAsserted(assertion);
    }

    private static Throwable failureOf(Future<?> f) throws Exception {
        try {
            f.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return e.getCause();
        }
        throw new AssertionError("expected the call to fail");
    }

    // ---------------------------------------------------------------- creation

    @Test
    void nonPositivePoolCountIsRejected() {
        assertThatThrownBy(() -> MultiPool.create(0, 4, LoadBalancing.ROUND_ROBIN))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("pools").hasMessageContaining("0");
        assertThatThrownBy(() -> MultiPool.create(-2, 4, LoadBalancing.LEAST_TASKS, PoolOptions.defaults()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-2");
    }

    @Test
    void invalidOptionsAreRejectedAsForOnePool() {
        assertThatThrownBy(() -> MultiPool.create(2, 0, LoadBalancing.ROUND_ROBIN,
                PoolOptions.builder().preAlloc(true).build()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("preAlloc");
    }

    @Test
    void workerThreadsAreNamedAfterTheMultiPoolAndTheIndex() throws Exception {
        MultiPool pool = pool(2, 2, LoadBalancing.ROUND_ROBIN);
        pool.execute(busy());
        pool.execute(busy());
        pool.execute(busy());
        assertThat(List.of(nextStarted(), nextStarted(), nextStarted()))
                .containsExactlyInAnyOrder("mp-0-1", "mp-1-1", "mp-0-2");
    }

    @Test
    void defaultNameIsPoolDashIndexDashN() throws Exception {
        MultiPool pool = pool(1, 1, LoadBalancing.LEAST_TASKS, PoolOptions.defaults());
        pool.execute(quick());
        assertThat(nextStarted()).isEqualTo("pool-0-1");
    }

    // ---------------------------------------------------------------- load balancing

    @Test
    void roundRobinSpreadsTasksEvenly() throws Exception {
        MultiPool pool = pool(3, 4, LoadBalancing.ROUND_ROBIN);
        for (int round = 1; round <= 3; round++) {
            for (int i = 0; i < 3; i++) {
                pool.execute(busy());
            }
            for (int i = 0; i < 3; i++) {
                assertThat(pool.running(i)).as("pool %d after round %d", i, round).isEqualTo(round);
            }
        }
        assertThat(pool.running()).isEqualTo(9);
        assertThat(pool.free()).isEqualTo(3);
    }

    @Test
    void leastTasksPicksThePoolWithTheFewestRunningWorkers() throws Exception {
        MultiPool pool = pool(2, 3, LoadBalancing.LEAST_TASKS,
                PoolOptions.builder().name("mp").expiry(Duration.ofMillis(50)).build());
        CountDownLatch releasePoolZero = new CountDownLatch(1);
        Runnable busyUntilReleased = () -> {
            started.add(Thread.currentThread().getName());
            awaitLatch(releasePoolZero);
        };
        pool.execute(busyUntilReleased); // tie: the first pool
        pool.execute(busy());             // pool 1 has fewer
        pool.execute(busyUntilReleased); // tie again: pool 0
        pool.execute(busy());             // pool 1
        assertThat(List.of(nextStarted(), nextStarted(), nextStarted(), nextStarted()))
                .containsExactlyInAnyOrder("mp-0-1", "mp-1-1", "mp-0-2", "mp-1-2");
        releasePoolZero.countDown();
        awaitUntil(() -> assertThat(pool.running(0)).isZero()); // pool 0's idle workers expire
        assertThat(pool.running(1)).isEqualTo(2);
        pool.execute(busy());
        assertThat(pool.running(0)).isEqualTo(1);
        pool.execute(busy()); // round robin would have picked pool 1 here
        assertThat(pool.running(0)).isEqualTo(2);
        assertThat(pool.running(1)).isEqualTo(2);
        pool.execute(busy()); // tie: the first pool
        assertThat(pool.running(0)).isEqualTo(3);
        assertThat(pool.running(1)).isEqualTo(2);
    }

    @Test
    void roundRobinRetriesAnOverloadOnceOnTheLeastLoadedPool() throws Exception {
        MultiPool pool = pool(2, 1, LoadBalancing.ROUND_ROBIN,
                PoolOptions.builder().name("mp").nonblocking(true).expiry(Duration.ofMillis(50)).build());
        pool.execute(busy());  // pool 0, stays busy
        pool.execute(quick()); // pool 1, ends
        assertThat(List.of(nextStarted(), nextStarted())).containsExactlyInAnyOrder("mp-0-1", "mp-1-1");
        awaitUntil(() -> assertThat(pool.running(1)).isZero()); // pool 1's idle worker expires
        pool.execute(quick()); // round robin picks the full pool 0; the retry goes to pool 1
        assertThat(nextStarted()).startsWith("mp-1-");
        assertThat(pool.running(0)).isEqualTo(1);
    }

    @Test
    void roundRobinOverloadIsRetriedOnAPoolWhoseWorkerIsIdle() throws Exception {
        List<Thread> workerThreads = new CopyOnWriteArrayList<>();
        MultiPool pool = pool(2, 1, LoadBalancing.ROUND_ROBIN, PoolOptions.builder().name("mp").nonblocking(true)
                .disablePurge(true).threadFactory(r -> {
                    Thread t = new Thread(r);
                    workerThreads.add(t);
                    return t;
                }).build());
        pool.execute(busy());  // pool 0, stays busy
        pool.execute(quick()); // pool 1, ends and its worker goes idle
        assertThat(List.of(nextStarted(), nextStarted())).hasSize(2);
        // the busy worker waits with a timeout (TIMED_WAITING); an idle worker parks (WAITING)
        awaitUntil(() -> assertThat(workerThreads.get(1).getState()).isEqualTo(Thread.State.WAITING));
        assertThat(pool.running(0)).isEqualTo(1);
        assertThat(pool.running(1)).isEqualTo(1);
        pool.execute(quick()); // round robin picks the full pool 0: must spill over to pool 1's idle worker
        assertThat(nextStarted()).isNotNull();
    }

    @Test
    void overloadIsThrownWhenEveryPoolIsFull() throws Exception {
        for (LoadBalancing strategy : LoadBalancing.values()) {
            MultiPool pool = pool(2, 1, strategy, PoolOptions.builder().name("mp").nonblocking(true).build());
            pool.execute(busy());
            pool.execute(busy());
            nextStarted();
            nextStarted();
            AtomicInteger ran = new AtomicInteger();
            for (int i = 0; i < 4; i++) {
                assertThatThrownBy(() -> pool.execute(ran::incrementAndGet)).as(strategy.name())
                        .isInstanceOf(PoolOverloadException.class);
            }
            assertThat(pool.running()).isEqualTo(2);
            pool.shutdownNow();
            assertThat(pool.awaitTermination(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
            assertThat(ran).hasValue(0);
        }
    }

    @Test
    void leastTasksDoesNotRetryAnOverload() throws Exception {
        MultiPool pool = pool(2, 2, LoadBalancing.LEAST_TASKS,
                PoolOptions.builder().name("mp").nonblocking(true).build());
        pool.execute(busy()); // pool 0
        pool.execute(busy()); // pool 1
        pool.execute(busy()); // pool 0, now full
        assertThat(pool.running(1)).isEqualTo(1);
        pool.execute(busy()); // pool 1, now full
        assertThatThrownBy(() -> pool.execute(quick())).isInstanceOf(PoolOverloadException.class);
    }

    @Test
    void tasksFromConcurrentCallersRunOnceEachWithinTheSummedCapacity() throws Exception {
        MultiPool pool = pool(3, 2, LoadBalancing.ROUND_ROBIN);
        int callerCount = 6;
        int perCaller = 200;
        AtomicInteger active = new AtomicInteger();
        AtomicInteger maxActive = new AtomicInteger();
        Map<Integer, AtomicInteger> calls = new ConcurrentHashMap<>();
        CountDownLatch done = new CountDownLatch(callerCount * perCaller);
        CyclicBarrier go = new CyclicBarrier(callerCount);
        List<Future<?>> futures = new ArrayList<>();
        for (int c = 0; c < callerCount; c++) {
            int base = c * perCaller;
            futures.add(callers.submit(() -> {
                go.await();
                for (int i = 0; i < perCaller; i++) {
                    int id = base + i;
                    pool.execute(() -> {
                        maxActive.accumulateAndGet(active.incrementAndGet(), Math::max);
                        calls.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet();
                        LockSupport.parkNanos(20_000); // simulated work
                        active.decrementAndGet();
                        done.countDown();
                    });
                    for (int p = 0; p < 3; p++) {
                        assertThat(pool.running(p)).isLessThanOrEqualTo(2);
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : futures) {
            f.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        }
        awaitLatch(done);
        assertThat(maxActive.get()).isBetween(1, 6);
        assertThat(calls).hasSize(callerCount * perCaller);
        assertThat(calls.values()).allSatisfy(n -> assertThat(n).hasValue(1));
    }

    // ---------------------------------------------------------------- metrics

    @Test
    void metricsAreSummedAndAvailablePerPool() throws Exception {
        MultiPool pool = pool(3, 2, LoadBalancing.ROUND_ROBIN);
        assertThat(pool.size()).isEqualTo(3);
        assertThat(pool.capacity()).isEqualTo(6);
        assertThat(pool.running()).isZero();
        assertThat(pool.free()).isEqualTo(6);
        assertThat(pool.waiting()).isZero();
        for (int i = 0; i < 4; i++) {
            pool.execute(busy());
        }
        assertThat(pool.running()).isEqualTo(4);
        assertThat(pool.free()).isEqualTo(2);
        assertThat(List.of(pool.running(0), pool.running(1), pool.running(2))).containsExactly(2, 1, 1);
        assertThat(List.of(pool.free(0), pool.free(1), pool.free(2))).containsExactly(0, 1, 1);
        assertThat(List.of(pool.waiting(0), pool.waiting(1), pool.waiting(2))).containsExactly(0, 0, 0);
    }

    @Test
    void waitingCountsBlockedCallersAndQueuedTasksPerPool() throws Exception {
        MultiPool pool = pool(2, 1, LoadBalancing.ROUND_ROBIN,
                PoolOptions.builder().name("mp").queueCapacity(1).build());
        pool.execute(busy()); // pool 0 runs
        pool.execute(busy()); // pool 1 runs
        pool.execute(busy()); // pool 0 queues
        assertThat(pool.waiting(0)).isEqualTo(1);
        assertThat(pool.waiting(1)).isZero();
        pool.execute(busy()); // pool 1 queues
        Future<?> blocked = callers.submit(() -> pool.execute(busy())); // pool 0: queue full, blocks
        awaitUntil(() -> assertThat(pool.waiting(0)).isEqualTo(2));
        assertThat(pool.waiting(1)).isEqualTo(1);
        assertThat(pool.waiting()).isEqualTo(3);
        assertThat(blocked).isNotDone();
    }

    @Test
    void unlimitedPoolsReportMinusOneCapacityAndFree() throws Exception {
        MultiPool pool = pool(2, 0, LoadBalancing.LEAST_TASKS);
        assertThat(pool.capacity()).isEqualTo(-1);
        assertThat(pool.free()).isEqualTo(-1);
        assertThat(pool.free(0)).isEqualTo(-1);
        assertThat(pool.free(1)).isEqualTo(-1);
        for (int i = 0; i < 10; i++) {
            pool.execute(busy());
        }
        assertThat(pool.running()).isEqualTo(10);
        assertThat(pool.running(0)).isEqualTo(5);
        assertThat(pool.free()).isEqualTo(-1);
        pool.tune(3);
        assertThat(pool.capacity()).isEqualTo(-1);
    }

    @Test
    void perPoolGettersRejectBadIndexes() {
        MultiPool pool = pool(2, 1, LoadBalancing.ROUND_ROBIN);
        for (int bad : new int[] {-1, 2, Integer.MAX_VALUE}) {
            assertThatThrownBy(() -> pool.running(bad)).isInstanceOf(IndexOutOfBoundsException.class);
            assertThatThrownBy(() -> pool.free(bad)).isInstanceOf(IndexOutOfBoundsException.class);
            assertThatThrownBy(() -> pool.waiting(bad)).isInstanceOf(IndexOutOfBoundsException.class);
        }
    }

    // ---------------------------------------------------------------- tuning

    @Test
    void tuneChangesEveryPoolsCapacityAndWakesBlockedCallers() throws Exception {
        MultiPool pool = pool(2, 1, LoadBalancing.ROUND_ROBIN);
        pool.execute(busy()); // pool 0
        pool.execute(busy()); // pool 1
        Future<?> blocked = callers.submit(() -> pool.execute(busy())); // pool 0, full: blocks
        awaitUntil(() -> assertThat(pool.waiting(0)).isEqualTo(1));
        pool.tune(3);
        assertThat(pool.capacity()).isEqualTo(6);
        blocked.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        assertThat(pool.running(0)).isEqualTo(2);
        assertThat(pool.free(0)).isEqualTo(1);
        assertThat(pool.free(1)).isEqualTo(2);
        pool.tune(0); // ignored
        assertThat(pool.capacity()).isEqualTo(6);
        pool.tune(1);
        assertThat(pool.capacity()).isEqualTo(2);
        assertThat(pool.free()).isZero();
    }

    // ---------------------------------------------------------------- life cycle

    @Test
    void releaseClosesEveryPoolWakesBlockedCallersAndLetsRunningTasksFinish() throws Exception {
        MultiPool pool = pool(2, 1, LoadBalancing.ROUND_ROBIN);
        pool.execute(busy());
        pool.execute(busy());
        Future<?> blocked = callers.submit(() -> pool.execute(busy()));
        awaitUntil(() -> assertThat(pool.waiting()).isEqualTo(1));
        pool.release();
        assertThat(pool.isClosed()).isTrue();
        assertThat(pool.isShutdown()).isTrue();
        assertThat(pool.isTerminated()).isFalse();
        assertThat(failureOf(blocked)).isInstanceOf(PoolClosedException.class);
        assertThatThrownBy(() -> pool.execute(quick())).isInstanceOf(PoolClosedException.class);
        pool.release(); // no-op
        assertThat(pool.awaitTermination(10, TimeUnit.MILLISECONDS)).isFalse();
        gate.countDown();
        assertThat(pool.awaitTermination(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(pool.isTerminated()).isTrue();
        assertThat(pool.running()).isZero();
        nextStarted();
        nextStarted();
        assertThat(started).isEmpty();
    }

    @Test
    void releaseTimeoutWaitsForEveryPool() throws Exception {
        MultiPool pool = pool(3, 1, LoadBalancing.ROUND_ROBIN);
        for (int i = 0; i < 3; i++) {
            pool.execute(busy());
        }
        Future<?> releasing = callers.submit(() -> {
            pool.releaseTimeout(PATIENCE);
            return null;
        });
        awaitUntil(() -> assertThat(pool.isClosed()).isTrue());
        assertThat(releasing).isNotDone();
        gate.countDown();
        releasing.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        assertThat(pool.isTerminated()).isTrue();
    }

    @Test
    void releaseTimeoutThrowsTimeoutExceptionWhenTasksOutlastIt() throws Exception {
        MultiPool pool = pool(2, 1, LoadBalancing.ROUND_ROBIN);
        pool.execute(busy());
        nextStarted();
        assertThatThrownBy(() -> pool.releaseTimeout(Duration.ofMillis(50))).isInstanceOf(TimeoutException.class);
        assertThat(pool.isClosed()).isTrue();
        assertThat(pool.running()).isEqualTo(1);
    }

    @Test
    void releaseTimeoutAcceptsTimeoutsTooLongForNanoseconds() throws Exception {
        // Duration.toNanos() overflows for both: the wait must saturate, not throw ArithmeticException.
        MultiPool forever = pool(2, 1, LoadBalancing.ROUND_ROBIN);
        forever.execute(busy());
        nextStarted();
        Future<?> releasing = callers.submit(() -> {
            forever.releaseTimeout(Duration.ofSeconds(Long.MAX_VALUE));
            return null;
        });
        awaitUntil(() -> assertThat(forever.isClosed()).isTrue());
        assertThat(releasing).isNotDone();
        gate.countDown();
        releasing.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        assertThat(forever.isTerminated()).isTrue();

        MultiPool never = pool(2, 1, LoadBalancing.ROUND_ROBIN);
        never.releaseTimeout(Duration.ofSeconds(Long.MIN_VALUE)); // idle: terminated at once, no wait needed
        assertThat(never.isTerminated()).isTrue();
    }

    @Test
    void releaseTimeoutOnAClosedMultiPoolThrowsPoolClosedException() throws Exception {
        MultiPool released = pool(2, 1, LoadBalancing.ROUND_ROBIN);
        released.release();
        assertThatThrownBy(() -> released.releaseTimeout(PATIENCE)).isInstanceOf(PoolClosedException.class);
        MultiPool timedOut = pool(2, 1, LoadBalancing.ROUND_ROBIN);
        timedOut.releaseTimeout(PATIENCE);
        assertThatThrownBy(() -> timedOut.releaseTimeout(PATIENCE)).isInstanceOf(PoolClosedException.class);
        MultiPool stopped = pool(2, 1, LoadBalancing.ROUND_ROBIN);
        stopped.shutdownNow();
        assertThatThrownBy(() -> stopped.releaseTimeout(PATIENCE)).isInstanceOf(PoolClosedException.class);
    }

    @Test
    void rebootReopensEveryPool() throws Exception {
        MultiPool pool = pool(2, 1, LoadBalancing.ROUND_ROBIN);
        pool.releaseTimeout(PATIENCE);
        assertThat(pool.isTerminated()).isTrue();
        pool.reboot();
        assertThat(pool.isClosed()).isFalse();
        assertThat(pool.isShutdown()).isFalse();
        assertThat(pool.isTerminated()).isFalse();
        pool.execute(quick());
        pool.execute(quick());
        assertThat(List.of(nextStarted(), nextStarted())).containsExactlyInAnyOrder("mp-0-1", "mp-1-1");
        pool.reboot(); // no-op when open
        assertThat(pool.isClosed()).isFalse();
        pool.releaseTimeout(PATIENCE); // closable again
        assertThat(pool.isTerminated()).isTrue();
    }

    @Test
    void shutdownNowInterruptsRunningTasksAndReturnsQueuedOnes() throws Exception {
        MultiPool pool = pool(2, 1, LoadBalancing.ROUND_ROBIN,
                PoolOptions.builder().name("mp").queueCapacity(2).build());
        CountDownLatch interrupted = new CountDownLatch(2);
        Runnable untilInterrupted = () -> {
            started.add(Thread.currentThread().getName());
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                interrupted.countDown();
            }
        };
        pool.execute(untilInterrupted);
        pool.execute(untilInterrupted);
        nextStarted();
        nextStarted();
        Runnable q0 = quick();
        Runnable q1 = quick();
        Runnable q2 = quick();
        pool.execute(q0); // pool 0's queue
        pool.execute(q1); // pool 1's queue
        pool.execute(q2); // pool 0's queue
        assertThat(pool.waiting()).isEqualTo(3);
        List<Runnable> notRun = pool.shutdownNow();
        assertThat(notRun).containsExactly(q0, q2, q1); // pool by pool, each in queue order
        awaitLatch(interrupted);
        assertThat(pool.awaitTermination(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(pool.isShutdown()).isTrue();
        assertThat(pool.waiting()).isZero();
        assertThat(started).isEmpty();
    }

    @Test
    void closeWaitsForRunningAndQueuedTasks() throws Exception {
        MultiPool pool = MultiPool.create(2, 1, LoadBalancing.ROUND_ROBIN,
                PoolOptions.builder().queueCapacity(-1).build());
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger ran = new AtomicInteger();
        pool.execute(() -> {
            awaitLatch(release);
            ran.incrementAndGet();
        });
        for (int i = 0; i < 5; i++) {
            pool.execute(ran::incrementAndGet);
        }
        Future<?> closing = callers.submit(pool::close);
        awaitUntil(() -> assertThat(pool.isClosed()).isTrue());
        assertThat(closing).isNotDone();
        release.countDown();
        closing.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        assertThat(ran).hasValue(6);
        assertThat(pool.isTerminated()).isTrue();
    }

    @Test
    void rebootWhileCloseWaitsIsRefusedSoEveryPoolEndsClosedWithTheMultiPool() throws Exception {
        MultiPool pool = pool(2, 1, LoadBalancing.ROUND_ROBIN);
        CountDownLatch release = new CountDownLatch(1);
        pool.execute(() -> awaitLatch(release)); // the first pool's only worker: close() waits for it
        Future<?> closing = callers.submit(pool::close);
        awaitUntil(() -> assertThat(pool.isClosed()).isTrue());
        assertThatThrownBy(pool::reboot).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("is being closed").hasMessageContaining("reboot it after that returns");
        assertThat(pool.isClosed()).isTrue();
        release.countDown();
        closing.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        assertThat(pool.isTerminated()).as("every pool closed and terminated").isTrue();
        pool.reboot(); // allowed once close() has returned
        CountDownLatch ranOnEach = new CountDownLatch(2);
        pool.execute(ranOnEach::countDown);
        pool.execute(ranOnEach::countDown); // round robin: one task on each pool, both open again
        assertThat(ranOnEach.await(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void rebootWhileReleaseTimeoutWaitsIsRefusedSoItsWaitCanEnd() throws Exception {
        MultiPool pool = pool(2, 1, LoadBalancing.ROUND_ROBIN);
        CountDownLatch release = new CountDownLatch(1);
        pool.execute(() -> awaitLatch(release));
        Future<?> releasing = callers.submit(() -> {
            pool.releaseTimeout(PATIENCE);
            return null;
        });
        awaitUntil(() -> assertThat(pool.isClosed()).isTrue());
        assertThatThrownBy(pool::reboot).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("releaseTimeout()");
        release.countDown();
        releasing.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        assertThat(pool.isTerminated()).isTrue();
        pool.reboot();
        assertThat(pool.isClosed()).isFalse();
    }

    @Test
    void closeInterruptedStopsEveryPoolAndKeepsTheInterrupt() throws Exception {
        MultiPool pool = MultiPool.create(3, 1, LoadBalancing.ROUND_ROBIN, PoolOptions.builder().queueCapacity(-1).build());
        Blocker blocker = Blocker.occupy(pool, 3); // round robin: one blocking task on each pool
        AtomicInteger queuedRan = new AtomicInteger();
        pool.execute(queuedRan::incrementAndGet); // queued behind the first pool's task: drained, never run
        Future<Boolean> closing = callers.submit(() -> {
            Thread.currentThread().interrupt(); // interrupted while (before) waiting
            pool.close();
            return Thread.currentThread().isInterrupted();
        });
        assertThat(closing.get(PATIENCE.toSeconds(), TimeUnit.SECONDS)).as("interrupt status kept").isTrue();
        assertThat(blocker.awaitInterrupted()).as("every pool's task interrupted").isTrue();
        assertThat(pool.isTerminated()).isTrue();
        assertThat(queuedRan).hasValue(0);
    }

    /**
     * An interrupted close stops every pool at once, as {@code shutdownNow()}, not pool by pool as each earlier one
     * terminates: here the first pool's task ignores interrupts, yet the second pool's task is interrupted, and no
     * queued task runs, before it ends.
     */
    @Test
    void anInterruptedCloseStopsEveryPoolAtOnceNotOneAfterAnother() throws Exception {
        MultiPool pool = MultiPool.create(2, 1, LoadBalancing.ROUND_ROBIN,
                PoolOptions.builder().queueCapacity(-1).build());
        CountDownLatch started = new CountDownLatch(2);
        CountDownLatch stubbornMayEnd = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        try {
            pool.execute(() -> { // the first pool: ignores interrupts until the test lets it end
                started.countDown();
                Latches.awaitUninterruptibly(stubbornMayEnd);
            });
            pool.execute(() -> { // the second pool: ends when interrupted
                started.countDown();
                try {
                    new CountDownLatch(1).await();
                } catch (InterruptedException e) {
                    interrupted.countDown();
                }
            });
            Latches.await(started);
            AtomicInteger queuedRan = new AtomicInteger();
            for (int i = 0; i < 4; i++) {
                pool.execute(queuedRan::incrementAndGet); // queued on both pools
            }
            Future<Boolean> closing = callers.submit(() -> {
                Thread.currentThread().interrupt();
                pool.close();
                return Thread.currentThread().isInterrupted();
            });
            assertThat(interrupted.await(PATIENCE.toSeconds(), TimeUnit.SECONDS))
                    .as("the second pool's task interrupted while the first pool's still runs").isTrue();
            stubbornMayEnd.countDown();
            assertThat(closing.get(PATIENCE.toSeconds(), TimeUnit.SECONDS)).as("interrupt status kept").isTrue();
            assertThat(pool.isTerminated()).isTrue();
            assertThat(queuedRan).hasValue(0);
        } finally {
            stubbornMayEnd.countDown();
        }
    }

    @Test
    void executorServiceMethodsWork() throws Exception {
        MultiPool pool = pool(2, 2, LoadBalancing.LEAST_TASKS);
        assertThat(pool.submit(() -> 6 * 7).get(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isEqualTo(42);
        List<Callable<String>> tasks = List.of(() -> "a", () -> "b", () -> "c");
        List<String> results = new ArrayList<>();
        for (Future<String> f : pool.invokeAll(tasks)) {
            results.add(f.get());
        }
        assertThat(results).containsExactly("a", "b", "c");
        assertThat(pool.invokeAny(List.<Callable<String>>of(() -> "x"))).isEqualTo("x");
        Future<?> failing = pool.submit((Runnable) () -> {
            throw new IllegalStateException("boom");
        });
        assertThat(failureOf(failing)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> pool.execute(null)).isInstanceOf(NullPointerException.class);
    }

    /** Full pools tie on {@code running()}: with a queue, the task goes to the shortest queue, not to the first pool. */
    @Test
    void leastTasksQueuesOnTheShortestQueueWhenEveryPoolIsFull() throws Exception {
        MultiPool pool = MultiPool.create(2, 1, LoadBalancing.LEAST_TASKS, PoolOptions.builder().queueCapacity(10)
                .build());
        Blocker blocker = Blocker.occupy(pool, 2);
        try {
            assertThat(pool.running(0)).isEqualTo(1);
            assertThat(pool.running(1)).isEqualTo(1);
            for (int i = 0; i < 4; i++) {
                pool.execute(() -> { });
            }
            assertThat(pool.waiting(0)).isEqualTo(2);
            assertThat(pool.waiting(1)).isEqualTo(2);
        } finally {
            blocker.open();
            pool.close();
        }
    }

    /**
     * {@code free()} is {@code max(0, capacity() - running())} over all the pools, as {@code stats().free()}: after a
     * shrink, a pool still running more than its new capacity counts against another's room.
     */
    @Test
    void freeIsTheRoomLeftOverAllThePoolsAfterAShrink() throws Exception {
        MultiPool pool = MultiPool.create(2, 2, LoadBalancing.ROUND_ROBIN, PoolOptions.builder()
                .expiry(Duration.ofMillis(100)).build());
        CountDownLatch release = new CountDownLatch(1);
        try {
            for (int i = 0; i < 4; i++) { // round robin: the blocked ones on pool 0, the quick ones on pool 1
                pool.execute(i % 2 == 0 ? () -> Latches.await(release) : () -> { });
            }
            await().until(() -> pool.running(0) == 2 && pool.running(1) == 0); // pool 1's idle workers expired
            pool.tune(1);
            assertThat(pool.free()).isZero().isEqualTo(pool.stats().free());
        } finally {
            release.countDown();
            pool.close();
        }
    }

    /** A closed multi-pool's refusal is heard by its listeners, as every refusal of a pool is. */
    @Test
    void aRefusalOfTheClosedMultiPoolIsHeardByItsListeners() {
        AtomicInteger heardByOptions = new AtomicInteger();
        AtomicInteger heardByAdded = new AtomicInteger();
        PoolOptions options = PoolOptions.builder().listener(new PoolListener() {
            @Override
            public void taskRejected(RuntimeException reason) {
                heardByOptions.incrementAndGet();
            }
        }).build();
        try (MultiPool pool = MultiPool.create(2, 2, LoadBalancing.ROUND_ROBIN, options)) {
            pool.addListener(new PoolListener() {
                @Override
                public void taskRejected(RuntimeException reason) {
                    heardByAdded.incrementAndGet();
                }
            });
            pool.release();
            assertThatThrownBy(() -> pool.execute(() -> { })).isInstanceOf(PoolClosedException.class);
            assertThat(heardByOptions).hasValue(1);
            assertThat(heardByAdded).hasValue(1);
            assertThat(pool.stats().rejected()).isEqualTo(1);
        }
    }
}
