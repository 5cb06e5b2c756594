package io.github.poolkit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static java.util.concurrent.TimeUnit.HOURS;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.NANOSECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** The life cycle: shutdown, shutdownNow, close, rejection and termination. */
@Timeout(20)
class DelaySchedulerShutdownTest {

    private final DelaySchedulerFixture fixture = new DelaySchedulerFixture();

    @AfterEach
    void stopSchedulers() throws InterruptedException {
        fixture.close();
    }

    @Test
    void cancellingTheLastPendingJobAfterShutdownLetsTheSchedulerTerminateAtOnce() throws Exception {
        DelayScheduler s = fixture.create(1);
        AtomicBoolean ran = new AtomicBoolean();
        ScheduledFuture<?> later = s.scheduleOnce(() -> ran.set(true), Duration.ofHours(1));
        s.shutdown();
        assertThat(s.awaitTermination(50, MILLISECONDS)).as("the one-shot job is still pending").isFalse();
        assertThat(later.cancel(false)).isTrue();
        assertThat(s.pending()).isZero();
        assertThat(s.awaitTermination(5, TimeUnit.SECONDS)).as("terminated without waiting for the hour").isTrue();
        s.close(); // returns at once
        assertThat(ran).isFalse();
    }

    /**
     * Whoever sees the scheduler terminated while a shutdown runs sees every periodic job cancelled: the timer thread,
     * which finishes the scheduler once its heap is empty, used to do so while the shutdown was still cancelling the
     * periodic jobs it had taken out of the heap (as {@code ScheduledThreadPoolExecutor} never does).
     */
    @Test
    void aSchedulerSeenTerminatedDuringAShutdownHasCancelledEveryPeriodicJob() throws Exception {
        DelayScheduler s = fixture.create(1);
        List<ScheduledFuture<?>> futures = new java.util.ArrayList<>();
        for (int i = 0; i < 100_000; i++) {
            futures.add(s.scheduleAtFixedRate(() -> { }, 1, 1, HOURS));
        }
        AtomicInteger notDone = new AtomicInteger(-1);
        CountDownLatch watching = new CountDownLatch(1);
        Thread watcher = Thread.ofPlatform().start(() -> {
            watching.countDown();
            try {
                if (s.awaitTermination(10, SECONDS)) {
                    notDone.set((int) futures.stream().filter(f -> !f.isDone()).count());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        watching.await();
        s.shutdown();
        watcher.join();
        assertThat(notDone).hasValue(0);
    }

    @Test
    void shutdownRunsPendingOneShotJobsAndCancelsPeriodicOnes() throws Exception {
        DelayScheduler s = fixture.create(2);
        CountDownLatch runningStarted = new CountDownLatch(1);
        CountDownLatch runningGate = new CountDownLatch(1);
        AtomicInteger runningRuns = new AtomicInteger();
        ScheduledFuture<?> running = s.scheduleWithFixedDelay(() -> {
            runningRuns.incrementAndGet();
            runningStarted.countDown();
            awaitQuietly(runningGate);
        }, 0, 1, MILLISECONDS);
        runningStarted.await();
        AtomicInteger periodicRuns = new AtomicInteger();
        ScheduledFuture<?> periodic = s.scheduleAtFixedRate(periodicRuns::incrementAndGet, 1, 1, HOURS);
        AtomicBoolean oneShotRan = new AtomicBoolean();
        // the checks up to the shutdown take microseconds; the margin covers a long GC pause
        ScheduledFuture<?> oneShot = s.schedule(() -> oneShotRan.set(true), 2, TimeUnit.SECONDS);
        assertThat(s.pending()).isEqualTo(2);

        s.shutdown();

        assertThat(s.isShutdown()).isTrue();
        assertThat(periodic.isCancelled()).as("pending periodic job cancelled at once").isTrue();
        assertThat(s.pending()).as("only the one-shot job is left").isEqualTo(1);
        assertThat(oneShot.isDone()).isFalse();
        assertThat(running.isDone()).as("a periodic job still running is not done (as ScheduledThreadPoolExecutor)")
                .isFalse();
        assertThat(s.isTerminated()).isFalse();
        runningGate.countDown();
        assertThat(s.awaitTermination(10, TimeUnit.SECONDS)).isTrue();

        assertThat(oneShotRan).isTrue();
        assertThat(oneShot.get()).isNull();
        assertThat(running.isCancelled()).as("running periodic job cancelled after its run").isTrue();
        assertThat(runningRuns.get()).isEqualTo(1);
        assertThat(periodicRuns.get()).isZero();
        assertThat(s.isTerminated()).isTrue();
        assertThat(s.pending()).isZero();
        await().until(() -> !timerThreadAlive(fixture.lastName()));
    }

    @Test
    void closeWaitsForPendingOneShotJobsAndReturnsDespitePeriodicOnes() {
        DelayScheduler s = fixture.create(1);
        AtomicBoolean ran = new AtomicBoolean();
        s.scheduleOnce(() -> ran.set(true), Duration.ofMillis(100));
        ScheduledFuture<?> repeating = s.scheduleRepeating(() -> { }, Duration.ofMillis(1));

        s.close();

        assertThat(ran).isTrue();
        assertThat(repeating.isCancelled()).isTrue();
        assertThat(s.isTerminated()).isTrue();
    }

    @Test
    void everySchedulingMethodRejectsAfterShutdown() {
        DelayScheduler s = fixture.create(1);
        s.shutdown();
        s.shutdown(); // idempotent
        Runnable r = () -> { };
        List<Runnable> attempts = List.of(
                () -> s.scheduleOnce(r, Duration.ofMillis(5)),
                () -> s.scheduleOnce(r, Duration.ZERO),
                () -> s.scheduleRepeating(r, Duration.ofMillis(5)),
                () -> s.schedule(r, 5, MILLISECONDS),
                () -> s.schedule(() -> "x", 5, MILLISECONDS),
                () -> s.scheduleAtFixedRate(r, 0, 5, MILLISECONDS),
                () -> s.scheduleWithFixedDelay(r, 5, 5, MILLISECONDS),
                () -> s.execute(r),
                () -> s.submit(r),
                () -> s.submit(() -> "x"));
        for (Runnable attempt : attempts) {
            assertThatThrownBy(attempt::run).isInstanceOf(RejectedExecutionException.class)
                    .hasMessageContaining("shut down");
        }
        assertThat(s.pending()).isZero();
    }

    @Test
    void shutdownNowCancelsAndReturnsPendingAndQueuedJobsAndInterruptsRunningOnes() throws Exception {
        DelayScheduler s = fixture.create(1);
        CountDownLatch started = new CountDownLatch(1);
        AtomicBoolean interrupted = new AtomicBoolean();
        s.execute(() -> {
            started.countDown();
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                interrupted.set(true);
            }
        });
        started.await();
        AtomicInteger ran = new AtomicInteger();
        Future<?> queued1 = s.submit(ran::incrementAndGet);
        Future<?> queued2 = s.submit(ran::incrementAndGet);
        ScheduledFuture<?> pending1 = s.schedule(ran::incrementAndGet, 1, HOURS);
        ScheduledFuture<?> pending2 = s.scheduleOnce(ran::incrementAndGet, Duration.ofMinutes(5));
        ScheduledFuture<?> pendingPeriodic = s.scheduleRepeating(ran::incrementAndGet, Duration.ofMinutes(1));

        List<Runnable> returned = s.shutdownNow();

        assertThat(returned).containsExactlyInAnyOrder((Runnable) pending1, (Runnable) pending2,
                (Runnable) pendingPeriodic, (Runnable) queued1, (Runnable) queued2);
        assertThat(List.of(queued1, queued2, pending1, pending2, pendingPeriodic)).allMatch(Future::isCancelled);
        assertThat(s.pending()).isZero();
        assertThat(s.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        assertThat(interrupted).isTrue();
        assertThat(ran.get()).isZero();
        assertThat(s.shutdownNow()).isEmpty();
        await().until(() -> !timerThreadAlive(fixture.lastName()));
    }

    /**
     * {@code invokeAll}/{@code invokeAny} hand each task to the scheduler as a future of its own, wrapped in a job;
     * {@code shutdownNow} cancelled the job but not the future inside it, so a caller waiting for that future waited
     * forever (the job returned to the caller of {@code shutdownNow} is cancelled: running it runs nothing).
     */
    @Test
    void shutdownNowEndsTheWaitOfInvokeAllAndInvokeAnyForTheTasksItCancels() throws Exception {
        DelayScheduler s = fixture.create(1);
        CountDownLatch started = new CountDownLatch(1);
        s.execute(() -> {
            started.countDown();
            awaitQuietly(new CountDownLatch(1)); // until shutdownNow interrupts it
        });
        started.await();
        AtomicInteger ran = new AtomicInteger();
        java.util.concurrent.Callable<Integer> task = ran::incrementAndGet;
        java.util.concurrent.ExecutorService callers = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            Future<List<Future<Integer>>> all = callers.submit(() -> s.invokeAll(List.of(task, task)));
            Future<Integer> any = callers.submit(() -> s.invokeAny(List.of(task)));
            await().until(() -> s.stats().queued() == 3);

            List<Runnable> returned = s.shutdownNow();

            assertThat(returned).hasSize(3);
            assertThat(all.get(10, SECONDS)).hasSize(2).allMatch(Future::isCancelled);
            assertThatThrownBy(() -> any.get(10, SECONDS)).isInstanceOf(java.util.concurrent.ExecutionException.class)
                    .cause().isInstanceOf(java.util.concurrent.ExecutionException.class)
                    .cause().isInstanceOf(CancellationException.class);
            assertThat(s.awaitTermination(10, SECONDS)).isTrue();
            assertThat(ran).hasValue(0);
        } finally {
            callers.shutdownNow();
        }
    }

    @Test
    void shutdownNowInterruptsARunningPeriodicJobAndCancelsIt() throws Exception {
        DelayScheduler s = fixture.create(1);
        CountDownLatch started = new CountDownLatch(1);
        AtomicInteger runs = new AtomicInteger();
        AtomicBoolean interrupted = new AtomicBoolean();
        ScheduledFuture<?> periodic = s.scheduleAtFixedRate(() -> {
            runs.incrementAndGet();
            started.countDown();
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                interrupted.set(true);
            }
        }, 0, 1, MILLISECONDS);
        started.await();

        assertThat(s.shutdownNow()).as("nothing pending or queued").isEmpty();

        assertThat(s.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        assertThat(interrupted).isTrue();
        assertThat(periodic.isCancelled()).isTrue();
        assertThat(runs.get()).isEqualTo(1);
    }

    /**
     * As {@code ThreadPoolExecutor}: a terminated scheduler, or a wait of no time, answers at once, even with the
     * interrupt status set, which it keeps; only a wait that blocks throws {@code InterruptedException}.
     */
    @Test
    void awaitTerminationAnswersATerminatedSchedulerOrANoTimeWaitDespiteAnInterruptStatus() throws Exception {
        DelayScheduler pending = fixture.create(1);
        pending.schedule(() -> { }, 1, HOURS);
        pending.shutdown();
        DelayScheduler idle = fixture.create(1);
        idle.shutdown();
        assertThat(idle.isTerminated()).isTrue();
        Thread.currentThread().interrupt();
        try {
            assertThat(idle.awaitTermination(0, SECONDS)).isTrue();
            assertThat(idle.awaitTermination(1, HOURS)).isTrue();
            assertThat(pending.awaitTermination(0, SECONDS)).isFalse();
            assertThat(Thread.currentThread().isInterrupted()).as("the status is kept").isTrue();
            assertThatThrownBy(() -> pending.awaitTermination(1, HOURS)).isInstanceOf(InterruptedException.class);
        } finally {
            Thread.interrupted();
        }
        pending.shutdownNow();
    }

    @Test
    void awaitTerminationTimesOutWhileRunning() throws Exception {
        DelayScheduler s = fixture.create(1);
        assertThat(s.awaitTermination(10, MILLISECONDS)).isFalse();
        s.schedule(() -> { }, 1, HOURS);
        s.shutdown();
        assertThat(s.awaitTermination(10, MILLISECONDS)).as("a one-shot job is still pending").isFalse();
        assertThat(s.isTerminated()).isFalse();
        s.shutdownNow();
        assertThat(s.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    /** The JDK's CloseTest.testTerminateBeforeClose: nothing pending, nothing running, so terminated at once. */
    @RepeatedTest(20)
    void aSchedulerWithNothingToDoIsTerminatedWhenShutdownReturns() {
        DelayScheduler idle = fixture.create(1);
        idle.shutdown();
        assertThat(idle.isTerminated()).isTrue();

        DelayScheduler stopped = fixture.create(1);
        assertThat(stopped.shutdownNow()).isEmpty();
        assertThat(stopped.isTerminated()).isTrue();

        DelayScheduler cancelledOnly = fixture.create(1);
        assertThat(cancelledOnly.schedule(() -> { }, 1, HOURS).cancel(false)).isTrue();
        cancelledOnly.scheduleAtFixedRate(() -> { }, 1, 1, HOURS); // cancelled by the shutdown
        cancelledOnly.shutdown();
        assertThat(cancelledOnly.isTerminated()).isTrue();
        cancelledOnly.close(); // returns at once
    }

    /**
     * A job whose future a caller saw done is not running: its worker's bookkeeping after the future completed does
     * not keep the scheduler from being terminated when {@code shutdown()} returns (it did, about one time in four on
     * two processors: the worker left a moment later).
     */
    @Test
    void aSchedulerWhoseLastJobIsDoneIsTerminatedWhenShutdownReturns() throws Exception {
        for (int i = 0; i < 200; i++) {
            DelayScheduler s = fixture.create(2);
            s.submit(() -> { }).get(10, SECONDS);
            s.schedule(() -> "x", 1, NANOSECONDS).get(10, SECONDS);
            s.shutdown();
            assertThat(s.isTerminated()).as("round " + i).isTrue();
        }
    }

    @RepeatedTest(20)
    void shutdownCancelsAtOnceADuePeriodicJobThatWaitsForABusyWorker() throws Exception {
        DelayScheduler s = fixture.create(1);
        CountDownLatch busy = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        s.execute(() -> {
            busy.countDown();
            awaitQuietly(release);
        });
        busy.await();
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> due = s.scheduleAtFixedRate(runs::incrementAndGet, 1, 1, MILLISECONDS);
        ScheduledFuture<?> dueAtOnce = s.scheduleWithFixedDelay(runs::incrementAndGet, 0, 1, MILLISECONDS);
        await().until(() -> s.pending() == 0); // both handed to the pool's queue, behind the busy worker
        assertThat(s.stats().queued()).as("waiting in the pool's queue").isEqualTo(2);

        s.shutdown();

        assertThat(due.isCancelled()).isTrue();
        assertThat(dueAtOnce.isCancelled()).isTrue();
        assertThatThrownBy(() -> due.get(1, TimeUnit.SECONDS)).isInstanceOf(CancellationException.class);
        assertThatThrownBy(dueAtOnce::get).isInstanceOf(CancellationException.class);
        assertThat(s.isTerminated()).as("the busy worker still runs").isFalse();
        release.countDown();
        assertThat(s.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        assertThat(runs).hasValue(0);
    }

    @Test
    void aRunningPeriodicJobIsCancelledWhenItsRunEndsNotBefore() throws Exception {
        DelayScheduler s = fixture.create(1);
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger runs = new AtomicInteger();
        AtomicBoolean finished = new AtomicBoolean();
        ScheduledFuture<?> running = s.scheduleAtFixedRate(() -> {
            runs.incrementAndGet();
            started.countDown();
            awaitQuietly(release);
            finished.set(true);
        }, 0, 1, MILLISECONDS);
        started.await();

        s.shutdown();

        // As ScheduledThreadPoolExecutor: done when the run under way ends, not while it still runs.
        assertThat(running.isDone()).isFalse();
        assertThat(running.isCancelled()).isFalse();
        release.countDown();
        assertThat(s.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        assertThat(running.isCancelled()).isTrue();
        assertThatThrownBy(running::get).isInstanceOf(CancellationException.class);
        assertThat(finished).as("the run was not interrupted").isTrue();
        assertThat(runs).hasValue(1);
    }

    private static boolean timerThreadAlive(String name) {
        return Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.getName().equals(name + "-timer") && t.isAlive());
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
