package io.github.poolkit;

import static io.github.poolkit.WeightedSemaphoreCaller.acquireQueued;
import static io.github.poolkit.WeightedSemaphoreCaller.spinUntil;
import static io.github.poolkit.WeightedSemaphoreTest.assertState;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A grant racing with the waiter giving up (interrupt, timeout, cancelled future) must never leak or double-count
 * permits. Each test runs the race many times with both sides released together by a barrier; whichever side wins,
 * the permits in use must afterwards match what the waiter reports it holds.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WeightedSemaphoreRaceTest {

    private static final int ROUNDS = 300;

    private ExecutorService other;

    @BeforeEach
    void startOtherThread() {
        other = Executors.newSingleThreadExecutor();
    }

    @AfterEach
    void stopOtherThread() {
        other.shutdownNow();
    }

    @Test
    void grantRacingAnInterruptNeverLeaksPermits() throws Exception {
        WeightedSemaphore semaphore = new WeightedSemaphore(1);
        for (int round = 0; round < ROUNDS; round++) {
            semaphore.acquire(1);
            WeightedSemaphoreCaller waiter = acquireQueued(semaphore, 1, 1);
            CyclicBarrier start = new CyclicBarrier(2);
            CompletableFuture<Void> interrupt = CompletableFuture.runAsync(() -> {
                await(start);
                waiter.thread().interrupt();
            }, other);
            await(start);
            semaphore.release(1);
            interrupt.get(10, TimeUnit.SECONDS);

            Throwable failure = waiter.joinFailure();
            if (failure == null) { // the grant was seen first: the waiter holds the permit
                assertState(semaphore, 1, 0);
                semaphore.release(1);
            } else { // the interrupt won: the waiter holds nothing, even if the grant had happened
                assertThat(failure).isInstanceOf(InterruptedException.class);
            }
            assertState(semaphore, 0, 0);
        }
    }

    @Test
    void grantRacingATimeoutNeverLeaksPermits() throws Exception {
        WeightedSemaphore semaphore = new WeightedSemaphore(1);
        for (int round = 0; round < ROUNDS; round++) {
            semaphore.acquire(1);
            Duration timeout = Duration.ofNanos(1_000L * (round % 100)); // 0 to 100 us, around the release
            WeightedSemaphoreCaller waiter = WeightedSemaphoreCaller.start(() -> semaphore.tryAcquire(1, timeout));
            spinUntil(() -> semaphore.waiting() == 1 || waiter.isDone()); // release as soon as it waits
            semaphore.release(1);

            boolean acquired = waiter.join();
            assertState(semaphore, acquired ? 1 : 0, 0);
            if (acquired) {
                semaphore.release(1);
            }
        }
    }

    @Test
    void grantRacingACancelNeverLeaksPermits() throws Exception {
        WeightedSemaphore semaphore = new WeightedSemaphore(1);
        for (int round = 0; round < ROUNDS; round++) {
            semaphore.acquire(1);
            CompletableFuture<Permit> future = semaphore.acquireAsync(1);
            CyclicBarrier start = new CyclicBarrier(2);
            CompletableFuture<Void> release = CompletableFuture.runAsync(() -> {
                await(start);
                semaphore.release(1);
            }, other);
            await(start);
            boolean cancelled = future.cancel(false);
            release.get(10, TimeUnit.SECONDS); // a lost grant is given back inside this release

            assertThat(future.isCancelled()).isEqualTo(cancelled);
            if (!cancelled) {
                assertState(semaphore, 1, 0);
                future.join().close();
            }
            assertState(semaphore, 0, 0);
        }
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
