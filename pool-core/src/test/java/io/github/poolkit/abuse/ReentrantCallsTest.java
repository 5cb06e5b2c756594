package io.github.poolkit.abuse;

import io.github.poolkit.MultiPool;
import io.github.poolkit.PoolClosedException;
import io.github.poolkit.WorkerPool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Reentrant calls: a task calling its own pool's {@code tune}, {@code running}, {@code release}, {@code submit},
 * {@code releaseTimeout} and {@code awaitTermination}. None may deadlock on the pool's lock (it is never held while a
 * task runs); the ones that wait for the pool's workers cannot finish while the calling task occupies one of them,
 * so they time out, which is why a task must never call {@code close()} on its own pool (it would wait for itself
 * forever, as {@link java.util.concurrent.ExecutorService#close()} does for every JDK executor).
 */
@Timeout(20)
class ReentrantCallsTest {

    /** Runs {@code body} as a task of {@code pool} and returns its result (or throws what it threw). */
    private static <T> T inside(WorkerPool pool, Callable<T> body) throws Exception {
        try {
            return pool.submit(body).get(10, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Exception cause) {
                throw cause;
            }
            throw e;
        }
    }

    @Test
    void metricsFromInsideATaskCountTheCallingWorker() throws Exception {
        try (WorkerPool pool = WorkerPool.create(2)) {
            assertThat(inside(pool, () -> new int[] {pool.running(), pool.free(), pool.waiting(), pool.capacity()}))
                    .containsExactly(1, 1, 0, 2);
        }
    }

    @Test
    void tuneFromInsideATaskTakesEffectAtOnce() throws Exception {
        try (WorkerPool pool = WorkerPool.create(1)) {
            assertThat(inside(pool, () -> {
                pool.tune(3);
                return pool.free();
            })).isEqualTo(2);
            assertThat(inside(pool, () -> {
                pool.tune(1);
                return pool.capacity();
            })).isEqualTo(1);
            assertThat(pool.submit(() -> "still works").get(5, TimeUnit.SECONDS)).isEqualTo("still works");
        }
    }

    @Test
    void aTaskThatShrinksItsPoolBelowItsRunningWorkersStillFinishesAndTheSurplusRetires() throws Exception {
        try (WorkerPool pool = WorkerPool.create(2)) {
            HeldWorkers other = HeldWorkers.hold(pool, 1);
            Future<Integer> shrinker = pool.submit(() -> {
                pool.tune(1);
                return pool.running();
            });
            assertThat(shrinker.get(5, TimeUnit.SECONDS)).isEqualTo(2);
            other.let();
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> pool.running() <= 1);
        }
    }

    @Test
    void submitFromInsideATaskWithRoomIsAccepted() throws Exception {
        try (WorkerPool pool = WorkerPool.create(2)) {
            assertThat(inside(pool, () -> pool.submit(() -> "inner").get(5, TimeUnit.SECONDS))).isEqualTo("inner");
        }
    }

    @Test
    void releaseFromInsideATaskClosesThePoolAndLetsTheTaskFinish() throws Exception {
        WorkerPool pool = WorkerPool.create(2);
        CountDownLatch released = new CountDownLatch(1);
        CompletableFuture<Object> laterSubmit = new CompletableFuture<>();
        pool.execute(() -> {
            pool.release();
            released.countDown();
            try {
                pool.execute(() -> { });
                laterSubmit.complete("accepted");
            } catch (RuntimeException e) {
                laterSubmit.complete(e);
            }
        });
        assertThat(released.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(laterSubmit.get(5, TimeUnit.SECONDS)).isInstanceOf(PoolClosedException.class);
        assertThat(pool.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void releaseTimeoutFromInsideATaskTimesOutBecauseTheTaskHoldsAWorker() throws Exception {
        WorkerPool pool = WorkerPool.create(1);
        assertThatThrownBy(() -> inside(pool, () -> {
            pool.releaseTimeout(Duration.ofMillis(50));
            return null;
        })).isInstanceOf(TimeoutException.class).hasMessageContaining("1 workers running");
        assertThat(pool.isClosed()).isTrue();
        assertThat(pool.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void awaitTerminationFromInsideATaskReturnsFalseAfterItsTimeout() throws Exception {
        WorkerPool pool = WorkerPool.create(1);
        assertThat(inside(pool, () -> {
            pool.release();
            return pool.awaitTermination(50, TimeUnit.MILLISECONDS);
        })).isFalse();
        assertThat(pool.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void shutdownNowFromInsideATaskInterruptsTheCallerItself() throws Exception {
        WorkerPool pool = WorkerPool.create(1);
        assertThat(inside(pool, () -> {
            pool.shutdownNow();
            return Thread.currentThread().isInterrupted();
        })).isTrue();
        assertThat(pool.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void rebootFromInsideATaskOfAReleasedPoolReopensIt() throws Exception {
        WorkerPool pool = WorkerPool.create(1);
        CountDownLatch go = new CountDownLatch(1);
        Future<Boolean> reopened = pool.submit(() -> {
            go.await();
            pool.reboot();
            return pool.isClosed();
        });
        pool.release();
        go.countDown();
        assertThat(reopened.get(5, TimeUnit.SECONDS)).isFalse();
        assertThat(pool.submit(() -> "open again").get(5, TimeUnit.SECONDS)).isEqualTo("open again");
        pool.close();
    }

    @Test
    void multiPoolTaskTuningAndSubmittingToItsOwnMultiPool() throws Exception {
        try (MultiPool pool = MultiPool.create(2, 1, MultiPool.LoadBalancing.ROUND_ROBIN)) {
            Future<String> outer = pool.submit(() -> {
                pool.tune(2);
                return pool.submit(() -> "inner").get(5, TimeUnit.SECONDS);
            });
            assertThat(outer.get(10, TimeUnit.SECONDS)).isEqualTo("inner");
            assertThat(pool.capacity()).isEqualTo(4);
        }
    }
}
