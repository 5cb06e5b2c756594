package io.github.poolkit.abuse;

import io.github.poolkit.DelayScheduler;
import io.github.poolkit.PoolOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Abuse of {@link DelayScheduler}'s public entry points: null, zero, negative and huge worker counts, delays and
 * periods (where {@code now + delay} would overflow), options it must override, calls after shutdown, and reentrant
 * calls from inside a job (scheduling on, cancelling in, and shutting down its own scheduler).
 */
@Timeout(20)
class DelaySchedulerAbuseTest {

    private DelayScheduler scheduler;

    @AfterEach
    void tearDown() throws InterruptedException {
        if (scheduler != null) {
            scheduler.shutdownNow();
            assertThat(scheduler.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void nonPositiveWorkerCountsAndNullOptionsAreRejected() {
        for (int workers : new int[] {0, -1, Integer.MIN_VALUE}) {
            assertThatThrownBy(() -> DelayScheduler.create(workers)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("workers").hasMessageContaining(String.valueOf(workers));
        }
        assertThatThrownBy(() -> DelayScheduler.create(1, null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void hugeWorkerCountWithOptionsThatWouldBlockOrPreAllocateIsMadeSafe() throws Exception {
        scheduler = DelayScheduler.create(Integer.MAX_VALUE, PoolOptions.builder()
                .preAlloc(true).nonblocking(true).queueCapacity(1).maxBlockingTasks(1).build());
        assertThat(scheduler.submit(() -> "ran").get(5, TimeUnit.SECONDS)).isEqualTo("ran");
    }

    @Test
    void nullJobsDelaysAndUnitsAreRejected() {
        scheduler = DelayScheduler.create(1);
        assertThatThrownBy(() -> scheduler.scheduleOnce(null, Duration.ZERO)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> scheduler.scheduleOnce(() -> { }, null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> scheduler.scheduleRepeating(null, Duration.ofSeconds(1)))
                .isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> scheduler.scheduleRepeating(() -> { }, null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> scheduler.schedule((Runnable) null, 1, TimeUnit.SECONDS))
                .isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> scheduler.schedule(() -> { }, 1, null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> scheduler.scheduleAtFixedRate(() -> { }, 0, 1, null))
                .isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> scheduler.execute(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> scheduler.awaitTermination(1, null)).isInstanceOf(NullPointerException.class);
        assertThat(scheduler.pending()).isZero();
    }

    @Test
    void extremeNegativeDelaysRunAtOnceInsteadOfOverflowingIntoTheFarFuture() throws Exception {
        scheduler = DelayScheduler.create(1);
        CountDownLatch ran = new CountDownLatch(4);
        scheduler.schedule(ran::countDown, Long.MIN_VALUE, TimeUnit.NANOSECONDS);
        scheduler.schedule(ran::countDown, Long.MIN_VALUE, TimeUnit.DAYS);
        scheduler.scheduleOnce(ran::countDown, Duration.ofSeconds(Long.MIN_VALUE));
        scheduler.scheduleRepeating(ran::countDown, Duration.ofSeconds(Long.MIN_VALUE)); // runs once, at once
        assertThat(ran.await(5, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void extremeDelaysArePendingAndCancellableInsteadOfOverflowingIntoThePast() {
        scheduler = DelayScheduler.create(1);
        CountDownLatch ran = new CountDownLatch(1);
        ScheduledFuture<?> a = scheduler.schedule(ran::countDown, Long.MAX_VALUE, TimeUnit.NANOSECONDS);
        ScheduledFuture<?> b = scheduler.schedule(ran::countDown, Long.MAX_VALUE, TimeUnit.DAYS);
        ScheduledFuture<?> c = scheduler.scheduleOnce(ran::countDown, Duration.ofSeconds(Long.MAX_VALUE));
        ScheduledFuture<?> d = scheduler.scheduleRepeating(ran::countDown, Duration.ofSeconds(Long.MAX_VALUE));
        ScheduledFuture<?> e = scheduler.scheduleAtFixedRate(ran::countDown, Long.MAX_VALUE, Long.MAX_VALUE,
                TimeUnit.DAYS);
        ScheduledFuture<?> f = scheduler.scheduleWithFixedDelay(ran::countDown, Long.MAX_VALUE, 1, TimeUnit.DAYS);
        assertThat(scheduler.pending()).isEqualTo(6);
        for (ScheduledFuture<?> job : new ScheduledFuture<?>[] {a, b, c, d, e, f}) {
            assertThat(job.getDelay(TimeUnit.DAYS)).as("due in the far future").isGreaterThan(365L * 100);
            assertThat(job.cancel(false)).isTrue();
        }
        assertThat(scheduler.pending()).isZero();
        assertThat(ran.getCount()).isEqualTo(1);
    }

    @Test
    void nonPositivePeriodsAreRejectedAsByTheJdkButRunOnceWithScheduleRepeating() throws Exception {
        scheduler = DelayScheduler.create(1);
        for (long period : new long[] {0, -1, Long.MIN_VALUE}) {
            assertThatThrownBy(() -> scheduler.scheduleAtFixedRate(() -> { }, 0, period, TimeUnit.SECONDS))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> scheduler.scheduleWithFixedDelay(() -> { }, 0, period, TimeUnit.SECONDS))
                    .isInstanceOf(IllegalArgumentException.class);
        }
        CountDownLatch ran = new CountDownLatch(1);
        ScheduledFuture<?> once = scheduler.scheduleRepeating(ran::countDown, Duration.ZERO);
        assertThat(ran.await(5, TimeUnit.SECONDS)).isTrue();
        once.get(5, TimeUnit.SECONDS);
        assertThat(once.isDone()).isTrue();
    }

    @Test
    void everySchedulingMethodRejectsAfterShutdownAndLifecycleCallsAreHarmless() throws Exception {
        scheduler = DelayScheduler.create(1);
        scheduler.shutdown();
        Runnable job = () -> { };
        assertThatThrownBy(() -> scheduler.scheduleOnce(job, Duration.ZERO)).isInstanceOf(RejectedExecutionException.class);
        assertThatThrownBy(() -> scheduler.scheduleRepeating(job, Duration.ofSeconds(1)))
                .isInstanceOf(RejectedExecutionException.class);
        assertThatThrownBy(() -> scheduler.schedule(job, 1, TimeUnit.SECONDS))
                .isInstanceOf(RejectedExecutionException.class);
        assertThatThrownBy(() -> scheduler.schedule(() -> 1, 1, TimeUnit.SECONDS))
                .isInstanceOf(RejectedExecutionException.class);
        assertThatThrownBy(() -> scheduler.scheduleAtFixedRate(job, 1, 1, TimeUnit.SECONDS))
                .isInstanceOf(RejectedExecutionException.class);
        assertThatThrownBy(() -> scheduler.scheduleWithFixedDelay(job, 1, 1, TimeUnit.SECONDS))
                .isInstanceOf(RejectedExecutionException.class);
        assertThatThrownBy(() -> scheduler.execute(job)).isInstanceOf(RejectedExecutionException.class);
        assertThatThrownBy(() -> scheduler.submit(job)).isInstanceOf(RejectedExecutionException.class);
        assertThatCode(() -> {
            scheduler.shutdown();
            scheduler.close();
        }).doesNotThrowAnyException();
        assertThat(scheduler.shutdownNow()).isEmpty();
        assertThat(scheduler.isTerminated()).isTrue();
        assertThat(scheduler.awaitTermination(Long.MIN_VALUE, TimeUnit.NANOSECONDS)).isTrue();
    }

    /**
     * A timeout of {@code Long.MIN_VALUE} is as spent as one of 0: a timed {@code get} fails, {@code awaitTermination}
     * answers and a timed {@code invokeAll} runs nothing, at once, as {@code FutureTask} and
     * {@code AbstractExecutorService} do (not after a wait that a wrapped deadline made endless).
     */
    @Test
    @Timeout(10)
    void theMostNegativeTimeoutIsSpentAtOnce() throws Exception {
        scheduler = DelayScheduler.create(1);
        ScheduledFuture<?> later = scheduler.schedule(() -> { }, 1, TimeUnit.HOURS);
        assertThatThrownBy(() -> later.get(Long.MIN_VALUE, TimeUnit.NANOSECONDS))
                .isInstanceOf(TimeoutException.class);
        AtomicInteger ran = new AtomicInteger();
        List<Future<Integer>> futures = scheduler.invokeAll(List.of(ran::incrementAndGet, ran::incrementAndGet),
                Long.MIN_VALUE, TimeUnit.NANOSECONDS);
        assertThat(futures).allMatch(Future::isCancelled);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch running = new CountDownLatch(1);
        scheduler.execute(() -> {
            running.countDown();
            awaitQuietly(release);
        });
        assertThat(running.await(5, TimeUnit.SECONDS)).isTrue();
        scheduler.shutdown();
        try {
            assertThat(scheduler.awaitTermination(Long.MIN_VALUE, TimeUnit.NANOSECONDS)).isFalse();
        } finally {
            release.countDown();
        }
        assertThat(ran).hasValue(0);
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void aJobSchedulesOnItsOwnSchedulerAndCancelsItself() throws Exception {
        scheduler = DelayScheduler.create(1);
        CompletableFuture<String> inner = new CompletableFuture<>();
        scheduler.scheduleOnce(() -> scheduler.scheduleOnce(() -> inner.complete("inner ran"), Duration.ZERO),
                Duration.ZERO);
        assertThat(inner.get(5, TimeUnit.SECONDS)).isEqualTo("inner ran");

        CompletableFuture<ScheduledFuture<?>> self = new CompletableFuture<>();
        CompletableFuture<Boolean> cancelledItself = new CompletableFuture<>();
        self.complete(scheduler.scheduleRepeating(() -> self.thenAccept(f -> cancelledItself.complete(f.cancel(false))),
                Duration.ofMillis(1)));
        assertThat(cancelledItself.get(5, TimeUnit.SECONDS)).as("a running periodic job can cancel itself").isTrue();
        assertThat(self.get().isCancelled()).isTrue();
    }

    @Test
    void aJobShutsDownItsOwnSchedulerWithoutDeadlockAndPendingOneShotsStillRun() throws Exception {
        scheduler = DelayScheduler.create(1);
        CountDownLatch later = new CountDownLatch(1);
        scheduler.scheduleOnce(later::countDown, Duration.ofMillis(20));
        CompletableFuture<Boolean> waitedForItself = new CompletableFuture<>();
        scheduler.scheduleOnce(() -> {
            scheduler.shutdown();
            try {
                // waiting for its own termination from inside a job can only time out: the job is still running
                waitedForItself.complete(scheduler.awaitTermination(20, TimeUnit.MILLISECONDS));
            } catch (InterruptedException e) {
                waitedForItself.completeExceptionally(e);
            }
        }, Duration.ZERO);
        assertThat(waitedForItself.get(5, TimeUnit.SECONDS)).isFalse();
        assertThat(later.await(5, TimeUnit.SECONDS)).as("the pending one-shot job still ran").isTrue();
        assertThat(scheduler.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
    }
}
