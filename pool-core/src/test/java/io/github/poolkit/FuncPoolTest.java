package io.github.poolkit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Behaviour of {@link FuncPool} as its javadoc states it. Blocking functions wait on {@link #gate}; what has started is
 * read from {@link #started}; callers that may block run on {@link #callers}. No test sleeps to synchronise.
 */
@Timeout(20)
class FuncPoolTest {

    private static final Duration PATIENCE = Duration.ofSeconds(5);

    private final ExecutorService callers = Executors.newCachedThreadPool();
    private final List<FuncPool<?>> pools = new ArrayList<>();
    /** Arguments whose invocation has begun, in order; {@code -1} stands for {@code null}. */
    private final LinkedBlockingQueue<Integer> started = new LinkedBlockingQueue<>();
    /** Opened at the end of every test, so no invocation outlives it. */
    private final CountDownLatch gate = new CountDownLatch(1);

    @AfterEach
    void tearDown() {
        gate.countDown();
        callers.shutdownNow();
        pools.forEach(FuncPool::close);
    }

    private <T> FuncPool<T> pool(int capacity, Consumer<? super T> function, PoolOptions options) {
        FuncPool<T> pool = FuncPool.create(capacity, function, options);
        pools.add(pool);
        return pool;
    }

    /** A pool whose function records its argument and then waits for the {@link #gate}. */
    private FuncPool<Integer> gated(int capacity, PoolOptions options) {
        return pool(capacity, this::recordAndWait, options);
    }

    private FuncPool<Integer> gated(int capacity) {
        return gated(capacity, PoolOptions.defaults());
    }

    private void recordAndWait(Integer n) {
        started.add(n == null ? -1 : n);
        Latches.await(gate);
    }

    /** @return the next argument whose invocation started, waiting for it */
    private int nextStarted() throws InterruptedException {
        Integer n = started.poll(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        assertThat(n).as("an invocation should have started").isNotNull();
        return n;
    }

    private static void awaitUntil(org.awaitility.core.ThrowingRunnable assertion) {
        await().atMost(PATIENCE).untilAsserted(assertion);
    }

    private Future<?> invokeInBackground(FuncPool<Integer> pool, Integer argument) {
        return callers.submit(() -> pool.invoke(argument));
    }

    private static Throwable failureOf(Future<?> f) throws Exception {
        try {
            f.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return e.getCause();
        }
        throw new AssertionError("expected the call to fail");
    }

    // ---------------------------------------------------------------- running the function

    @Test
    void invokeRunsTheFunctionOnceWithEachArgumentIncludingNull() throws Exception {
        Map<Integer, AtomicInteger> calls = new ConcurrentHashMap<>();
        AtomicInteger nullCalls = new AtomicInteger();
        int n = 2_000;
        CountDownLatch done = new CountDownLatch(n + 1);
        FuncPool<Integer> pool = pool(4, arg -> {
            if (arg == null) {
                nullCalls.incrementAndGet();
            } else {
                calls.computeIfAbsent(arg, k -> new AtomicInteger()).incrementAndGet();
            }
            done.countDown();
        }, PoolOptions.defaults());
        pool.invoke(null);
        for (int i = 0; i < n; i++) {
            pool.invoke(i);
        }
        Latches.await(done);
        assertThat(nullCalls).hasValue(1);
        assertThat(calls).hasSize(n);
        assertThat(calls.values()).allSatisfy(c -> assertThat(c).hasValue(1));
    }

    @Test
    void nullArgumentReachesTheFunctionAsNull() throws Exception {
        AtomicReference<Object> seen = new AtomicReference<>("untouched");
        CountDownLatch done = new CountDownLatch(1);
        FuncPool<String> pool = pool(1, s -> {
            seen.set(s);
            done.countDown();
        }, PoolOptions.defaults());
        pool.invoke(null);
        Latches.await(done);
        assertThat(seen.get()).isNull();
    }

    @Test
    void capacityIsNeverExceededUnderConcurrentInvokers() throws Exception {
        int capacity = 3;
        int invokers = 6;
        int perInvoker = 200;
        AtomicInteger active = new AtomicInteger();
        AtomicInteger maxActive = new AtomicInteger();
        AtomicInteger maxRunning = new AtomicInteger();
        AtomicReference<FuncPool<Integer>> self = new AtomicReference<>();
        Map<Integer, AtomicInteger> calls = new ConcurrentHashMap<>();
        CountDownLatch done = new CountDownLatch(invokers * perInvoker);
        FuncPool<Integer> pool = pool(capacity, arg -> {
            maxActive.accumulateAndGet(active.incrementAndGet(), Math::max);
            maxRunning.accumulateAndGet(self.get().running(), Math::max);
            calls.computeIfAbsent(arg, k -> new AtomicInteger()).incrementAndGet();
            LockSupport.parkNanos(20_000); // simulated work
            active.decrementAndGet();
            done.countDown();
        }, PoolOptions.defaults());
        self.set(pool);
        CyclicBarrier go = new CyclicBarrier(invokers);
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < invokers; t++) {
            int base = t * perInvoker;
            futures.add(callers.submit(() -> {
                go.await();
                for (int i = 0; i < perInvoker; i++) {
                    pool.invoke(base + i);
                    assertThat(pool.running()).isLessThanOrEqualTo(capacity);
                }
                return null;
            }));
        }
        for (Future<?> f : futures) {
            f.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        }
        Latches.await(done);
        assertThat(maxActive.get()).isBetween(1, capacity);
        assertThat(maxRunning.get()).isBetween(1, capacity);
        assertThat(calls).hasSize(invokers * perInvoker);
        assertThat(calls.values()).allSatisfy(c -> assertThat(c).hasValue(1));
    }

    @Test
    void aThrowingFunctionGoesToThePanicHandlerAndThePoolKeepsWorking() throws Exception {
        List<Throwable> panics = new CopyOnWriteArrayList<>();
        CountDownLatch panicked = new CountDownLatch(5);
        FuncPool<Integer> pool = pool(1, n -> {
            if (n < 5) {
                throw new IllegalStateException("boom " + n);
            }
            started.add(n);
        }, PoolOptions.builder().panicHandler(e -> {
            panics.add(e);
            panicked.countDown();
        }).build());
        for (int i = 0; i < 5; i++) {
            pool.invoke(i);
        }
        Latches.await(panicked);
        assertThat(panics).hasSize(5).allSatisfy(e -> assertThat(e)
                .isInstanceOf(IllegalStateException.class).hasMessageStartingWith("boom "));
        pool.invoke(5);
        assertThat(nextStarted()).isEqualTo(5);
        awaitUntil(() -> assertThat(pool.running()).isEqualTo(1));
        assertThat(pool.free()).isZero();
    }

    @Test
    void aThrowingPanicHandlerDoesNotKillTheWorkerOrLeakARunningCount() throws Exception {
        FuncPool<Integer> pool = pool(1, n -> {
            if (n == 0) {
                throw new IllegalStateException("boom");
            }
            started.add(n);
        }, PoolOptions.builder().nonblocking(true).queueCapacity(-1).panicHandler(e -> {
            throw new IllegalArgumentException("handler broke too");
        }).build());
        pool.invoke(0);
        pool.invoke(1);
        assertThat(nextStarted()).isEqualTo(1);
        assertThat(pool.running()).isEqualTo(1);
    }

    @Test
    void workerThreadsAreNamedAfterThePool() throws Exception {
        AtomicReference<String> threadName = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        FuncPool<Integer> pool = pool(1, n -> {
            threadName.set(Thread.currentThread().getName());
            done.countDown();
        }, PoolOptions.builder().name("thumbs").build());
        pool.invoke(1);
        Latches.await(done);
        assertThat(threadName.get()).isEqualTo("thumbs-1");
    }

    @ParameterizedTest(name = "preAlloc={0}")
    @ValueSource(booleans = {false, true})
    void theMostRecentlyIdledWorkerIsReusedFirst(boolean preAlloc) throws Exception {
        Map<Integer, Thread> threadOf = new ConcurrentHashMap<>();
        Map<Integer, CountDownLatch> release = Map.of(1, new CountDownLatch(1), 2, new CountDownLatch(1));
        FuncPool<Integer> pool = pool(2, n -> {
            threadOf.put(n, Thread.currentThread());
            started.add(n);
            if (release.containsKey(n)) {
                Latches.await(release.get(n));
            }
        }, PoolOptions.builder().preAlloc(preAlloc).disablePurge(true).build());
        pool.invoke(1);
        pool.invoke(2);
        assertThat(List.of(nextStarted(), nextStarted())).containsExactlyInAnyOrder(1, 2);
        Thread first = threadOf.get(1);
        Thread second = threadOf.get(2);
        assertThat(first).isNotSameAs(second);
        // Idle workers park (WAITING); workers blocked in the function wait with a timeout (TIMED_WAITING).
        release.get(1).countDown();
        awaitUntil(() -> assertThat(first.getState()).isEqualTo(Thread.State.WAITING));
        release.get(2).countDown();
        awaitUntil(() -> assertThat(second.getState()).isEqualTo(Thread.State.WAITING));
        pool.invoke(3);
        assertThat(nextStarted()).isEqualTo(3);
        assertThat(threadOf.get(3)).isSameAs(second);
        assertThat(pool.running()).isEqualTo(2);
    }

    // ---------------------------------------------------------------- blocking, overload and the queue

    @Test
    void aFullPoolBlocksTheCallerUntilAWorkerFreesUp() throws Exception {
        CountDownLatch releaseFirst = new CountDownLatch(1);
        FuncPool<Integer> pool = pool(1, n -> {
            started.add(n);
            if (n == 1) {
                Latches.await(releaseFirst);
            }
        }, PoolOptions.defaults());
        pool.invoke(1);
        assertThat(nextStarted()).isEqualTo(1);
        Future<?> second = invokeInBackground(pool, 2);
        awaitUntil(() -> assertThat(pool.waiting()).isEqualTo(1));
        assertThat(second).isNotDone();
        assertThat(started).isEmpty();
        releaseFirst.countDown();
        second.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        assertThat(nextStarted()).isEqualTo(2);
        assertThat(pool.waiting()).isZero();
        assertThat(pool.running()).isEqualTo(1);
    }

    @Test
    void nonblockingPoolRefusesWithOverloadAndDoesNotRunTheArgument() throws Exception {
        FuncPool<Integer> pool = gated(1, PoolOptions.builder().nonblocking(true).build());
        pool.invoke(1);
        assertThat(nextStarted()).isEqualTo(1);
        assertThatThrownBy(() -> pool.invoke(2)).isInstanceOf(PoolOverloadException.class)
                .hasMessageContaining("nonblocking");
        assertThat(pool.waiting()).isZero();
        gate.countDown();
        pool.releaseTimeout(PATIENCE);
        assertThat(started).isEmpty();
    }

    @Test
    void maxBlockingTasksBoundsTheBlockedCallers() throws Exception {
        FuncPool<Integer> pool = gated(1, PoolOptions.builder().maxBlockingTasks(2).build());
        pool.invoke(1);
        assertThat(nextStarted()).isEqualTo(1);
        Future<?> second = invokeInBackground(pool, 2);
        Future<?> third = invokeInBackground(pool, 3);
        awaitUntil(() -> assertThat(pool.waiting()).isEqualTo(2));
        assertThatThrownBy(() -> pool.invoke(4)).isInstanceOf(PoolOverloadException.class)
                .hasMessageContaining("maxBlockingTasks");
        gate.countDown();
        second.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        third.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        assertThat(List.of(nextStarted(), nextStarted())).containsExactlyInAnyOrder(2, 3);
    }

    @Test
    void nonblockingWinsOverMaxBlockingTasks() throws Exception {
        FuncPool<Integer> pool = gated(1, PoolOptions.builder().nonblocking(true).maxBlockingTasks(5).build());
        pool.invoke(1);
        assertThat(nextStarted()).isEqualTo(1);
        assertThatThrownBy(() -> pool.invoke(2)).isInstanceOf(PoolOverloadException.class);
    }

    @Test
    void aBoundedQueueHoldsArgumentsInFifoOrderBeforeCallersBlock() throws Exception {
        FuncPool<Integer> pool = gated(1, PoolOptions.builder().queueCapacity(2).build());
        pool.invoke(1);
        assertThat(nextStarted()).isEqualTo(1);
        pool.invoke(2); // queued, returns at once
        pool.invoke(3);
        assertThat(pool.waiting()).isEqualTo(2);
        assertThat(pool.running()).isEqualTo(1);
        Future<?> fourth = invokeInBackground(pool, 4);
        awaitUntil(() -> assertThat(pool.waiting()).isEqualTo(3));
        assertThat(fourth).isNotDone();
        gate.countDown();
        fourth.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        assertThat(List.of(nextStarted(), nextStarted(), nextStarted())).containsExactly(2, 3, 4);
    }

    @Test
    void aFullQueueOnANonblockingPoolRefusesWithOverload() throws Exception {
        FuncPool<Integer> pool = gated(1, PoolOptions.builder().queueCapacity(1).nonblocking(true).build());
        pool.invoke(1);
        assertThat(nextStarted()).isEqualTo(1);
        pool.invoke(2);
        assertThatThrownBy(() -> pool.invoke(3)).isInstanceOf(PoolOverloadException.class)
                .hasMessageContaining("queue");
        assertThat(pool.waiting()).isEqualTo(1);
        gate.countDown();
        assertThat(nextStarted()).isEqualTo(2);
    }

    @Test
    void anUnboundedQueueNeverBlocksTheCaller() throws Exception {
        FuncPool<Integer> pool = gated(1, PoolOptions.builder().queueCapacity(-1).build());
        for (int i = 0; i < 500; i++) {
            pool.invoke(i); // returns at once although the only worker is blocked
        }
        assertThat(nextStarted()).isZero();
        assertThat(pool.waiting()).isEqualTo(499);
        gate.countDown();
        for (int i = 1; i < 500; i++) {
            assertThat(nextStarted()).isEqualTo(i);
        }
    }

    @Test
    void aCallerBlockedOnAFullQueueProceedsAsSoonAsTheQueueHasRoom() throws Exception {
        CountDownLatch releaseFirst = new CountDownLatch(1);
        FuncPool<Integer> pool = pool(1, n -> {
            started.add(n);
            if (n == 1) {
                Latches.await(releaseFirst);
            } else {
                Latches.await(gate);
            }
        }, PoolOptions.builder().queueCapacity(1).build());
        pool.invoke(1);
        pool.invoke(2);
        assertThat(nextStarted()).isEqualTo(1);
        Future<?> third = invokeInBackground(pool, 3);
        awaitUntil(() -> assertThat(pool.waiting()).isEqualTo(2));
        releaseFirst.countDown();
        assertThat(nextStarted()).isEqualTo(2);
        // 2 runs and the queue is empty: the blocked caller may now queue 3 and return, while 2 still runs.
        third.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        assertThat(pool.waiting()).isEqualTo(1);
    }

    @Test
    void anInterruptedBlockedCallerIsRejectedKeepsItsInterruptAndItsArgumentNeverRuns() throws Exception {
        FuncPool<Integer> pool = gated(1);
        pool.invoke(1);
        assertThat(nextStarted()).isEqualTo(1);
        AtomicReference<Thread> callerThread = new AtomicReference<>();
        Future<Boolean> interruptedAfter = callers.submit(() -> {
            callerThread.set(Thread.currentThread());
            try {
                pool.invoke(2);
                return null;
            } catch (RejectedExecutionException e) {
                assertThat(e).isNotInstanceOf(PoolClosedException.class)
                        .hasCauseInstanceOf(InterruptedException.class);
                return Thread.currentThread().isInterrupted();
            }
        });
        awaitUntil(() -> assertThat(pool.waiting()).isEqualTo(1));
        callerThread.get().interrupt();
        assertThat(interruptedAfter.get(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(pool.waiting()).isZero();
        gate.countDown();
        pool.releaseTimeout(PATIENCE);
        assertThat(started).isEmpty();
    }

    @Test
    void aQueuedArgumentIsNotStrandedWhenTheWorkerAheadOfItFailsToStart() throws Exception {
        CountDownLatch factoryEntered = new CountDownLatch(1);
        CountDownLatch factoryMayFail = new CountDownLatch(1);
        AtomicInteger factoryCalls = new AtomicInteger();
        ThreadFactory flaky = r -> {
            if (factoryCalls.getAndIncrement() == 0) {
                factoryEntered.countDown();
                Latches.await(factoryMayFail);
                throw new IllegalStateException("no thread for you");
            }
            return new Thread(r);
        };
        FuncPool<Integer> pool = pool(1, started::add,
                PoolOptions.builder().queueCapacity(4).threadFactory(flaky).build());
        Future<?> first = invokeInBackground(pool, 1);
        Latches.await(factoryEntered);
        pool.invoke(2); // the worker reserved for 1 fills the capacity, so 2 is queued
        assertThat(pool.waiting()).isEqualTo(1);
        factoryMayFail.countDown();
        assertThat(failureOf(first)).isInstanceOf(RejectedExecutionException.class)
                .hasMessageContaining("could not start a worker thread");
        assertThat(nextStarted()).isEqualTo(2);
    }

    @Test
    void aThreadFactoryFailureRejectsTheCallAndLeaksNoRunningCount() throws Exception {
        AtomicInteger factoryCalls = new AtomicInteger();
        FuncPool<Integer> pool = pool(1, started::add, PoolOptions.builder().threadFactory(r -> {
            if (factoryCalls.getAndIncrement() == 0) {
                throw new IllegalStateException("no thread for you");
            }
            return new Thread(r);
        }).build());
        assertThatThrownBy(() -> pool.invoke(1)).isInstanceOf(RejectedExecutionException.class)
                .hasRootCauseMessage("no thread for you");
        assertThat(pool.running()).isZero();
        pool.invoke(2);
        assertThat(nextStarted()).isEqualTo(2);
        assertThat(started).isEmpty();
    }

    // ---------------------------------------------------------------- capacity and tuning

    @Test
    void unlimitedCapacityReportsMinusOneAndStartsAWorkerPerConcurrentCall() throws Exception {
        FuncPool<Integer> pool = gated(0);
        assertThat(pool.capacity()).isEqualTo(-1);
        assertThat(pool.free()).isEqualTo(-1);
        for (int i = 0; i < 20; i++) {
            pool.invoke(i);
        }
        for (int i = 0; i < 20; i++) {
            nextStarted();
        }
        assertThat(pool.running()).isEqualTo(20);
        assertThat(pool.free()).isEqualTo(-1);
        pool.tune(5);
        assertThat(pool.capacity()).isEqualTo(-1);
        assertThat(pool(-3, n -> { }, PoolOptions.defaults()).capacity()).isEqualTo(-1);
    }

    @Test
    void metricsFollowTheWorkers() throws Exception {
        FuncPool<Integer> pool = gated(3);
        assertThat(pool.capacity()).isEqualTo(3);
        assertThat(pool.running()).isZero();
        assertThat(pool.free()).isEqualTo(3);
        assertThat(pool.waiting()).isZero();
        pool.invoke(1);
        pool.invoke(2);
        nextStarted();
        nextStarted();
        assertThat(pool.running()).isEqualTo(2);
        assertThat(pool.free()).isEqualTo(1);
        assertThat(pool.toString()).contains("capacity=3", "running=2");
    }

    @Test
    void tuningUpWakesBlockedCallersAtOnce() throws Exception {
        FuncPool<Integer> pool = gated(1);
        pool.invoke(1);
        assertThat(nextStarted()).isEqualTo(1);
        Future<?> second = invokeInBackground(pool, 2);
        Future<?> third = invokeInBackground(pool, 3);
        awaitUntil(() -> assertThat(pool.waiting()).isEqualTo(2));
        pool.tune(3);
        assertThat(pool.capacity()).isEqualTo(3);
        second.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        third.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        assertThat(List.of(nextStarted(), nextStarted())).containsExactlyInAnyOrder(2, 3);
        assertThat(pool.running()).isEqualTo(3);
        assertThat(pool.waiting()).isZero();
    }

    @Test
    void tuningUpStartsWorkersForQueuedArguments() throws Exception {
        FuncPool<Integer> pool = gated(1, PoolOptions.builder().queueCapacity(-1).build());
        for (int i = 1; i <= 3; i++) {
            pool.invoke(i);
        }
        assertThat(nextStarted()).isEqualTo(1);
        assertThat(pool.waiting()).isEqualTo(2);
        pool.tune(3);
        assertThat(List.of(nextStarted(), nextStarted())).containsExactlyInAnyOrder(2, 3); // two new workers race
        assertThat(pool.waiting()).isZero();
        assertThat(pool.running()).isEqualTo(3);
    }

    @Test
    void tuningDownStopsSurplusIdleWorkersAtOnce() throws Exception {
        CyclicBarrier allThree = new CyclicBarrier(3);
        List<Thread> threads = new CopyOnWriteArrayList<>();
        FuncPool<Integer> pool = pool(3, n -> {
            threads.add(Thread.currentThread());
            try {
                allThree.await(PATIENCE.toSeconds(), TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }, PoolOptions.builder().disablePurge(true).build());
        for (int i = 0; i < 3; i++) {
            pool.invoke(i);
        }
        // three distinct workers met at the barrier; wait until all of them are parked idle
        awaitUntil(() -> assertThat(threads).hasSize(3)
                .allSatisfy(t -> assertThat(t.getState()).isEqualTo(Thread.State.WAITING)));
        assertThat(pool.running()).isEqualTo(3);
        pool.tune(1);
        assertThat(pool.capacity()).isEqualTo(1);
        assertThat(pool.running()).isEqualTo(1);
        assertThat(pool.free()).isZero();
        awaitUntil(() -> assertThat(threads.stream().filter(Thread::isAlive)).hasSize(1));
    }

    @Test
    void tuningDownRetiresBusyWorkersAsTheyFinishAndThenHoldsTheNewCapacity() throws Exception {
        Map<Integer, CountDownLatch> release = new ConcurrentHashMap<>();
        for (int i = 1; i <= 3; i++) {
            release.put(i, new CountDownLatch(1));
        }
        FuncPool<Integer> pool = pool(3, n -> {
            started.add(n);
            Latches.await(release.getOrDefault(n, gate));
        }, PoolOptions.builder().nonblocking(true).build());
        for (int i = 1; i <= 3; i++) {
            pool.invoke(i);
        }
        for (int i = 1; i <= 3; i++) {
            nextStarted();
        }
        pool.tune(1);
        assertThat(pool.capacity()).isEqualTo(1);
        assertThat(pool.running()).isEqualTo(3); // busy workers are not interrupted
        assertThat(pool.free()).isZero();
        release.get(1).countDown();
        awaitUntil(() -> assertThat(pool.running()).isEqualTo(2));
        release.get(2).countDown();
        awaitUntil(() -> assertThat(pool.running()).isEqualTo(1));
        assertThatThrownBy(() -> pool.invoke(4)).isInstanceOf(PoolOverloadException.class);
        release.get(3).countDown();
        await().atMost(PATIENCE).ignoreExceptionsInstanceOf(PoolOverloadException.class).until(() -> {
            pool.invoke(5); // succeeds once worker 3 is idle again
            return true;
        });
        assertThat(nextStarted()).isEqualTo(5);
        assertThat(pool.running()).isEqualTo(1);
        assertThatThrownBy(() -> pool.invoke(6)).isInstanceOf(PoolOverloadException.class);
    }

    @Test
    void tuneIsANoOpForNonPositiveCapacityAndWithPreAlloc() {
        FuncPool<Integer> pool = gated(2);
        pool.tune(0);
        pool.tune(-4);
        assertThat(pool.capacity()).isEqualTo(2);
        FuncPool<Integer> preAllocated = gated(2, PoolOptions.builder().preAlloc(true).build());
        preAllocated.tune(5);
        assertThat(preAllocated.capacity()).isEqualTo(2);
        preAllocated.tune(1);
        assertThat(preAllocated.capacity()).isEqualTo(2);
    }

    @Test
    void idleWorkersArePurgedAfterTheExpiryAndThePoolStillWorks() throws Exception {
        CyclicBarrier both = new CyclicBarrier(2);
        FuncPool<Integer> pool = pool(2, n -> {
            if (n <= 2) {
                try {
                    both.await(PATIENCE.toSeconds(), TimeUnit.SECONDS);
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            }
            started.add(n);
        }, PoolOptions.builder().expiry(Duration.ofMillis(50)).build());
        pool.invoke(1);
        pool.invoke(2);
        assertThat(List.of(nextStarted(), nextStarted())).containsExactlyInAnyOrder(1, 2);
        awaitUntil(() -> assertThat(pool.running()).isZero());
        assertThat(pool.free()).isEqualTo(2);
        pool.invoke(3);
        assertThat(nextStarted()).isEqualTo(3);
    }

    // ---------------------------------------------------------------- options

    @Test
    void preAllocWithUnlimitedCapacityIsRejectedNamingPreAlloc() {
        assertThatThrownBy(() -> FuncPool.create(0, n -> { }, PoolOptions.builder().preAlloc(true).build()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("preAlloc");
    }

    @Test
    void negativeExpiryIsRejectedUnlessPurgingIsDisabled() {
        PoolOptions negative = PoolOptions.builder().expiry(Duration.ofSeconds(-1)).build();
        assertThatThrownBy(() -> FuncPool.create(1, n -> { }, negative))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("expiry");
        FuncPool<Object> fine = pool(1, n -> { }, negative.toBuilder().disablePurge(true).build());
        assertThat(fine.isClosed()).isFalse();
    }

    @Test
    void nullFunctionOrOptionsAreRejected() {
        assertThatThrownBy(() -> FuncPool.create(1, null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> FuncPool.create(1, n -> { }, null)).isInstanceOf(NullPointerException.class);
    }

    // ---------------------------------------------------------------- life cycle

    @Test
    void releaseRejectsNewCallsWakesBlockedCallersAndDrainsTheQueue() throws Exception {
        FuncPool<Integer> pool = gated(1, PoolOptions.builder().queueCapacity(1).build());
        pool.invoke(1);
        assertThat(nextStarted()).isEqualTo(1);
        pool.invoke(2); // queued
        Future<?> blocked = invokeInBackground(pool, 3);
        awaitUntil(() -> assertThat(pool.waiting()).isEqualTo(2));
        pool.release();
        assertThat(pool.isClosed()).isTrue();
        assertThat(failureOf(blocked)).isInstanceOf(PoolClosedException.class);
        assertThatThrownBy(() -> pool.invoke(4)).isInstanceOf(PoolClosedException.class);
        pool.release(); // a second release is a no-op
        gate.countDown();
        assertThat(nextStarted()).isEqualTo(2); // the queued argument still runs
        awaitUntil(() -> assertThat(pool.running()).isZero());
        assertThat(started).isEmpty();
    }

    @Test
    void releaseTimeoutWaitsForRunningInvocations() throws Exception {
        FuncPool<Integer> pool = gated(2);
        pool.invoke(1);
        nextStarted();
        Future<?> releasing = callers.submit(() -> {
            pool.releaseTimeout(PATIENCE);
            return null;
        });
        awaitUntil(() -> assertThat(pool.isClosed()).isTrue());
        assertThat(releasing).isNotDone();
        gate.countDown();
        releasing.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        assertThat(pool.running()).isZero();
    }

    @Test
    void releaseTimeoutThrowsTimeoutExceptionWhenWorkersOutlastIt() throws Exception {
        FuncPool<Integer> pool = gated(1);
        pool.invoke(1);
        nextStarted();
        assertThatThrownBy(() -> pool.releaseTimeout(Duration.ofMillis(50))).isInstanceOf(TimeoutException.class);
        assertThat(pool.isClosed()).isTrue();
        assertThat(pool.running()).isEqualTo(1);
    }

    @Test
    void releaseTimeoutOnAClosedPoolThrowsPoolClosedException() {
        FuncPool<Integer> pool = gated(1);
        pool.release();
        assertThatThrownBy(() -> pool.releaseTimeout(PATIENCE)).isInstanceOf(PoolClosedException.class);
    }

    @Test
    void rebootReopensAReleasedPool() throws Exception {
        FuncPool<Integer> pool = pool(2, started::add, PoolOptions.defaults());
        pool.invoke(1);
        assertThat(nextStarted()).isEqualTo(1);
        pool.releaseTimeout(PATIENCE);
        assertThatThrownBy(() -> pool.invoke(2)).isInstanceOf(PoolClosedException.class);
        pool.reboot();
        assertThat(pool.isClosed()).isFalse();
        pool.invoke(3);
        assertThat(nextStarted()).isEqualTo(3);
        pool.reboot(); // no-op when open
        assertThat(pool.isClosed()).isFalse();
        pool.invoke(4);
        assertThat(nextStarted()).isEqualTo(4);
        assertThat(started).isEmpty();
    }

    @Test
    void rebootWhileWorkersStillRunReusesThem() throws Exception {
        FuncPool<Integer> pool = gated(1, PoolOptions.builder().disablePurge(true).build());
        pool.invoke(1);
        nextStarted();
        pool.release();
        pool.reboot();
        assertThat(pool.running()).isEqualTo(1);
        Future<?> second = invokeInBackground(pool, 2); // blocks: the old worker still holds the only slot
        awaitUntil(() -> assertThat(pool.waiting()).isEqualTo(1));
        gate.countDown();
        second.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        assertThat(nextStarted()).isEqualTo(2);
        assertThat(pool.running()).isEqualTo(1);
    }

    @Test
    void closeWaitsForRunningAndQueuedInvocations() throws Exception {
        List<Integer> ran = new CopyOnWriteArrayList<>();
        CountDownLatch release = new CountDownLatch(1);
        FuncPool<Integer> pool = FuncPool.create(1, n -> {
            if (n == 1) {
                started.add(n);
                Latches.await(release);
            }
            ran.add(n);
        }, PoolOptions.builder().queueCapacity(-1).build());
        pool.invoke(1);
        nextStarted();
        pool.invoke(2);
        pool.invoke(3);
        Future<?> closing = callers.submit(pool::close);
        awaitUntil(() -> assertThat(pool.isClosed()).isTrue());
        assertThat(closing).isNotDone();
        release.countDown();
        closing.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        assertThat(ran).containsExactly(1, 2, 3);
        assertThat(pool.running()).isZero();
    }

    @Test
    void closeInterruptedMeanwhileStopsRunningInvocationsAndKeepsTheInterrupt() throws Exception {
        CountDownLatch interrupted = new CountDownLatch(1);
        FuncPool<Integer> pool = FuncPool.create(1, n -> {
            started.add(n);
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                interrupted.countDown();
            }
        });
        pool.invoke(1);
        nextStarted();
        AtomicReference<Thread> closer = new AtomicReference<>();
        Future<Boolean> closing = callers.submit(() -> {
            closer.set(Thread.currentThread());
            pool.close();
            return Thread.currentThread().isInterrupted();
        });
        awaitUntil(() -> assertThat(pool.isClosed()).isTrue());
        closer.get().interrupt();
        assertThat(closing.get(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
        Latches.await(interrupted);
        assertThat(pool.running()).isZero();
    }
}
