package io.github.poolkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Black-box checks of what a user sees between one task and the next: when a worker starts to count, what a task
 * leaves on its worker thread, and how many queued tasks run at once after the capacity shrinks.
 */
@Timeout(30)
class WorkerPoolCountingAndHandOverTest {

    /** A worker counts in {@code running()} from the moment {@code execute} decides to start it, not when it runs. */
    @Test
    void aStartedWorkerCountsAsSoonAsExecuteReturns() {
        for (int round = 0; round < 50; round++) {
            CountDownLatch release = new CountDownLatch(1);
            WorkerPool pool = WorkerPool.create(2);
            try {
                pool.execute(() -> Latches.awaitUninterruptibly(release));
                assertThat(pool.running()).as("round %d, after the first execute", round).isEqualTo(1);
                assertThat(pool.free()).isEqualTo(1);
                pool.execute(() -> Latches.awaitUninterruptibly(release));
                assertThat(pool.running()).as("round %d, after the second execute", round).isEqualTo(2);
                assertThat(pool.free()).isZero();
            } finally {
                release.countDown();
                pool.release();
            }
        }
    }

    /** A pooled worker runs the next task with its interrupt status clear, whatever the last task left set. */
    @Test
    void anInterruptLeftByATaskDoesNotReachTheNextTaskOnTheSameWorker() throws Exception {
        try (WorkerPool pool = WorkerPool.create(1, PoolOptions.builder().disablePurge(true).build())) {
            AtomicReference<Thread> first = new AtomicReference<>();
            pool.submit(() -> {
                first.set(Thread.currentThread());
                Thread.currentThread().interrupt();
            }).get();
            AtomicReference<Thread> second = new AtomicReference<>();
            AtomicReference<Boolean> interrupted = new AtomicReference<>();
            pool.submit(() -> {
                second.set(Thread.currentThread());
                interrupted.set(Thread.currentThread().isInterrupted());
            }).get();
            assertThat(second.get()).as("the same worker ran both").isSameAs(first.get());
            assertThat(interrupted.get()).as("the second task saw an interrupt").isFalse();
        }
    }

    /**
     * Tasks already queued when the capacity shrinks run at most the new capacity at a time: a surplus worker that
     * finishes its task leaves instead of taking one from the queue.
     */
    @ParameterizedTest(name = "virtualThreads={0}")
    @ValueSource(booleans = {false, true})
    void afterShrinkingQueuedTasksRunAtMostTheNewCapacityAtATime(boolean virtualThreads) {
        PoolOptions.Builder options = PoolOptions.builder().queueCapacity(-1).virtualThreads(virtualThreads);
        if (!virtualThreads) {
            options.expiry(Duration.ofMinutes(1));
        }
        try (WorkerPool pool = WorkerPool.create(4, options.build())) {
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch started = new CountDownLatch(4);
            for (int i = 0; i < 4; i++) {
                pool.execute(() -> {
                    started.countDown();
                    Latches.awaitUninterruptibly(release);
                });
            }
            Latches.await(started);
            AtomicInteger inside = new AtomicInteger();
            AtomicInteger most = new AtomicInteger();
            CountDownLatch done = new CountDownLatch(20);
            for (int i = 0; i < 20; i++) {
                pool.execute(() -> {
                    most.accumulateAndGet(inside.incrementAndGet(), Math::max);
                    try {
                        Thread.sleep(2); // long enough for a second worker, if one were let in, to overlap
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    inside.decrementAndGet();
                    done.countDown();
                });
            }
            pool.tune(1);
            release.countDown();
            Latches.await(done);
            assertThat(most.get()).as("queued tasks running at once after tune(1)").isEqualTo(1);
            await().atMost(Duration.ofSeconds(5)).until(() -> pool.running() <= 1);
        }
    }
}
