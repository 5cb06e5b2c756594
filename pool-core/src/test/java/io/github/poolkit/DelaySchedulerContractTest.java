package io.github.poolkit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static java.util.concurrent.TimeUnit.DAYS;
import static java.util.concurrent.TimeUnit.HOURS;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.NANOSECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The {@code ScheduledExecutorService} contract at its edges: jobs that cancel themselves, cancels that race the
 * firing, jobs caught between the timer and the pool by {@code shutdownNow}, extreme delays, and the invoke methods.
 */
@Timeout(30)
class DelaySchedulerContractTest {

    private final DelaySchedulerFixture fixture = new DelaySchedulerFixture();

    @AfterEach
    void stopSchedulers() throws InterruptedException {
        fixture.close();
    }

    // ------------------------------------------------------------ shutdownNow

    /**
     * The timer takes due jobs from the pending set in a batch and then hands them to the pool one by one. A
     * shutdownNow that comes while a batch is being handed over must still return the jobs of the batch not yet
     * handed over: they never run, so they are "tasks that never commenced execution". The thread factory, which the
     * pool calls on the timer thread when it starts a worker for a due job, holds the timer in the middle of a batch.
     */
    @RepeatedTest(5)
    void shutdownNowReturnsDueJobsTheTimerHadNotYetHandedToThePool() throws Exception {
        TimerHoldingFactory factory = new TimerHoldingFactory(2);
        DelayScheduler s = fixture.create(2, PoolOptions.builder().threadFactory(factory));
        CountDownLatch firstStarted = new CountDownLatch(1);
        AtomicBoolean firstInterrupted = new AtomicBoolean();
        s.schedule(() -> {
            firstStarted.countDown();
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                firstInterrupted.set(true);
            }
        }, 1, NANOSECONDS);
        factory.awaitHeld(0); // the timer is handing the first job over, making the first worker
        AtomicInteger ran = new AtomicInteger();
        ScheduledFuture<?> a = s.schedule(ran::incrementAndGet, 1, NANOSECONDS);
        ScheduledFuture<?> b = s.schedule(ran::incrementAndGet, 1, NANOSECONDS);
        // both are due now: the timer's next batch is [a, b], and handing a over makes the second worker
        factory.release(0);
        firstStarted.await();
        factory.awaitHeld(1); // the timer holds [a, b] and is handing a over

        List<Runnable> returned = s.shutdownNow();

        factory.release(1);
        assertThat(s.awaitTermination(10, SECONDS)).isTrue();
        assertThat(firstInterrupted).isTrue();
        assertThat(b.isCancelled()).as("b was never handed to the pool").isTrue();
        List<Runnable> neverStarted = new ArrayList<>();
        for (ScheduledFuture<?> f : List.of(a, b)) {
            if (f.isCancelled()) {
                neverStarted.add((Runnable) f);
            }
        }
        assertThat(returned).as("every job cancelled without a run is returned").containsAll(neverStarted);
        assertThat(ran.get() + neverStarted.size()).as("each job ran or was returned, never both").isEqualTo(2);
    }

    /** shutdownNow racing the timer's hand-over of many due jobs: each job runs or is returned, once. */
    @RepeatedTest(5)
    void shutdownNowRacingTheTimerLosesNoJob() throws Exception {
        DelayScheduler s = fixture.create(2);
        int jobs = 2_000;
        AtomicInteger[] runs = new AtomicInteger[jobs];
        List<ScheduledFuture<?>> futures = new ArrayList<>();
        for (int i = 0; i < jobs; i++) {
            AtomicInteger count = runs[i] = new AtomicInteger();
            futures.add(s.schedule(count::incrementAndGet, 1 + (i % 200) * 1_000L, NANOSECONDS));
        }
        await().until(() -> s.pending() < jobs / 2);

        List<Runnable> returned = s.shutdownNow();

        assertThat(s.awaitTermination(10, SECONDS)).isTrue();
        java.util.Set<Runnable> back = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        back.addAll(returned);
        assertThat(back).hasSameSizeAs(returned);
        for (int i = 0; i < jobs; i++) {
            ScheduledFuture<?> f = futures.get(i);
            boolean wasReturned = back.contains((Runnable) f);
            assertThat(runs[i].get() + (wasReturned ? 1 : 0)).as("job %d: runs %d, returned %s, %s", i,
                    runs[i].get(), wasReturned, f).isEqualTo(1);
            assertThat(f.isCancelled()).as("job %d", i).isEqualTo(wasReturned);
        }
    }

    @Test
    void shutdownNowReturnsTheJobsThemselvesAlsoWhenTheOverdueWatchIsOn() throws Exception {
        DelayScheduler s = fixture.create(1, PoolOptions.builder().queueTimeout(Duration.ofHours(1))
                .runTimeout(Duration.ofHours(1)));
        CountDownLatch busy = new CountDownLatch(1);
        s.execute(() -> {
            busy.countDown();
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                // shutdownNow
            }
        });
        busy.await();
        Future<?> queued = s.submit(() -> { });
        ScheduledFuture<?> repeating = s.scheduleAtFixedRate(() -> { }, 0, 1, HOURS);

        List<Runnable> returned = s.shutdownNow();

        assertThat(returned).containsExactlyInAnyOrder((Runnable) queued, (Runnable) repeating);
        assertThat(queued.isCancelled()).isTrue();
        assertThat(repeating.isCancelled()).isTrue();
        assertThat(s.awaitTermination(10, SECONDS)).isTrue();
    }

    @Test
    void shutdownNowAfterShutdownReturnsTheOneShotJobsStillPending() throws Exception {
        DelayScheduler s = fixture.create(1);
        AtomicInteger ran = new AtomicInteger();
        ScheduledFuture<?> oneShot = s.schedule(ran::incrementAndGet, 1, HOURS);
        ScheduledFuture<?> periodic = s.scheduleAtFixedRate(ran::incrementAndGet, 1, 1, HOURS);
        s.shutdown();
        assertThat(periodic.isCancelled()).isTrue();
        assertThat(s.isTerminated()).isFalse();

        assertThat(s.shutdownNow()).containsExactly((Runnable) oneShot);

        assertThat(oneShot.isCancelled()).isTrue();
        assertThat(s.awaitTermination(10, SECONDS)).isTrue();
        assertThat(ran).hasValue(0);
    }

    /** As ExecutorService.close(): interrupted while waiting, it stops the scheduler and still waits for the end. */
    @Test
    void closeInterruptedWhileWaitingStopsTheSchedulerAndKeepsTheInterrupt() throws Exception {
        DelayScheduler s = fixture.create(1);
        CountDownLatch started = new CountDownLatch(1);
        AtomicBoolean jobInterrupted = new AtomicBoolean();
        s.execute(() -> {
            started.countDown();
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                jobInterrupted.set(true);
            }
        });
        ScheduledFuture<?> later = s.schedule(() -> { }, 1, HOURS);
        started.await();
        AtomicBoolean interruptKept = new AtomicBoolean();
        Thread closer = new Thread(() -> {
            s.close();
            interruptKept.set(Thread.currentThread().isInterrupted());
        });
        closer.start();
        await().until(() -> closer.getState() == Thread.State.TIMED_WAITING
                || closer.getState() == Thread.State.WAITING);
        closer.interrupt();
        closer.join(10_000);
        assertThat(closer.isAlive()).isFalse();
        assertThat(interruptKept).isTrue();
        assertThat(jobInterrupted).isTrue();
        assertThat(later.isCancelled()).isTrue();
        assertThat(s.isTerminated()).isTrue();
    }

    @Test
    void aSchedulerOnVirtualThreadsKeepsTheSamePolicies() throws Exception {
        DelayScheduler s = fixture.create(2, PoolOptions.builder().virtualThreads(true));
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch twice = new CountDownLatch(2);
        ScheduledFuture<?> periodic = s.scheduleWithFixedDelay(() -> {
            assertThat(Thread.currentThread().isVirtual()).isTrue();
            runs.incrementAndGet();
            twice.countDown();
        }, 0, 1, MILLISECONDS);
        twice.await();
        ScheduledFuture<String> oneShot = s.schedule(() -> "later", 50, MILLISECONDS);
        s.shutdown();
        assertThat(s.awaitTermination(10, SECONDS)).isTrue();
        assertThat(periodic.isCancelled()).isTrue();
        assertThat(oneShot.get()).isEqualTo("later");
    }

    // ------------------------------------------------------------ cancel from inside, and cancel racing the firing

    @RepeatedTest(5)
    void aPeriodicJobThatCancelsItselfInItsRunStopsAndKeepsNoInterrupt() throws Exception {
        DelayScheduler s = fixture.create(1);
        for (boolean fixedRate : new boolean[] {true, false}) {
            for (boolean interrupt : new boolean[] {true, false}) {
                AtomicInteger runs = new AtomicInteger();
                AtomicReference<ScheduledFuture<?>> self = new AtomicReference<>();
                CountDownLatch scheduled = new CountDownLatch(1);
                AtomicReference<Boolean> cancelResult = new AtomicReference<>();
                Runnable job = () -> {
                    awaitQuietly(scheduled);
                    if (runs.incrementAndGet() == 2) {
                        cancelResult.set(self.get().cancel(interrupt));
                    }
                };
                self.set(fixedRate ? s.scheduleAtFixedRate(job, 0, 1, MILLISECONDS)
                        : s.scheduleWithFixedDelay(job, 0, 1, MILLISECONDS));
                scheduled.countDown();
                ScheduledFuture<?> f = self.get();
                assertThatThrownBy(() -> f.get(10, SECONDS)).isInstanceOf(CancellationException.class);
                assertThat(s.submit(() -> Thread.currentThread().isInterrupted()).get())
                        .as("the next task is not interrupted (fixed rate %s, interrupt %s)", fixedRate, interrupt)
                        .isFalse();
                assertThat(s.schedule(() -> { }, 10, MILLISECONDS).get()).isNull(); // 10 periods later
                assertThat(cancelResult.get()).isTrue();
                assertThat(runs.get()).as("no run after the one that cancelled").isEqualTo(2);
                assertThat(f.isCancelled()).isTrue();
                assertThat(s.pending()).isZero();
            }
        }
        assertThat(fixture.panics).isEmpty();
    }

    /** Cancels race the timer and the workers; each job runs at most once, and its future agrees with what happened. */
    @RepeatedTest(5)
    void aCancelRacingTheFiringNeverLetsAJobRunTwiceOrContradictItsFuture() throws Exception {
        DelayScheduler s = fixture.create(2);
        int jobs = 500;
        AtomicInteger[] runs = new AtomicInteger[jobs];
        List<ScheduledFuture<Integer>> futures = new ArrayList<>();
        for (int i = 0; i < jobs; i++) {
            AtomicInteger count = runs[i] = new AtomicInteger();
            int value = i;
            futures.add(s.schedule(() -> {
                count.incrementAndGet();
                return value;
            }, (i % 10) * 50_000L, NANOSECONDS));
        }
        boolean[] cancelled = new boolean[jobs];
        for (int i = jobs - 1; i >= 0; i--) {
            cancelled[i] = futures.get(i).cancel(i % 2 == 0);
        }
        s.shutdown();
        assertThat(s.awaitTermination(10, SECONDS)).isTrue();
        for (int i = 0; i < jobs; i++) {
            ScheduledFuture<Integer> f = futures.get(i);
            assertThat(runs[i].get()).as("job %d runs", i).isLessThanOrEqualTo(1);
            assertThat(f.isDone()).isTrue();
            if (cancelled[i]) {
                assertThat(f.isCancelled()).isTrue();
            } else {
                assertThat(runs[i].get()).as("job %d could not be cancelled: it ran", i).isEqualTo(1);
                assertThat(f.get()).isEqualTo(i);
            }
        }
        assertThat(s.pending()).isZero();
    }

    @RepeatedTest(5)
    void aCancelledPeriodicJobRunsAtMostTheRunUnderWayAndNeverOverlaps() throws Exception {
        DelayScheduler s = fixture.create(4);
        AtomicInteger runs = new AtomicInteger();
        AtomicInteger inRun = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        ScheduledFuture<?> job = s.scheduleAtFixedRate(() -> {
            if (inRun.incrementAndGet() > 1) {
                overlaps.incrementAndGet();
            }
            runs.incrementAndGet();
            inRun.decrementAndGet();
        }, 0, 20_000, NANOSECONDS);
        await().until(() -> runs.get() >= 50);
        assertThat(job.cancel(false)).isTrue();
        int atCancel = runs.get();
        s.shutdown();
        assertThat(s.awaitTermination(10, SECONDS)).isTrue();
        assertThat(runs.get()).isBetween(atCancel, atCancel + 1);
        assertThat(overlaps).hasValue(0);
    }

    /**
     * shutdown() racing the runs of periodic jobs: a job is never done while a run of it is under way (it is
     * cancelled when that run ends), runs never overlap, and every one ends cancelled.
     */
    @RepeatedTest(5)
    void shutdownRacingPeriodicRunsNeverReportsARunningJobDone() throws Exception {
        DelayScheduler s = fixture.create(4);
        int jobs = 8;
        List<AtomicReference<ScheduledFuture<?>>> selves = new ArrayList<>();
        AtomicInteger[] runs = new AtomicInteger[jobs];
        AtomicInteger doneWhileRunning = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        List<ScheduledFuture<?>> futures = new ArrayList<>();
        for (int i = 0; i < jobs; i++) {
            AtomicReference<ScheduledFuture<?>> self = new AtomicReference<>();
            AtomicInteger count = runs[i] = new AtomicInteger();
            AtomicInteger inRun = new AtomicInteger();
            Runnable job = () -> {
                if (inRun.incrementAndGet() > 1) {
                    overlaps.incrementAndGet();
                }
                count.incrementAndGet();
                ScheduledFuture<?> f = self.get();
                if (f != null && f.isDone()) {
                    doneWhileRunning.incrementAndGet();
                }
                inRun.decrementAndGet();
            };
            ScheduledFuture<?> f = i % 2 == 0 ? s.scheduleAtFixedRate(job, 0, 20_000, NANOSECONDS)
                    : s.scheduleWithFixedDelay(job, 0, 20_000, NANOSECONDS);
            self.set(f);
            futures.add(f);
        }
        await().until(() -> java.util.Arrays.stream(runs).allMatch(r -> r.get() >= 5));

        s.shutdown();

        assertThat(s.awaitTermination(10, SECONDS)).isTrue();
        assertThat(doneWhileRunning).hasValue(0);
        assertThat(overlaps).hasValue(0);
        assertThat(futures).allMatch(Future::isCancelled);
        int[] after = java.util.Arrays.stream(runs).mapToInt(AtomicInteger::get).toArray();
        assertThat(s.pending()).isZero();
        assertThat(java.util.Arrays.stream(runs).mapToInt(AtomicInteger::get).toArray()).isEqualTo(after);
    }

    // ------------------------------------------------------------ extreme delays

    @Test
    void extremeDelaysAndPeriodsNeitherOverflowNorFire() throws Exception {
        DelayScheduler s = fixture.create(1);
        AtomicInteger ran = new AtomicInteger();
        ScheduledFuture<?> rate = s.scheduleAtFixedRate(ran::incrementAndGet, Long.MAX_VALUE, Long.MAX_VALUE,
                NANOSECONDS);
        ScheduledFuture<?> days = s.scheduleWithFixedDelay(ran::incrementAndGet, Long.MAX_VALUE, Long.MAX_VALUE, DAYS);
        CountDownLatch once = new CountDownLatch(1);
        ScheduledFuture<?> nowThenNever = s.scheduleAtFixedRate(once::countDown, Long.MIN_VALUE, Long.MAX_VALUE, DAYS);
        ScheduledFuture<?> delayNowThenNever = s.scheduleWithFixedDelay(once::countDown, Long.MIN_VALUE,
                Long.MAX_VALUE, NANOSECONDS);
        ScheduledFuture<String> past = s.schedule(() -> "past", Long.MIN_VALUE, NANOSECONDS);
        assertThat(past.get(10, SECONDS)).isEqualTo("past");
        once.await();
        await().until(() -> s.pending() == 4);
        for (ScheduledFuture<?> f : List.of(rate, days, nowThenNever, delayNowThenNever)) {
            assertThat(f.getDelay(DAYS)).as("%s", f).isGreaterThan(100L * 365);
            assertThat(f.isDone()).isFalse();
            assertThat(past.compareTo(f)).isNegative();
            assertThat(f.compareTo(past)).isPositive();
        }
        assertThat(ran).hasValue(0);
        assertThat(rate.cancel(false)).isTrue();
        assertThat(s.pending()).isEqualTo(3);
    }

    /**
     * Cancelled jobs leave the pending set at once, and the scheduler keeps no reference to them or their tasks: not
     * even to the one the timer thread was sleeping until (the head when it went to sleep, due in an hour), which it
     * kept reachable until that hour had passed (the JDK's DelayedWorkQueue drops it before waiting, too).
     */
    @Test
    void manyCancelledJobsAreForgottenAtOnce() {
        DelayScheduler s = fixture.create(1);
        ScheduledFuture<?> kept = s.schedule(() -> { }, 2, HOURS);
        List<java.lang.ref.WeakReference<Object>> gone = scheduleAndCancel(s, 100_000);
        assertThat(s.pending()).isEqualTo(1);
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            System.gc();
            return gone.stream().filter(t -> t.get() != null).count() == 0;
        });
        assertThat(kept.isDone()).isFalse();
    }

    /** In a method of its own, so that no local variable of the test keeps a job or a task reachable. */
    private static List<java.lang.ref.WeakReference<Object>> scheduleAndCancel(DelayScheduler s, int jobs) {
        List<java.lang.ref.WeakReference<Object>> refs = new ArrayList<>(2 * jobs);
        List<ScheduledFuture<?>> futures = new ArrayList<>(jobs);
        for (int i = 0; i < jobs; i++) {
            Runnable task = new AtomicInteger()::incrementAndGet;
            ScheduledFuture<?> f = i % 2 == 0 ? s.schedule(task, 1 + i % 1000, HOURS)
                    : s.scheduleAtFixedRate(task, 1 + i % 1000, 1, HOURS);
            refs.add(new java.lang.ref.WeakReference<>(task));
            refs.add(new java.lang.ref.WeakReference<>(f));
            futures.add(f);
        }
        assertThat(s.pending()).isEqualTo(jobs + 1);
        futures.forEach(f -> f.cancel(false));
        return refs;
    }

    // ------------------------------------------------------------ invokeAll / invokeAny

    @Test
    void invokeAnyReturnsTheFirstSuccessAndInterruptsTheRest() throws Exception {
        DelayScheduler s = fixture.create(2);
        CountDownLatch slowStarted = new CountDownLatch(1);
        AtomicBoolean slowInterrupted = new AtomicBoolean();
        Callable<String> slow = () -> {
            slowStarted.countDown();
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                slowInterrupted.set(true);
            }
            return "slow";
        };
        Callable<String> fast = () -> {
            slowStarted.await();
            return "fast";
        };
        assertThat(s.invokeAny(List.of(slow, fast))).isEqualTo("fast");
        await().untilTrue(slowInterrupted);
        for (int i = 0; i < 4; i++) {
            assertThat(s.submit(() -> Thread.currentThread().isInterrupted()).get()).isFalse();
        }
        Callable<String> failing = () -> {
            throw new IllegalStateException("no");
        };
        assertThatThrownBy(() -> s.invokeAny(List.of(failing, failing))).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(IllegalStateException.class);
    }

    @Test
    void timedInvokeAllCancelsWhatIsNotDone() throws Exception {
        DelayScheduler s = fixture.create(1);
        Callable<String> quick = () -> "quick";
        Callable<String> stuck = () -> {
            new CountDownLatch(1).await();
            return "never";
        };
        List<Future<String>> results = s.invokeAll(List.of(quick, stuck, quick), 200, MILLISECONDS);
        assertThat(results.get(0).get()).isEqualTo("quick");
        assertThat(results.get(1).isCancelled()).isTrue();
        assertThat(results.get(2).isCancelled()).as("queued behind the stuck one").isTrue();
        assertThat(s.submit(() -> "after").get(10, SECONDS)).isEqualTo("after");
    }

    // ------------------------------------------------------------ the overdue watch

    /** Each run of a periodic job is watched on its own, and named by the job as scheduled, not by its decorator. */
    @Test
    void everyOverdueRunOfAPeriodicJobIsReportedUnderTheJobsName() throws Exception {
        List<OverdueTask> reports = new java.util.concurrent.CopyOnWriteArrayList<>();
        DelayScheduler s = fixture.create(1, PoolOptions.builder().runTimeout(Duration.ofMillis(100))
                .taskDecorator(task -> () -> task.run())
                .listener(new PoolListener() {
                    @Override
                    public void taskOverdue(OverdueTask task) {
                        reports.add(task);
                    }
                }));
        AtomicInteger runs = new AtomicInteger();
        Runnable heartbeat = named("heartbeat", () -> {
            int run = runs.incrementAndGet();
            if (run <= 2) { // overrun until this run has been reported
                await().atMost(Duration.ofSeconds(10)).until(() -> reports.size() >= run);
            }
        });
        ScheduledFuture<?> job = s.scheduleWithFixedDelay(heartbeat, 0, 1, MILLISECONDS);
        await().until(() -> runs.get() >= 4);
        job.cancel(false);
        assertThat(reports).hasSize(2).allSatisfy(r -> {
            assertThat(r.kind()).isEqualTo(OverdueTask.Kind.RUN);
            assertThat(r.task()).isEqualTo("heartbeat");
        });
    }

    /** A job's wait counts from when it fell due: its delay is not a wait, its time behind a busy worker is. */
    @Test
    void aJobWaitsInTheQueueOnlyOnceDueAndIsThenReportedUnderItsName() throws Exception {
        List<OverdueTask> reports = new java.util.concurrent.CopyOnWriteArrayList<>();
        DelayScheduler s = fixture.create(1, PoolOptions.builder().queueTimeout(Duration.ofMillis(100))
                .listener(new PoolListener() {
                    @Override
                    public void taskOverdue(OverdueTask task) {
                        reports.add(task);
                    }
                }));
        CountDownLatch ranLate = new CountDownLatch(1);
        s.scheduleOnce(named("late", ranLate::countDown), Duration.ofMillis(400)); // 4 queue timeouts
        ranLate.await();
        CountDownLatch release = new CountDownLatch(1);
        s.execute(() -> awaitQuietly(release));
        ScheduledFuture<?> waiting = s.scheduleOnce(named("waiting", () -> { }), Duration.ofMillis(1));
        await().until(() -> !reports.isEmpty());
        release.countDown();
        waiting.get(10, SECONDS);
        assertThat(reports).singleElement().satisfies(r -> {
            assertThat(r.kind()).isEqualTo(OverdueTask.Kind.QUEUE);
            assertThat(r.task()).isEqualTo("waiting");
        });
    }

    /** The scheduler's own wrappers of submit(task, result) and of the invoke methods are seen through too. */
    @Test
    void overdueReportsNameTheTasksGivenToSubmitAndInvokeAll() throws Exception {
        List<OverdueTask> reports = new java.util.concurrent.CopyOnWriteArrayList<>();
        DelayScheduler s = fixture.create(1, PoolOptions.builder().runTimeout(Duration.ofMillis(100))
                .listener(new PoolListener() {
                    @Override
                    public void taskOverdue(OverdueTask task) {
                        reports.add(task);
                    }
                }));
        Runnable report = named("report",
                () -> await().atMost(Duration.ofSeconds(10)).until(() -> reports.size() >= 1));
        assertThat(s.submit(report, "result").get(10, SECONDS)).isEqualTo("result");
        Callable<String> invoked = new Callable<>() {
            @Override
            public String call() {
                await().atMost(Duration.ofSeconds(10)).until(() -> reports.size() >= 2);
                return "invoked";
            }

            @Override
            public String toString() {
                return "invoked";
            }
        };
        assertThat(s.invokeAll(List.of(invoked)).get(0).get()).isEqualTo("invoked");
        assertThat(reports).extracting(OverdueTask::task).containsExactly("report", "invoked");
    }

    /** {@return a task that runs {@code body} and whose {@code toString()} is {@code name}} */
    static Runnable named(String name, Runnable body) {
        return new Runnable() {
            @Override
            public void run() {
                body.run();
            }

            @Override
            public String toString() {
                return name;
            }
        };
    }

    // ------------------------------------------------------------ helpers

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
