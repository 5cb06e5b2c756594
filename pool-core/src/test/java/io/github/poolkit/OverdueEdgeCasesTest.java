package io.github.poolkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.github.poolkit.OverdueTaskTest.Blocking;
import io.github.poolkit.OverdueTaskTest.Reports;

/**
 * Overdue tasks beyond the common cases of {@link OverdueTaskTest}: every bad value, every pool kind, the scheduler's
 * repeating jobs and queue, a released pool, a listener that throws, and tasks that end in time.
 *
 * <p>Each repeated test passed 20 runs in a row when it was written; the suite repeats it twice only, since every run
 * waits for the overdue checker's next pass.
 */
@Timeout(30)
class OverdueEdgeCasesTest {

    private static final Duration TIMEOUT = Duration.ofMillis(200);

    private static PoolOptions.Builder options(Reports reports) {
        return PoolOptions.builder().name("edge").listener(reports);
    }

    @Test
    void zeroAndNegativeTimeoutsOfEitherKindAreRefusedBeforeAnyPoolKindSeesThem() {
        for (Duration bad : new Duration[] {Duration.ZERO, Duration.ofNanos(-1), Duration.ofSeconds(-5)}) {
            assertThatThrownBy(() -> PoolOptions.builder().runTimeout(bad)).isInstanceOf(InvalidOptionException.class)
                    .satisfies(e -> assertThat(((InvalidOptionException) e).option()).isEqualTo("runTimeout"));
            assertThatThrownBy(() -> PoolOptions.builder().queueTimeout(bad))
                    .isInstanceOf(InvalidOptionException.class)
                    .satisfies(e -> assertThat(((InvalidOptionException) e).option()).isEqualTo("queueTimeout"));
            assertThatThrownBy(() -> PoolOptions.RUN_TIMEOUT.set(PoolOptions.builder(), bad))
                    .isInstanceOf(InvalidOptionException.class); // the option table's setter is the builder's
        }
        PoolOptions interruptOnly = PoolOptions.builder().interruptOverdue(true).queueTimeout(TIMEOUT).build();
        assertThatThrownBy(() -> WorkerPool.create(1, interruptOnly)).isInstanceOf(InvalidOptionException.class)
                .satisfies(e -> assertThat(((InvalidOptionException) e).option()).isEqualTo("interruptOverdue"));
        assertThatThrownBy(() -> DelayScheduler.create(1, interruptOnly)).isInstanceOf(InvalidOptionException.class);
    }

    @Test
    void theDefaultsWatchNothing() {
        PoolOptions defaults = PoolOptions.defaults();
        assertThat(defaults.runTimeout()).isNull();
        assertThat(defaults.queueTimeout()).isNull();
        assertThat(defaults.interruptOverdue()).isFalse();
        new PoolListener() { }.taskOverdue(new OverdueTask("p", OverdueTask.Kind.QUEUE, "t", null, TIMEOUT, null));
    }

    @Test
    void tasksThatEndInTimeAreNeverReported() {
        Reports reports = new Reports();
        // 1 s: beyond a stall of a loaded machine, and short enough that a report owed to a stale stamp would come
        // within the wait below (the checks run every 125 ms)
        Duration timeout = Duration.ofSeconds(1);
        try (WorkerPool pool = WorkerPool.create(2, options(reports).runTimeout(timeout).queueTimeout(timeout)
                .queueCapacity(-1).build())) {
            CountDownLatch done = new CountDownLatch(200);
            for (int i = 0; i < 200; i++) {
                pool.execute(done::countDown);
            }
            Latches.await(done);
            await().during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(5)).until(() -> reports.tasks.isEmpty());
            assertThat(pool.stats().overdue()).isZero();
        }
    }

    @RepeatedTest(2)
    void aFuncPoolReportsItsArgument() {
        Reports reports = new Reports();
        CountDownLatch release = new CountDownLatch(1);
        FuncPool<String> pool = FuncPool.create(1, arg -> Latches.awaitUninterruptibly(release),
                options(reports).runTimeout(TIMEOUT).build());
        try {
            pool.invoke("the-argument");
            OverdueTask report = reports.awaitOne();
            assertThat(report.kind()).isEqualTo(OverdueTask.Kind.RUN);
            assertThat(report.task()).isEqualTo("the-argument");
            assertThat(report.thread()).startsWith("edge-");
            reports.assertStays(1);
            assertThat(pool.stats().overdue()).isEqualTo(1);
        } finally {
            release.countDown();
            pool.release();
        }
    }

    @RepeatedTest(2)
    void aMultiPoolCountsTheOverdueTasksOfAllItsPools() {
        Reports reports = new Reports();
        MultiPool pool = MultiPool.create(2, 1, MultiPool.LoadBalancing.ROUND_ROBIN,
                options(reports).runTimeout(TIMEOUT).build());
        Blocking first = new Blocking("first");
        Blocking second = new Blocking("second");
        try {
            pool.execute(first);
            pool.execute(second);
            await().atMost(Duration.ofSeconds(10)).until(() -> reports.tasks.size() == 2);
            assertThat(reports.tasks).extracting(OverdueTask::task).containsExactlyInAnyOrder("first", "second");
            assertThat(reports.tasks).extracting(OverdueTask::pool).containsExactlyInAnyOrder("edge-0", "edge-1");
            assertThat(pool.stats().overdue()).isEqualTo(2);
        } finally {
            first.release().countDown();
            second.release().countDown();
            pool.release();
        }
    }

    @RepeatedTest(2)
    void aTaskStillRunningAfterReleaseIsStillReported() {
        Reports reports = new Reports();
        WorkerPool pool = WorkerPool.create(1, options(reports).runTimeout(TIMEOUT).build());
        Blocking task = new Blocking("draining");
        try {
            pool.execute(task);
            Latches.await(task.started());
            pool.release();
            OverdueTask report = reports.awaitOne();
            assertThat(report.task()).isEqualTo("draining");
            assertThat(pool.stats().overdue()).isEqualTo(1);
        } finally {
            task.release().countDown();
        }
    }

    @RepeatedTest(2)
    void aListenerThatThrowsDoesNotStopLaterReports() {
        AtomicInteger calls = new AtomicInteger();
        CountDownLatch second = new CountDownLatch(1);
        PoolListener throwing = new PoolListener() {
            @Override
            public void taskOverdue(OverdueTask task) {
                if (calls.incrementAndGet() == 1) {
                    throw new IllegalStateException("listener failure");
                }
                second.countDown();
            }
        };
        WorkerPool pool = WorkerPool.create(2, PoolOptions.builder().name("edge").listener(throwing)
                .runTimeout(TIMEOUT).build());
        Blocking a = new Blocking("a");
        Blocking b = new Blocking("b");
        try {
            pool.execute(a);
            Latches.await(a.started());
            await().atMost(Duration.ofSeconds(10)).until(() -> calls.get() == 1);
            pool.execute(b);
            Latches.await(second);
            assertThat(pool.stats().overdue()).isEqualTo(2);
        } finally {
            a.release().countDown();
            b.release().countDown();
            pool.release();
        }
    }

    @RepeatedTest(2)
    void aRepeatingJobIsReportedByItselfOncePerRun() {
        Reports reports = new Reports();
        DelayScheduler scheduler = DelayScheduler.create(1, options(reports).runTimeout(TIMEOUT).build());
        Blocking job = new Blocking("heartbeat");
        try {
            ScheduledFuture<?> future = scheduler.scheduleRepeating(job, Duration.ofMillis(5));
            OverdueTask report = reports.awaitOne();
            assertThat(report.kind()).isEqualTo(OverdueTask.Kind.RUN);
            assertThat(report.task()).isEqualTo("heartbeat");
            assertThat(Arrays.stream(report.stack()).map(StackTraceElement::getMethodName)).contains("blockHere");
            reports.assertStays(1);
            future.cancel(false);
        } finally {
            job.release().countDown();
            scheduler.shutdown();
        }
    }

    /** Each run of a repeating job is watched afresh: a second run that overruns is reported again, once. */
    @RepeatedTest(2)
    void aRepeatingJobThatOverrunsInTwoRunsIsReportedOnceForEach() {
        Reports reports = new Reports();
        DelayScheduler scheduler = DelayScheduler.create(1, options(reports).runTimeout(TIMEOUT).build());
        java.util.concurrent.Semaphore proceed = new java.util.concurrent.Semaphore(0);
        java.util.concurrent.atomic.AtomicInteger runs = new java.util.concurrent.atomic.AtomicInteger();
        Runnable job = new Runnable() {
            @Override
            public void run() {
                runs.incrementAndGet();
                proceed.acquireUninterruptibly();
            }

            @Override
            public String toString() {
                return "heartbeat";
            }
        };
        try {
            ScheduledFuture<?> future = scheduler.scheduleRepeating(job, Duration.ofMillis(5));
            reports.awaitOne();
            reports.assertStays(1);
            proceed.release(); // the first run ends; the second starts and overruns too
            await().atMost(Duration.ofSeconds(10)).until(() -> reports.tasks.size() == 2);
            assertThat(runs).hasValue(2);
            assertThat(reports.tasks).extracting(OverdueTask::task).containsExactly("heartbeat", "heartbeat");
            reports.assertStays(2);
            future.cancel(false);
        } finally {
            proceed.release(100);
            scheduler.shutdown();
        }
    }

    @RepeatedTest(2)
    void aSchedulerJobWaitingForItsWorkerPastQueueTimeoutIsReported() {
        Reports reports = new Reports();
        DelayScheduler scheduler = DelayScheduler.create(1, options(reports).queueTimeout(TIMEOUT).build());
        Blocking first = new Blocking("first-job");
        CountDownLatch secondRan = new CountDownLatch(1);
        Runnable second = new OverdueTaskTest.CountingDown("second-job", secondRan);
        try {
            scheduler.scheduleOnce(first, Duration.ZERO);
            Latches.await(first.started());
            scheduler.scheduleOnce(second, Duration.ZERO);
            OverdueTask report = reports.awaitOne();
            assertThat(report.kind()).isEqualTo(OverdueTask.Kind.QUEUE);
            assertThat(report.task()).isEqualTo("second-job");
            assertThat(report.thread()).isNull();
            assertThat(report.stack()).isEmpty();
            first.release().countDown();
            Latches.await(secondRan);
            reports.assertStays(1);
        } finally {
            first.release().countDown();
            scheduler.shutdown();
        }
    }

    @RepeatedTest(2)
    void aSchedulerInterruptsItsOverdueJobWhenAsked() throws Exception {
        Reports reports = new Reports();
        DelayScheduler scheduler = DelayScheduler.create(1, options(reports).runTimeout(TIMEOUT)
                .interruptOverdue(true).build());
        CountDownLatch interrupted = new CountDownLatch(1);
        try {
            scheduler.scheduleOnce(() -> {
                try {
                    new CountDownLatch(1).await(20, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    interrupted.countDown();
                }
            }, Duration.ZERO);
            Latches.await(interrupted);
            assertThat(reports.awaitOne().kind()).isEqualTo(OverdueTask.Kind.RUN);
        } finally {
            scheduler.shutdown();
        }
    }

    @RepeatedTest(2)
    void aQueuedTaskOfAVirtualThreadPoolIsReported() {
        Reports reports = new Reports();
        WorkerPool pool = WorkerPool.create(1, options(reports).virtualThreads(true).queueCapacity(-1)
                .queueTimeout(TIMEOUT).build());
        Blocking first = new Blocking("first");
        Blocking second = new Blocking("waiting-virtual");
        try {
            pool.execute(first);
            Latches.await(first.started());
            pool.execute(second);
            OverdueTask report = reports.awaitOne();
            assertThat(report.kind()).isEqualTo(OverdueTask.Kind.QUEUE);
            assertThat(report.task()).isEqualTo("waiting-virtual");
            first.release().countDown();
            Latches.await(second.started());
            reports.assertStays(1);
        } finally {
            first.release().countDown();
            second.release().countDown();
            pool.release();
        }
    }

    @RepeatedTest(2)
    void aQueueReportComesWithinTheTimeoutPlusAQuarter() {
        Reports reports = new Reports();
        Duration timeout = Duration.ofMillis(400); // max(400 / 4, 100) = 100 ms of grace
        WorkerPool pool = WorkerPool.create(1, options(reports).queueCapacity(1).queueTimeout(timeout).build());
        Blocking first = new Blocking("first");
        try {
            pool.execute(first);
            Latches.await(first.started());
            long accepted = System.nanoTime();
            pool.execute(() -> { });
            OverdueTask report = reports.awaitOne();
            long after = System.nanoTime() - accepted;
            assertThat(report.elapsed()).isGreaterThanOrEqualTo(timeout);
            // the contract's bound is 500 ms; a loaded 2-core CI machine gets room on top
            assertThat(Duration.ofNanos(after)).isLessThan(timeout.plusMillis(100 + 1_500));
        } finally {
            first.release().countDown();
            pool.release();
        }
    }

    @Test
    void theLongestAndShortestTimeoutsWork() {
        Duration longest = Duration.ofSeconds(Long.MAX_VALUE, 999_999_999);
        Reports quiet = new Reports();
        Blocking waiting = new Blocking("waiting");
        try (WorkerPool pool = WorkerPool.create(1, options(quiet).queueCapacity(-1).runTimeout(longest)
                .queueTimeout(longest).interruptOverdue(true).build())) {
            CountDownLatch ran = new CountDownLatch(1);
            pool.execute(waiting);
            pool.execute(ran::countDown);
            Latches.await(waiting.started());
            quiet.assertStays(0);
            waiting.release().countDown();
            Latches.await(ran);
        }
        Reports reports = new Reports();
        Blocking task = new Blocking("one-nanosecond");
        WorkerPool pool = WorkerPool.create(1, options(reports).runTimeout(Duration.ofNanos(1)).build());
        try {
            pool.execute(task);
            assertThat(reports.awaitOne().task()).isEqualTo("one-nanosecond");
            reports.assertStays(1);
        } finally {
            task.release().countDown();
            pool.release();
        }
    }

    /** A callable named for the reports that blocks until released. */
    record BlockingCall(String name, CountDownLatch release) implements java.util.concurrent.Callable<String> {
        @Override
        public String call() {
            Latches.awaitUninterruptibly(release);
            return name;
        }

        @Override
        public String toString() {
            return name;
        }
    }

    @RepeatedTest(5)
    void everyWayOfSubmittingIsReportedByTheSubmittedObject() throws Exception {
        Reports reports = new Reports();
        CountDownLatch release = new CountDownLatch(1);
        WorkerPool pool = WorkerPool.create(8, options(reports).runTimeout(TIMEOUT).build());
        MultiPool multi = MultiPool.create(2, 2, MultiPool.LoadBalancing.ROUND_ROBIN,
                options(reports).runTimeout(TIMEOUT).build());
        DelayScheduler scheduler = DelayScheduler.create(2, options(reports).runTimeout(TIMEOUT).build());
        Thread all = Thread.ofPlatform().start(() -> {
            try {
                pool.invokeAll(java.util.List.of(new BlockingCall("invoke-all", release)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        Thread timed = Thread.ofPlatform().start(() -> {
            try {
                pool.invokeAll(java.util.List.of(new BlockingCall("invoke-all-timed", release)), 20, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        Thread any = Thread.ofPlatform().start(() -> {
            try {
                pool.invokeAny(java.util.List.of(new BlockingCall("invoke-any", release)));
            } catch (Exception e) {
                Thread.currentThread().interrupt();
            }
        });
        try {
            Blocking withResult = new Blocking("submit-with-result");
            pool.submit(withResult, "result");
            Blocking multiSubmitted = new Blocking("multi-submitted");
            multi.submit(multiSubmitted);
            scheduler.schedule(new BlockingCall("scheduled-callable", release), 1, TimeUnit.MILLISECONDS);
            Blocking fixedDelay = new Blocking("fixed-delay");
            scheduler.scheduleWithFixedDelay(fixedDelay, 0, 1, TimeUnit.MILLISECONDS);
            await().atMost(Duration.ofSeconds(15)).until(() -> reports.tasks.size() >= 7);
            assertThat(reports.tasks).extracting(OverdueTask::task).containsExactlyInAnyOrder("invoke-all",
                    "invoke-all-timed", "invoke-any", "submit-with-result", "multi-submitted", "scheduled-callable",
                    "fixed-delay");
            withResult.release().countDown();
            multiSubmitted.release().countDown();
            fixedDelay.release().countDown();
        } finally {
            release.countDown();
            all.join(10_000);
            timed.join(10_000);
            any.join(10_000);
            pool.shutdownNow();
            multi.shutdownNow();
            scheduler.shutdownNow();
        }
    }

    @RepeatedTest(5)
    void everyWayOfGivingASchedulerAJobIsReportedByTheJob() throws Exception {
        Reports reports = new Reports();
        CountDownLatch release = new CountDownLatch(1);
        DelayScheduler scheduler = DelayScheduler.create(8, options(reports).runTimeout(TIMEOUT).build());
        Thread all = Thread.ofPlatform().start(() -> {
            try {
                scheduler.invokeAll(java.util.List.of(new BlockingCall("invoke-all", release)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        Thread timed = Thread.ofPlatform().start(() -> {
            try {
                scheduler.invokeAll(java.util.List.of(new BlockingCall("invoke-all-timed", release)), 20,
                        TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        Thread any = Thread.ofPlatform().start(() -> {
            try {
                scheduler.invokeAny(java.util.List.of(new BlockingCall("invoke-any", release)));
            } catch (Exception e) {
                Thread.currentThread().interrupt();
            }
        });
        Thread anyTimed = Thread.ofPlatform().start(() -> {
            try {
                scheduler.invokeAny(java.util.List.of(new BlockingCall("invoke-any-timed", release)), 20,
                        TimeUnit.SECONDS);
            } catch (Exception e) {
                Thread.currentThread().interrupt();
            }
        });
        Blocking withResult = new Blocking("submit-with-result");
        Blocking executed = new Blocking("executed");
        try {
            var future = scheduler.submit(withResult, "result");
            scheduler.execute(executed);
            scheduler.submit(new BlockingCall("submitted-callable", release));
            await().atMost(Duration.ofSeconds(15)).until(() -> reports.tasks.size() >= 7);
            assertThat(reports.tasks).extracting(OverdueTask::task).containsExactlyInAnyOrder("invoke-all",
                    "invoke-all-timed", "invoke-any", "invoke-any-timed", "submit-with-result", "executed",
                    "submitted-callable");
            withResult.release().countDown();
            assertThat(future.get(10, TimeUnit.SECONDS)).isEqualTo("result");
        } finally {
            release.countDown();
            withResult.release().countDown();
            executed.release().countDown();
            for (Thread t : new Thread[] {all, timed, any, anyTimed}) {
                t.join(10_000);
            }
            scheduler.shutdownNow();
        }
    }

    @RepeatedTest(2)
    void overdueQueuedTasksKeepTheirPlaceAndAreCountedWithoutAListener() throws Exception {
        java.util.List<String> order = new java.util.concurrent.CopyOnWriteArrayList<>();
        WorkerPool pool = WorkerPool.create(1, PoolOptions.builder().name("edge").queueCapacity(-1)
                .queueTimeout(TIMEOUT).runTimeout(TIMEOUT).build());
        Blocking first = new Blocking("first");
        CountDownLatch done = new CountDownLatch(3);
        try {
            pool.execute(first);
            Latches.await(first.started());
            for (String name : new String[] {"a", "b", "c"}) {
                pool.execute(() -> {
                    order.add(name);
                    done.countDown();
                });
            }
            // counted with no listener to tell: the running task (RUN) and the three queued ones (QUEUE)
            await().atMost(Duration.ofSeconds(10)).until(() -> pool.stats().overdue() == 4);
            first.release().countDown();
            Latches.await(done);
            assertThat(order).containsExactly("a", "b", "c");
            assertThat(pool.stats().overdue()).isEqualTo(4);
        } finally {
            first.release().countDown();
            pool.release();
        }
    }

    /**
     * A future cancelled while it waits in the queue never runs and its caller has given up (invokeAny's losers, a
     * timed invokeAll's leftovers, a cancel): it is not reported overdue, nor counted; the ones after it are.
     */
    @RepeatedTest(2)
    void aFutureCancelledWhileQueuedIsNotReported() throws Exception {
        Reports reports = new Reports();
        WorkerPool pool = WorkerPool.create(1, options(reports).queueCapacity(-1).queueTimeout(TIMEOUT).build());
        Blocking first = new Blocking("first");
        try {
            pool.execute(first);
            Latches.await(first.started());
            CountDownLatch never = new CountDownLatch(0);
            Future<?> cancelled = pool.submit(new OverdueTaskTest.CountingDown("cancelled", never));
            pool.submit(new OverdueTaskTest.CountingDown("waiting", never));
            assertThat(cancelled.cancel(false)).isTrue();
            await().atMost(Duration.ofSeconds(10)).until(() -> !reports.tasks.isEmpty());
            reports.assertStays(1);
            assertThat(reports.tasks).extracting(OverdueTask::task).containsExactly("waiting");
            assertThat(pool.stats().overdue()).isEqualTo(1);
        } finally {
            first.release().countDown();
            pool.release();
        }
    }

    /**
     * The run watch times the task, not the pool's own code after it: a slow panic handler after a task that threw is
     * neither reported overdue nor interrupted.
     */
    @RepeatedTest(2)
    void aSlowPanicHandlerAfterTheTaskIsNotWatched() throws Exception {
        Reports reports = new Reports();
        CountDownLatch handling = new CountDownLatch(1);
        CountDownLatch handled = new CountDownLatch(1);
        AtomicInteger interrupted = new AtomicInteger();
        WorkerPool pool = WorkerPool.create(1, options(reports).runTimeout(TIMEOUT).interruptOverdue(true)
                .panicHandler(failure -> {
                    handling.countDown();
                    try {
                        handled.await(); // slow: the test lets it go after the timeout has long passed
                    } catch (InterruptedException e) {
                        interrupted.incrementAndGet();
                    }
                }).build());
        try {
            pool.execute(() -> {
                throw new IllegalStateException("expected by the test");
            });
            Latches.await(handling);
            reports.assertStays(0); // 400 ms, twice the run timeout
            handled.countDown();
            assertThat(interrupted).hasValue(0);
            assertThat(pool.stats().overdue()).isZero();
        } finally {
            handled.countDown();
            pool.release();
        }
    }
}
