package io.github.poolkit.abuse;

import io.github.poolkit.PoolClosedException;
import io.github.poolkit.PoolOptions;
import io.github.poolkit.WorkerPool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Abuse of {@link WorkerPool}'s public entry points: null, negative, zero and huge arguments, and every call on a
 * released pool. Each case either works as the javadoc says or fails at once with a clear exception; none may hang, leak a
 * thread or corrupt the pool for later use.
 */
@Timeout(20)
class WorkerPoolAbuseTest {

    @Test
    void nullTaskIsRejectedWithNullPointerExceptionAndThePoolStaysUsable() throws Exception {
        try (WorkerPool pool = WorkerPool.create(1)) {
            assertThatThrownBy(() -> pool.execute(null)).isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> pool.submit((Runnable) null)).isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> pool.submit((Callable<?>) null)).isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> pool.invokeAll(null)).isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> pool.invokeAny(null)).isInstanceOf(NullPointerException.class);
            assertThat(pool.running()).isZero();
            assertThat(pool.waiting()).isZero();
            assertThat(pool.submit(() -> 42).get(5, TimeUnit.SECONDS)).isEqualTo(42);
        }
    }

    @Test
    void nullOptionsAreRejected() {
        assertThatThrownBy(() -> WorkerPool.create(1, null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void zeroAndNegativeCapacitiesMeanUnlimited() throws Exception {
        for (int capacity : new int[] {0, -1, Integer.MIN_VALUE}) {
            try (WorkerPool pool = WorkerPool.create(capacity)) {
                assertThat(pool.capacity()).as("capacity(%d)", capacity).isEqualTo(-1);
                assertThat(pool.free()).isEqualTo(-1);
                assertThat(pool.submit(() -> "ran").get(5, TimeUnit.SECONDS)).isEqualTo("ran");
            }
        }
    }

    @Test
    void hugeCapacityIsAcceptedWithoutAllocatingForIt() throws Exception {
        try (WorkerPool pool = WorkerPool.create(Integer.MAX_VALUE)) {
            assertThat(pool.capacity()).isEqualTo(Integer.MAX_VALUE);
            assertThat(pool.free()).isEqualTo(Integer.MAX_VALUE);
            assertThat(pool.submit(() -> "ran").get(5, TimeUnit.SECONDS)).isEqualTo("ran");
            assertThat(pool.free()).isEqualTo(Integer.MAX_VALUE - pool.running());
        }
    }

    @Test
    void tuneIgnoresZeroAndNegativeAndAcceptsHugeCapacities() {
        try (WorkerPool pool = WorkerPool.create(3)) {
            pool.tune(0);
            pool.tune(-5);
            pool.tune(Integer.MIN_VALUE);
            assertThat(pool.capacity()).isEqualTo(3);
            pool.tune(Integer.MAX_VALUE);
            assertThat(pool.capacity()).isEqualTo(Integer.MAX_VALUE);
            pool.tune(1);
            assertThat(pool.capacity()).isEqualTo(1);
        }
    }

    @Test
    void everySubmissionOnAReleasedPoolFailsWithPoolClosedException() {
        WorkerPool pool = WorkerPool.create(2);
        pool.release();
        assertThatThrownBy(() -> pool.execute(() -> { })).isInstanceOf(PoolClosedException.class)
                .hasMessageContaining("closed");
        assertThatThrownBy(() -> pool.submit(() -> 1)).isInstanceOf(PoolClosedException.class);
        assertThatThrownBy(() -> pool.invokeAll(List.of(() -> 1))).isInstanceOf(PoolClosedException.class);
        assertThatThrownBy(() -> pool.invokeAny(List.of(() -> 1))).isInstanceOf(PoolClosedException.class);
        assertThat(pool.isClosed()).isTrue();
        assertThat(pool.isShutdown()).isTrue();
        assertThat(pool.isTerminated()).isTrue();
    }

    @Test
    void lifecycleCallsOnAReleasedPoolAreHarmless() throws Exception {
        WorkerPool pool = WorkerPool.create(2);
        pool.release();
        assertThatCode(() -> {
            pool.release();
            pool.shutdown();
            pool.tune(5);
            pool.close();
        }).doesNotThrowAnyException();
        assertThat(pool.shutdownNow()).isEmpty();
        assertThat(pool.awaitTermination(0, TimeUnit.NANOSECONDS)).isTrue();
        assertThat(pool.running()).isZero();
        assertThat(pool.waiting()).isZero();
        assertThatThrownBy(() -> pool.releaseTimeout(Duration.ofSeconds(1)))
                .isInstanceOf(PoolClosedException.class).hasMessageContaining("already closed");
    }

    @Test
    void rebootAfterReleaseTakesTasksAgainAndRebootWhenOpenIsANoOp() throws Exception {
        try (WorkerPool pool = WorkerPool.create(1)) {
            pool.reboot();
            assertThat(pool.isClosed()).isFalse();
            pool.release();
            pool.reboot();
            pool.reboot();
            assertThat(pool.isShutdown()).isFalse();
            assertThat(pool.isTerminated()).isFalse();
            assertThat(pool.submit(() -> "again").get(5, TimeUnit.SECONDS)).isEqualTo("again");
        }
    }

    @Test
    void releaseTimeoutRejectsNullAndTimesOutAtOnceForZeroOrNegative() throws Exception {
        WorkerPool pool = WorkerPool.create(1);
        assertThatThrownBy(() -> pool.releaseTimeout(null)).isInstanceOf(NullPointerException.class);
        assertThat(pool.isClosed()).as("a null timeout does not release").isFalse();

        HeldWorkers held = HeldWorkers.hold(pool, 1);
        assertThatThrownBy(() -> pool.releaseTimeout(Duration.ofSeconds(-1))).isInstanceOf(TimeoutException.class);
        assertThat(pool.isClosed()).isTrue();
        held.let();
        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void awaitTerminationWithZeroOrNegativeTimeoutAnswersAtOnce() throws Exception {
        try (WorkerPool pool = WorkerPool.create(1)) {
            assertThat(pool.awaitTermination(0, TimeUnit.SECONDS)).isFalse();
            assertThat(pool.awaitTermination(-1, TimeUnit.DAYS)).isFalse();
            assertThat(pool.awaitTermination(Long.MIN_VALUE, TimeUnit.NANOSECONDS)).isFalse();
        }
    }

    @Test
    void invokeAnyWithNoTasksIsRejectedAsForEveryExecutorService() {
        try (WorkerPool pool = WorkerPool.create(1)) {
            assertThatThrownBy(() -> pool.invokeAny(List.of())).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void aThreadFactoryThatReturnsNullOrThrowsRejectsTheTaskAndLeavesTheBooksClean() {
        CountDownLatch never = new CountDownLatch(1);
        PoolOptions nullFactory = PoolOptions.builder().threadFactory(r -> null).build();
        try (WorkerPool pool = WorkerPool.create(2, nullFactory)) {
            assertThatThrownBy(() -> pool.execute(never::countDown))
                    .isInstanceOf(java.util.concurrent.RejectedExecutionException.class)
                    .hasMessageContaining("could not start a worker thread");
            assertThat(pool.running()).as("the reserved worker is given back").isZero();
        }
        PoolOptions throwingFactory = PoolOptions.builder().threadFactory(r -> {
            throw new IllegalStateException("no threads today");
        }).build();
        try (WorkerPool pool = WorkerPool.create(2, throwingFactory)) {
            assertThatThrownBy(() -> pool.execute(never::countDown))
                    .isInstanceOf(java.util.concurrent.RejectedExecutionException.class)
                    .hasRootCauseMessage("no threads today");
            assertThat(pool.running()).isZero();
        }
        assertThat(never.getCount()).as("the rejected task never ran").isEqualTo(1);
    }

    /**
     * A factory that starts the thread it returns ({@code Thread::startVirtualThread} in place of
     * {@code Thread.ofVirtual().factory()}) would have the worker run the task on a thread the pool did not count, and
     * then reject it (and, before this was caught, {@code close()} then never returned): the pool refuses such a
     * thread, naming the fix, and the thread runs nothing.
     */
    @Test
    void aThreadFactoryThatStartsItsThreadRejectsTheTaskAndItsThreadRunsNothing() throws Exception {
        List<Thread> made = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.concurrent.atomic.AtomicInteger runs = new java.util.concurrent.atomic.AtomicInteger();
        PoolOptions starting = PoolOptions.builder().queueCapacity(4).threadFactory(r -> {
            Thread t = Thread.startVirtualThread(r);
            made.add(t);
            return t;
        }).build();
        try (WorkerPool pool = WorkerPool.create(2, starting)) {
            assertThatThrownBy(() -> pool.execute(runs::incrementAndGet))
                    .isInstanceOf(java.util.concurrent.RejectedExecutionException.class)
                    .hasMessageContaining("already started").hasMessageContaining("Thread.ofVirtual().factory()");
            for (Thread t : made) {
                assertThat(t.join(Duration.ofSeconds(5))).as("the factory's thread ended").isTrue();
            }
            assertThat(runs).as("runs of the rejected task").hasValue(0);
            assertThat(pool.running()).isZero();
        }
    }

    /**
     * A task is queued while the worker reserved before it fails to start, and the replacement the pool then starts
     * for the queue fails too: the queued task was accepted, so the pool must not report itself terminated around it
     * (as {@code ThreadPoolExecutor}, it waits until {@code shutdownNow} hands the task back).
     */
    @Test
    void aQueuedTaskThatNoWorkerCouldBeStartedForKeepsThePoolFromTerminatingUntilShutdownNowReturnsIt()
            throws Exception {
        CountDownLatch inFactory = new CountDownLatch(1);
        CountDownLatch fail = new CountDownLatch(1);
        PoolOptions failing = PoolOptions.builder().queueCapacity(4).threadFactory(r -> {
            inFactory.countDown();
            try {
                fail.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            throw new IllegalStateException("no threads today");
        }).build();
        WorkerPool pool = WorkerPool.create(1, failing);
        Runnable first = () -> { };
        Runnable queued = () -> { };
        java.util.concurrent.CompletableFuture<Throwable> firstCaller = java.util.concurrent.CompletableFuture
                .supplyAsync(() -> {
                    try {
                        pool.execute(first);
                        return null;
                    } catch (Throwable e) {
                        return e;
                    }
                });
        inFactory.await(); // the only place is reserved for `first`, whose thread is being made
        pool.execute(queued); // no room and no idle worker: queued, so accepted
        assertThat(pool.waiting()).isEqualTo(1);
        fail.countDown(); // `first`'s thread fails, and so does the replacement started for the queue
        assertThat(firstCaller.get(10, TimeUnit.SECONDS))
                .isInstanceOf(java.util.concurrent.RejectedExecutionException.class);
        assertThat(pool.running()).isZero();

        pool.shutdown();
        assertThat(pool.isTerminated()).as("an accepted task still waits in the queue").isFalse();
        assertThat(pool.awaitTermination(50, TimeUnit.MILLISECONDS)).isFalse();
        assertThat(pool.shutdownNow()).containsExactly(queued);
        assertThat(pool.isTerminated()).isTrue();
        assertThat(pool.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
    }
}
