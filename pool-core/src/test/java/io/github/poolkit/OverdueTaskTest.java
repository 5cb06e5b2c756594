package io.github.poolkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Overdue tasks: runTimeout, queueTimeout and interruptOverdue, reported once from poolkit's own thread. */
@Timeout(30)
class OverdueTaskTest {

    private static final Duration TIMEOUT = Duration.ofMillis(200);
    /** The latest a report may come after the timeout: {@code max(timeout / 4, 100ms)}, plus room for a busy CI. */
    private static final Duration SLACK = Duration.ofMillis(100 + 2_000);

    /** Collects reports with the thread each came on. */
    static final class Reports implements PoolListener {
        final List<OverdueTask> tasks = new CopyOnWriteArrayList<>();
        final List<Thread> threads = new CopyOnWriteArrayList<>();

        @Override
        public void taskOverdue(OverdueTask task) {
            threads.add(Thread.currentThread());
            tasks.add(task);
        }

        OverdueTask awaitOne() {
            await().atMost(TIMEOUT.plus(SLACK).plusSeconds(5)).until(() -> !tasks.isEmpty());
            return tasks.get(0);
        }

        /** Waits several check periods and asserts that no further report came. */
        void assertStays(int count) {
            await().during(Duration.ofMillis(400)).atMost(Duration.ofSeconds(5)).until(() -> tasks.size() == count);
        }
    }

    /** A task, named for the reports, that counts {@code ran} down. */
    record CountingDown(String name, CountDownLatch ran) implements Runnable {
        @Override
        public void run() {
            ran.countDown();
        }

        @Override
        public String toString() {
            return name;
        }
    }

    record Blocking(String name, CountDownLatch started, CountDownLatch release, AtomicReference<Thread> runner)
            implements Runnable {
        Blocking(String name) {
            this(name, new CountDownLatch(1), new CountDownLatch(1), new AtomicReference<>());
        }

        @Override
        public void run() {
            runner.set(Thread.currentThread());
            started.countDown();
            blockHere();
        }

        private void blockHere() {
            Latches.awaitUninterruptibly(release);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    private static PoolOptions.Builder options(Reports reports) {
        return PoolOptions.builder().name("watched").listener(reports);
    }

    @RepeatedTest(3)
    void aTaskRunningPastRunTimeoutIsReportedOnceWithItsStackFromAThreadOfPoolkit() {
        Reports reports = new Reports();
        WorkerPool pool = WorkerPool.create(2, options(reports).runTimeout(TIMEOUT).build());
        Blocking task = new Blocking("stuck-report");
        try {
            long start = System.nanoTime();
            pool.execute(task);
            Latches.await(task.started());
            OverdueTask report = reports.awaitOne();
            long after = System.nanoTime() - start;

            assertThat(report.pool()).isEqualTo("watched");
            assertThat(report.kind()).isEqualTo(OverdueTask.Kind.RUN);
            assertThat(report.task()).isEqualTo("stuck-report");
            assertThat(report.thread()).isEqualTo(task.runner().get().getName());
            assertThat(report.elapsed()).isGreaterThanOrEqualTo(TIMEOUT);
            assertThat(Arrays.stream(report.stack()).map(StackTraceElement::getMethodName)).contains("blockHere");
            assertThat(reports.threads.get(0)).isNotSameAs(task.runner().get());
            assertThat(reports.threads.get(0).getName()).startsWith("poolkit-overdue");
            assertThat(Duration.ofNanos(after)).isLessThan(TIMEOUT.plus(SLACK));
            reports.assertStays(1);
            assertThat(pool.stats().overdue()).isEqualTo(1);
        } finally {
            task.release().countDown();
            pool.release();
        }
    }

    @Test
    void anUnpooledVirtualThreadTaskIsReportedToo() {
        Reports reports = new Reports();
        WorkerPool pool = WorkerPool.create(2, options(reports).virtualThreads(true).runTimeout(TIMEOUT).build());
        Blocking task = new Blocking("virtual-stuck");
        try {
            pool.execute(task);
            OverdueTask report = reports.awaitOne();
            assertThat(report.kind()).isEqualTo(OverdueTask.Kind.RUN);
            assertThat(report.task()).isEqualTo("virtual-stuck");
            assertThat(Arrays.stream(report.stack()).map(StackTraceElement::getMethodName)).contains("blockHere");
        } finally {
            task.release().countDown();
            pool.release();
        }
    }

    @RepeatedTest(3)
    void aQueuedTaskNotStartedInTimeIsReportedOnceAndStillRuns() throws Exception {
        Reports reports = new Reports();
        WorkerPool pool = WorkerPool.create(1, options(reports).queueCapacity(10).queueTimeout(TIMEOUT).build());
        Blocking first = new Blocking("first");
        CountDownLatch secondRan = new CountDownLatch(1);
        Runnable second = new CountingDown("second", secondRan);
        try {
            pool.execute(first);
            Latches.await(first.started());
            pool.execute(second);
            OverdueTask report = reports.awaitOne();
            assertThat(report.kind()).isEqualTo(OverdueTask.Kind.QUEUE);
            assertThat(report.task()).isEqualTo("second");
            assertThat(report.thread()).isNull();
            assertThat(report.stack()).isEmpty();
            assertThat(report.elapsed()).isGreaterThanOrEqualTo(TIMEOUT);
            reports.assertStays(1);
            first.release().countDown();
            Latches.await(secondRan);
            assertThat(pool.stats().overdue()).isEqualTo(1);
        } finally {
            first.release().countDown();
            pool.release();
        }
    }

    @RepeatedTest(3)
    void aBlockedCallersTaskNotStartedInTimeIsReportedOnce() throws Exception {
        Reports reports = new Reports();
        WorkerPool pool = WorkerPool.create(1, options(reports).queueTimeout(TIMEOUT).build());
        Blocking first = new Blocking("first");
        CountDownLatch secondRan = new CountDownLatch(1);
        Runnable second = new CountingDown("blocked-caller-task", secondRan);
        Thread caller = null;
        try {
            pool.execute(first);
            Latches.await(first.started());
            caller = Thread.ofPlatform().start(() -> pool.execute(second));
            OverdueTask report = reports.awaitOne();
            assertThat(report.kind()).isEqualTo(OverdueTask.Kind.QUEUE);
            assertThat(report.task()).isEqualTo("blocked-caller-task");
            assertThat(report.thread()).isNull();
            reports.assertStays(1);
            first.release().countDown();
            Latches.await(secondRan);
            caller.join(TimeUnit.SECONDS.toMillis(10));
            reports.assertStays(1);
        } finally {
            first.release().countDown();
            pool.release();
        }
    }

    @RepeatedTest(3)
    void aBlockedCallersTaskMovedIntoTheQueueIsNotReportedTwice() throws Exception {
        Reports reports = new Reports();
        WorkerPool pool = WorkerPool.create(1, options(reports).queueCapacity(1).queueTimeout(TIMEOUT).build());
        Blocking first = new Blocking("first");
        Blocking second = new Blocking("queued");
        CountDownLatch thirdRan = new CountDownLatch(1);
        Runnable third = new CountingDown("third", thirdRan);
        try {
            pool.execute(first);
            Latches.await(first.started());
            pool.execute(second); // fills the queue
            Thread caller = Thread.ofPlatform().start(() -> pool.execute(third));
            await().atMost(Duration.ofSeconds(10)).until(() -> reports.tasks.size() == 2);
            assertThat(reports.tasks).extracting(OverdueTask::task).containsExactlyInAnyOrder("queued", "third");
            first.release().countDown(); // "queued" starts and blocks; "third" moves into the queue
            Latches.await(second.started());
            caller.join(TimeUnit.SECONDS.toMillis(10));
            reports.assertStays(2);
            second.release().countDown();
            Latches.await(thirdRan);
        } finally {
            first.release().countDown();
            second.release().countDown();
            pool.release();
        }
    }

    @RepeatedTest(3)
    void interruptOverdueInterruptsTheWorkerOfAnOverdueTask() throws Exception {
        Reports reports = new Reports();
        WorkerPool pool = WorkerPool.create(1, options(reports).runTimeout(TIMEOUT).interruptOverdue(true).build());
        CountDownLatch interrupted = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        try {
            pool.execute(() -> {
                try {
                    never.await(20, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    interrupted.countDown();
                }
            });
            Latches.await(interrupted);
            assertThat(reports.awaitOne().kind()).isEqualTo(OverdueTask.Kind.RUN);
            // the worker goes on with clean interrupt status
            AtomicBoolean flag = new AtomicBoolean(true);
            CountDownLatch next = new CountDownLatch(1);
            pool.execute(() -> {
                flag.set(Thread.currentThread().isInterrupted());
                next.countDown();
            });
            Latches.await(next);
            assertThat(flag).isFalse();
        } finally {
            pool.release();
        }
    }

    @Test
    void aSubmittedTaskIsNamedByItselfNotByItsFuture() throws Exception {
        Reports reports = new Reports();
        WorkerPool pool = WorkerPool.create(2, options(reports).runTimeout(TIMEOUT).build());
        Blocking runnable = new Blocking("submitted-runnable");
        CountDownLatch release = new CountDownLatch(1);
        java.util.concurrent.Callable<String> callable = new java.util.concurrent.Callable<>() {
            @Override
            public String call() {
                Latches.awaitUninterruptibly(release);
                return "done";
            }

            @Override
            public String toString() {
                return "submitted-callable";
            }
        };
        try {
            java.util.concurrent.Future<?> first = pool.submit(runnable);
            java.util.concurrent.Future<String> second = pool.submit(callable);
            await().atMost(Duration.ofSeconds(10)).until(() -> reports.tasks.size() == 2);
            assertThat(reports.tasks).extracting(OverdueTask::task)
                    .containsExactlyInAnyOrder("submitted-runnable", "submitted-callable");
            runnable.release().countDown();
            release.countDown();
            first.get(10, TimeUnit.SECONDS);
            assertThat(second.get(10, TimeUnit.SECONDS)).isEqualTo("done");
        } finally {
            runnable.release().countDown();
            release.countDown();
            pool.release();
        }
    }

    @Test
    void withoutTimeoutsNothingIsReported() {
        Reports reports = new Reports();
        WorkerPool pool = WorkerPool.create(1, options(reports).queueCapacity(5).build());
        Blocking first = new Blocking("first");
        try {
            pool.execute(first);
            pool.execute(() -> { });
            Latches.await(first.started());
            reports.assertStays(0);
            assertThat(pool.stats().overdue()).isZero();
        } finally {
            first.release().countDown();
            pool.release();
        }
    }

    @Test
    void aToStringThatThrowsOrIsHugeDoesNotBreakTheChecker() {
        Reports reports = new Reports();
        WorkerPool pool = WorkerPool.create(2, options(reports).runTimeout(TIMEOUT).build());
        CountDownLatch release = new CountDownLatch(1);
        Runnable throwing = new Runnable() {
            @Override
            public void run() {
                Latches.awaitUninterruptibly(release);
            }

            @Override
            public String toString() {
                throw new IllegalStateException("no");
            }
        };
        Runnable huge = new Runnable() {
            @Override
            public void run() {
                Latches.awaitUninterruptibly(release);
            }

            @Override
            public String toString() {
                return "x".repeat(100_000);
            }
        };
        try {
            pool.execute(throwing);
            pool.execute(huge);
            await().atMost(Duration.ofSeconds(10)).until(() -> reports.tasks.size() == 2);
            assertThat(reports.tasks).extracting(OverdueTask::task).anySatisfy(t ->
                    assertThat(t).contains("toString() threw java.lang.IllegalStateException"));
            assertThat(reports.tasks).extracting(OverdueTask::task).anySatisfy(t ->
                    assertThat(t).hasSize(OverdueTask.MAX_TASK_LENGTH).startsWith("xxx"));
        } finally {
            release.countDown();
            pool.release();
        }
    }

    /** Each pool reports on a thread of its own: one stuck in a report holds up no other pool's reports. */
    @Test
    void aSlowToStringDelaysNoOtherPoolsDetectionNorReports() {
        Reports slowReports = new Reports();
        Reports otherReports = new Reports();
        WorkerPool slowPool = WorkerPool.create(1, options(slowReports).runTimeout(TIMEOUT).build());
        WorkerPool other = WorkerPool.create(1, PoolOptions.builder().name("other").listener(otherReports)
                .runTimeout(TIMEOUT).build());
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch toStringEntered = new CountDownLatch(1);
        CountDownLatch toStringRelease = new CountDownLatch(1);
        Runnable slow = new Runnable() {
            @Override
            public void run() {
                Latches.awaitUninterruptibly(release);
            }

            @Override
            public String toString() {
                toStringEntered.countDown();
                Latches.awaitUninterruptibly(toStringRelease);
                return "slow";
            }
        };
        Blocking plain = new Blocking("plain");
        try {
            slowPool.execute(slow);
            Latches.await(toStringEntered); // the reporting thread is stuck in toString()
            other.execute(plain);
            Latches.await(plain.started());
            // detection goes on, and so do the other pool's reports: counted and reported in time
            await().atMost(TIMEOUT.plus(SLACK)).until(() -> other.stats().overdue() == 1);
            assertThat(otherReports.awaitOne().task()).isEqualTo("plain");
            assertThat(otherReports.threads.get(0).getName()).startsWith("poolkit-overdue-other-");
            assertThat(slowReports.tasks).as("still in toString()").isEmpty();
            toStringRelease.countDown();
            assertThat(slowReports.awaitOne().task()).isEqualTo("slow");
            assertThat(slowReports.threads.get(0)).isNotSameAs(otherReports.threads.get(0));
        } finally {
            toStringRelease.countDown();
            release.countDown();
            plain.release().countDown();
            slowPool.release();
            other.release();
        }
    }

    @Test
    void aDelaySchedulerJobRunningPastRunTimeoutIsReported() {
        Reports reports = new Reports();
        DelayScheduler scheduler = DelayScheduler.create(1, PoolOptions.builder().name("jobs").listener(reports)
                .runTimeout(TIMEOUT).build());
        Blocking job = new Blocking("nightly-job");
        try {
            ScheduledFuture<?> future = scheduler.scheduleOnce(job, Duration.ofMillis(1));
            OverdueTask report = reports.awaitOne();
            assertThat(report.pool()).isEqualTo("jobs");
            assertThat(report.kind()).isEqualTo(OverdueTask.Kind.RUN);
            assertThat(report.task()).isEqualTo("nightly-job");
            assertThat(Arrays.stream(report.stack()).map(StackTraceElement::getMethodName)).contains("blockHere");
            assertThat(scheduler.stats().overdue()).isEqualTo(1);
            assertThat(future.isDone()).isFalse();
        } finally {
            job.release().countDown();
            scheduler.shutdown();
        }
    }

    @Test
    void theBuilderRefusesAZeroOrNegativeTimeoutAtOnce() {
        for (Duration bad : new Duration[] {Duration.ZERO, Duration.ofNanos(-1), Duration.ofSeconds(-5)}) {
            assertThatThrownBy(() -> PoolOptions.builder().runTimeout(bad))
                    .isInstanceOfSatisfying(InvalidOptionException.class, e -> {
                        assertThat(e.option()).isEqualTo("runTimeout");
                        assertThat(e.value()).isEqualTo(bad);
                        assertThat(e.fix()).contains("> 0");
                    });
            assertThatThrownBy(() -> PoolOptions.builder().queueTimeout(bad))
                    .isInstanceOfSatisfying(InvalidOptionException.class, e -> {
                        assertThat(e.option()).isEqualTo("queueTimeout");
                        assertThat(e.value()).isEqualTo(bad);
                    });
        }
        assertThat(PoolOptions.builder().runTimeout(null).queueTimeout(null).build().runTimeout()).isNull();
        assertThat(PoolOptions.builder().runTimeout(Duration.ofNanos(1)).build().runTimeout())
                .isEqualTo(Duration.ofNanos(1));
    }

    @Test
    void badOptionsAreRefusedWithTheFix() {
        assertThatThrownBy(() -> WorkerPool.create(1, PoolOptions.builder().runTimeout(Duration.ZERO).build()))
                .isInstanceOf(InvalidOptionException.class).hasMessageContaining("runTimeout");
        assertThatThrownBy(() -> WorkerPool.create(1, PoolOptions.builder().queueTimeout(Duration.ofSeconds(-1))
                .build())).isInstanceOf(InvalidOptionException.class).hasMessageContaining("queueTimeout");
        assertThatThrownBy(() -> WorkerPool.create(1, PoolOptions.builder().interruptOverdue(true).build()))
                .isInstanceOf(InvalidOptionException.class).hasMessageContaining("interruptOverdue")
                .hasMessageContaining("runTimeout");
        try (WorkerPool pool = WorkerPool.create(1)) {
            assertThatThrownBy(() -> pool.reconfigure(pool.options().toBuilder().runTimeout(TIMEOUT).build()))
                    .isInstanceOf(InvalidOptionException.class).hasMessageContaining("runTimeout");
        }
    }
}
