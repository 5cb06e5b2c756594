package io.github.poolkit.abuse;

import io.github.poolkit.FuncPool;
import io.github.poolkit.PoolClosedException;
import io.github.poolkit.PoolOptions;
import io.github.poolkit.PoolOverloadException;
import io.github.poolkit.WorkerPool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A task that submits to its own full pool (ants #197).
 *
 * <p>With a blocking pool and no queue (the default, as in ants), the inner {@code execute} blocks until a worker
 * frees up. When every worker of the pool does this at once, nobody ever frees up: a deadlock, silent unless the pool
 * is watched ({@code waiting()} then counts the stuck callers). The tests show that case with a bounded wait, and the
 * ways out:
 * <ul>
 *   <li>{@code release()} wakes the stuck callers with {@link PoolClosedException} (so does an interrupt, with a
 *       {@code RejectedExecutionException}), which ends the deadlock;</li>
 *   <li>{@code nonblocking(true)}: the inner submit fails fast with {@link PoolOverloadException};</li>
 *   <li>{@code maxBlockingTasks(n)}: callers beyond the n-th fail fast with {@link PoolOverloadException};</li>
 *   <li>a queue ({@code queueCapacity > 0} with room, or -1): the inner task is accepted and runs after the outer
 *       one;</li>
 *   <li>unlimited capacity: the inner task is accepted and runs on a new worker.</li>
 * </ul>
 */
@Timeout(20)
class SelfSubmitTest {

    /** The outer task: submits {@code inner} to {@code pool} and completes with what happened. */
    private static Runnable submitsToItsOwnPool(WorkerPool pool, Runnable inner, CompletableFuture<Object> outcome) {
        return () -> {
            try {
                pool.execute(inner);
                outcome.complete("accepted");
            } catch (RuntimeException e) {
                outcome.complete(e);
            }
        };
    }

    /**
     * Runs the {@code outers} on workers of {@code pool} such that each one starts only once all of them hold a worker,
     * so no inner submit finds a worker freed by a sibling.
     */
    private static void runTogether(WorkerPool pool, Runnable... outers) {
        CountDownLatch allStarted = new CountDownLatch(outers.length);
        for (Runnable outer : outers) {
            pool.execute(() -> {
                allStarted.countDown();
                try {
                    allStarted.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                outer.run();
            });
        }
    }

    @Test
    void blockingPoolWithoutQueueDeadlocksUntilReleaseWakesTheInnerSubmit() throws Exception {
        WorkerPool pool = WorkerPool.create(1, PoolOptions.builder().name("self-submit-blocking").build());
        CountDownLatch innerRan = new CountDownLatch(1);
        CompletableFuture<Object> outcome = new CompletableFuture<>();
        pool.execute(submitsToItsOwnPool(pool, innerRan::countDown, outcome));

        // The only worker runs the outer task, which is now blocked in execute: the pool is deadlocked.
        await().atMost(Duration.ofSeconds(5)).until(() -> pool.waiting() == 1);
        assertThat(pool.running()).isEqualTo(1);
        assertThat(outcome).isNotDone();

        pool.release();
        assertThat(outcome.get(5, TimeUnit.SECONDS)).isInstanceOf(PoolClosedException.class);
        assertThat(pool.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
        assertThat(innerRan.getCount()).as("the inner task was never accepted").isEqualTo(1);
        assertThat(pool.waiting()).isZero();
    }

    @Test
    void everyWorkerSubmittingToItsOwnPoolDeadlocksAndReleaseEndsIt() throws Exception {
        int capacity = 3;
        WorkerPool pool = WorkerPool.create(capacity);
        CompletableFuture<?>[] outcomes = new CompletableFuture<?>[capacity];
        Runnable[] outers = new Runnable[capacity];
        for (int i = 0; i < capacity; i++) {
            CompletableFuture<Object> outcome = new CompletableFuture<>();
            outcomes[i] = outcome;
            outers[i] = submitsToItsOwnPool(pool, () -> { }, outcome);
        }
        runTogether(pool, outers);
        await().atMost(Duration.ofSeconds(5)).until(() -> pool.waiting() == capacity);
        assertThat(pool.free()).isZero();

        pool.release();
        for (CompletableFuture<?> outcome : outcomes) {
            assertThat(outcome.get(5, TimeUnit.SECONDS)).isInstanceOf(PoolClosedException.class);
        }
        assertThat(pool.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void interruptingTheStuckOuterTaskAlsoEndsTheDeadlock() throws Exception {
        try (WorkerPool pool = WorkerPool.create(1)) {
            AtomicReference<Thread> worker = new AtomicReference<>();
            CompletableFuture<Object> outcome = new CompletableFuture<>();
            Runnable outer = submitsToItsOwnPool(pool, () -> { }, outcome);
            pool.execute(() -> {
                worker.set(Thread.currentThread());
                outer.run();
            });
            await().atMost(Duration.ofSeconds(5)).until(() -> pool.waiting() == 1);
            worker.get().interrupt();
            assertThat(outcome.get(5, TimeUnit.SECONDS)).isInstanceOf(java.util.concurrent.RejectedExecutionException.class)
                    .extracting(e -> ((Throwable) e).getCause()).isInstanceOf(InterruptedException.class);
            assertThat(pool.waiting()).isZero();
        }
    }

    @Test
    void nonblockingPoolFailsTheInnerSubmitFast() throws Exception {
        try (WorkerPool pool = WorkerPool.create(1, PoolOptions.builder().nonblocking(true).build())) {
            CompletableFuture<Object> outcome = new CompletableFuture<>();
            pool.execute(submitsToItsOwnPool(pool, () -> { }, outcome));
            assertThat(outcome.get(5, TimeUnit.SECONDS)).isInstanceOf(PoolOverloadException.class);
        }
    }

    @Test
    void maxBlockingTasksFailsTheCallersBeyondTheLimitFast() throws Exception {
        try (WorkerPool pool = WorkerPool.create(2, PoolOptions.builder().maxBlockingTasks(1).build())) {
            CompletableFuture<Object> first = new CompletableFuture<>();
            CompletableFuture<Object> second = new CompletableFuture<>();
            runTogether(pool, submitsToItsOwnPool(pool, () -> { }, first),
                    submitsToItsOwnPool(pool, () -> { }, second));
            // One outer task blocks (the one allowed blocked caller), the other is refused at once, which frees its
            // worker, so the blocked inner submit gets it: no deadlock.
            Object[] outcomes = {first.get(5, TimeUnit.SECONDS), second.get(5, TimeUnit.SECONDS)};
            assertThat(outcomes).filteredOn(PoolOverloadException.class::isInstance).hasSize(1);
            assertThat(outcomes).filteredOn("accepted"::equals).hasSize(1);
        }
    }

    @Test
    void aQueueAcceptsTheInnerTaskWhichRunsAfterTheOuterOne() throws Exception {
        for (int queueCapacity : new int[] {1, -1}) {
            try (WorkerPool pool = WorkerPool.create(1, PoolOptions.builder().queueCapacity(queueCapacity).build())) {
                CountDownLatch innerRan = new CountDownLatch(1);
                CompletableFuture<Object> outcome = new CompletableFuture<>();
                pool.execute(submitsToItsOwnPool(pool, innerRan::countDown, outcome));
                assertThat(outcome.get(5, TimeUnit.SECONDS)).as("queueCapacity %d", queueCapacity)
                        .isEqualTo("accepted");
                assertThat(innerRan.await(5, TimeUnit.SECONDS)).isTrue();
            }
        }
    }

    @Test
    void unlimitedCapacityAcceptsTheInnerTaskOnANewWorker() throws Exception {
        try (WorkerPool pool = WorkerPool.create(0)) {
            CountDownLatch innerRan = new CountDownLatch(1);
            CountDownLatch outerMayEnd = new CountDownLatch(1);
            CompletableFuture<Object> outcome = new CompletableFuture<>();
            Runnable outer = submitsToItsOwnPool(pool, () -> {
                innerRan.countDown();
                outerMayEnd.countDown();
            }, outcome);
            pool.execute(() -> {
                outer.run();
                try {
                    outerMayEnd.await(); // the outer task still holds its worker while the inner one runs
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            assertThat(outcome.get(5, TimeUnit.SECONDS)).isEqualTo("accepted");
            assertThat(innerRan.await(5, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void funcPoolInvokingItselfBlocksTheSameWayAndReleaseEndsIt() throws Exception {
        CompletableFuture<Object> outcome = new CompletableFuture<>();
        AtomicReference<FuncPool<Integer>> self = new AtomicReference<>();
        FuncPool<Integer> pool = FuncPool.create(1, depth -> {
            if (depth == 0) {
                try {
                    self.get().invoke(1);
                    outcome.complete("accepted");
                } catch (RuntimeException e) {
                    outcome.complete(e);
                }
            }
        });
        self.set(pool);
        pool.invoke(0);
        await().atMost(Duration.ofSeconds(5)).until(() -> pool.waiting() == 1);
        pool.release();
        assertThat(outcome.get(5, TimeUnit.SECONDS)).isInstanceOf(PoolClosedException.class);
        pool.close();
    }
}
