package io.github.poolkit.internal.schedule;

import io.github.poolkit.internal.LogCapture;
import io.github.poolkit.internal.TaskCounter;

import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What the public API cannot provoke on purpose: an executor that throws unexpectedly, and a timer thread caught
 * between taking a due job and the executor's taking it.
 */
@Timeout(10)
class JobTimerTest {

    /**
     * A periodic job's run counts on the worker running it even when another worker's run of the same job ends (or,
     * here, starts and finds it running) meanwhile: each run keeps its worker to itself, so no run's end clears the
     * worker of another (which left that run counted nowhere: the pool's count then fell back on guesses).
     */
    @Test
    void eachRunOfAPeriodicJobCountsOnItsOwnWorker() throws Exception {
        ThreadPoolExecutor idle = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>());
        JobTimer timer = JobTimer.start("overlap", idle, null);
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch go = new CountDownLatch(1);
        ScheduledJob<Void> job = hourlyJobThatWaits(timer, entered, go);
        AtomicInteger countedByB = new AtomicInteger();
        AtomicInteger countedByA = new AtomicInteger();
        Thread b = new Thread(() -> job.runCounted((failure, last) -> countedByB.incrementAndGet() > 0));
        b.start();
        assertThat(entered.await(5, TimeUnit.SECONDS)).isTrue();
        // Running on B: runs nothing, counts nothing.
        job.runCounted((failure, last) -> countedByA.incrementAndGet() > 0);
        go.countDown();
        b.join(5_000);
        assertThat(countedByB).hasValue(1);
        assertThat(countedByA).hasValue(0);
        timer.shutdownNow();
        idle.shutdownNow();
    }

    /**
     * A periodic job's run is its worker's last step (only its reschedule, or its cancel, follows): it says so as it
     * counts, so that its worker may be counted as gone once the job is done or back in the heap, and says when that is
     * over; here a run that ends after its timer was shut down, so that the job is cancelled as it ends.
     */
    @Test
    void aPeriodicJobsRunCountsAsItsWorkersLastStep() throws Exception {
        ThreadPoolExecutor idle = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>());
        JobTimer timer = JobTimer.start("last-run", idle, null);
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch go = new CountDownLatch(1);
        ScheduledJob<Void> job = hourlyJobThatWaits(timer, entered, go);
        List<String> told = new CopyOnWriteArrayList<>();
        Thread runner = new Thread(() -> job.runCounted(new TaskCounter() {
            @Override
            public boolean countEnded(Throwable failure, boolean last) {
                told.add("counted, last " + last + ", done " + job.isDone());
                return true;
            }

            @Override
            public void futureCompleted() {
                told.add("completed, done " + job.isDone());
            }
        }));
        runner.start();
        assertThat(entered.await(5, TimeUnit.SECONDS)).isTrue();

        timer.shutdown(); // the job runs: it is cancelled as its run ends

        go.countDown();
        runner.join(5_000);
        assertThat(told).containsExactly("counted, last true, done false", "completed, done true");
        assertThat(job.isCancelled()).isTrue();
    }

    /**
     * Jobs due at the same nanosecond (where {@code System.nanoTime()} counts in coarse steps, ties are common) still
     * compare unequal, as the JDK's futures do, also when they went to the executor at once without passing through
     * the heap, and against the first job the heap ever held: a sorted set of futures keeps them all.
     */
    @Test
    void jobsDueAtTheSameTimeStillCompareUnequal() {
        ThreadPoolExecutor executor = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>());
        JobTimer timer = JobTimer.start("ties", executor, null);
        ScheduledJob<Void> inHeap = timer.schedule(() -> { }, TimeUnit.HOURS.toNanos(1), 0L);
        ScheduledJob<Void> direct = timer.schedule(() -> { }, 0L, 0L);
        ScheduledJob<Void> alsoDirect = timer.schedule(() -> { }, 0L, 0L);
        timer.shutdownNow();
        executor.shutdownNow();
        inHeap.deadline = direct.deadline; // the tie a coarse clock makes
        alsoDirect.deadline = direct.deadline;
        List<ScheduledJob<Void>> jobs = List.of(inHeap, direct, alsoDirect);
        for (ScheduledJob<Void> a : jobs) {
            for (ScheduledJob<Void> b : jobs) {
                if (a != b) {
                    assertThat(a.compareTo(b)).isNotZero().isEqualTo(-b.compareTo(a));
                }
            }
        }
        assertThat(direct.compareTo(alsoDirect)).as("in the order they were scheduled").isNegative();
    }

    @Test
    void aTimerWhoseThreadDiesStopsAndCancelsEverythingLeft() throws Exception {
        ThreadPoolExecutor broken = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>()) {
            @Override
            public void execute(Runnable command) {
                throw new IllegalStateException("executor bug (expected by this test)");
            }
        };
        JobTimer timer = JobTimer.start("broken", broken, null);
        ScheduledJob<Void> later = timer.schedule(() -> { }, TimeUnit.HOURS.toNanos(1), 0L);
        try (LogCapture log = LogCapture.start()) {
            ScheduledJob<Void> due = timer.schedule(() -> { }, TimeUnit.MILLISECONDS.toNanos(1), 0L);
            assertThatThrownBy(due::get).as("the job being handed over").isInstanceOf(CancellationException.class);
            assertThat(timer.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
            assertThat(log.records()).singleElement().satisfies(r -> {
                assertThat(r.getMessage()).contains("timer thread of scheduler 'broken' failed");
                assertThat(r.getThrown()).hasMessageContaining("executor bug");
            });
        }
        assertThat(later.isCancelled()).as("the pending job").isTrue();
        assertThat(timer.pending()).isZero();
        assertThat(timer.isShutdown()).isTrue();
        assertThat(broken.isShutdown()).as("the timer shuts its executor down").isTrue();
        assertThatThrownBy(() -> timer.schedule(() -> { }, 1_000L, 0L)).isInstanceOf(RejectedExecutionException.class);
    }

    /**
     * shutdownNow comes while the timer thread is handing a due job over (it has taken the job from the pending set,
     * and the executor has not taken it yet): the job runs or is returned, exactly once, whether the executor took it
     * just before the shutdown ({@code takenFirst}) or refuses it, being shut down ({@code !takenFirst}).
     */
    @RepeatedTest(20)
    void shutdownNowReturnsOrRunsTheJobTheTimerIsHandingOver() throws Exception {
        for (boolean takenFirst : new boolean[] {false, true}) {
            CountDownLatch held = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            ThreadPoolExecutor pool = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>()) {
                @Override
                public void execute(Runnable command) {
                    boolean timer = Thread.currentThread().getName().endsWith("-timer");
                    if (timer && takenFirst) {
                        super.execute(command);
                    }
                    if (timer) { // holds the timer thread where a preemption could
                        held.countDown();
                        awaitUninterruptibly(release);
                    }
                    if (!timer || !takenFirst) {
                        super.execute(command); // refused once shutdownNow has shut the pool down
                    }
                }
            };
            JobTimer timer = JobTimer.start("handing", pool, null);
            AtomicInteger runs = new AtomicInteger();
            ScheduledJob<Void> job = timer.schedule(runs::incrementAndGet, 1_000L, 0L);
            assertThat(held.await(10, TimeUnit.SECONDS)).isTrue();

            List<Runnable> returned = timer.shutdownNow();

            release.countDown();
            assertThat(timer.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
            long times = returned.stream().filter(r -> r == job).count();
            assertThat(runs.get() + times).as("runs %s, returned %s times (taken first: %s)", runs, times, takenFirst)
                    .isEqualTo(1);
            if (!takenFirst) {
                assertThat(returned).as("refused by the executor: returned").containsExactly(job);
            }
            assertThat(job.isDone()).isTrue();
        }
    }

    /**
     * A shutdown that comes while the timer thread is handing over a batch in which nothing is left to run (the job
     * being handed over has run, a one-shot job behind it was cancelled by its holder, a periodic one is cancelled by
     * the shutdown itself) finishes the timer at once: a scheduler with nothing pending and nothing running is
     * terminated when {@code shutdown} returns, not only once the timer thread has let go of those jobs (it then skips
     * them).
     */
    @RepeatedTest(5)
    void aShutdownFinishesTheTimerWhenNothingItIsHandingOverIsLeftToRun() throws Exception {
        HoldingExecutor executor = new HoldingExecutor(true);
        JobTimer timer = JobTimer.start("cancelled-batch", executor, null);
        AtomicInteger runs = new AtomicInteger();
        ScheduledJob<Void> ran = executor.batchBehindAFirstJob(timer, runs);
        ScheduledJob<Void> oneShot = timer.schedule(() -> { }, 1L, 0L);
        ScheduledJob<Void> periodic = timer.schedule(() -> { }, 1L, TimeUnit.HOURS.toNanos(1));
        executor.handOverTheBatch(periodic);
        assertThat(ran.isDone()).as("run by the executor, which holds the timer thread now").isTrue();
        assertThat(oneShot.cancel(false)).isTrue();

        timer.shutdown();

        assertThat(periodic.isCancelled()).isTrue();
        assertThat(timer.isTerminated()).as("nothing pending, nothing running, nothing left to hand over").isTrue();
        executor.release[1].countDown();
        assertThat(timer.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        assertThat(executor.handOvers).as("the cancelled jobs skipped").hasValue(2);
        assertThat(runs).as("the job handed over ran once").hasValue(1);
        assertThat(executor.refused).hasValue(0);
    }

    /**
     * A cancel that comes while the timer thread is handing that very job over (it found the job not done an instant
     * before): the shutdown leaves the hand-over alone rather than shutting the executor down under it, so the job is
     * not refused (a refusal the pool would count and report for a job its holder cancelled); the timer finishes once
     * the hand-over is over.
     */
    @RepeatedTest(5)
    void aShutdownLeavesAloneAHandOverThatACancelRaced() throws Exception {
        HoldingExecutor executor = new HoldingExecutor(false);
        JobTimer timer = JobTimer.start("cancel-raced", executor, null);
        AtomicInteger runs = new AtomicInteger();
        ScheduledJob<Void> raced = executor.batchBehindAFirstJob(timer, runs);
        executor.handOverTheBatch(raced);
        assertThat(raced.cancel(false)).isTrue();

        timer.shutdown();

        assertThat(executor.isShutdown()).as("not shut down under the hand-over").isFalse();
        executor.release[1].countDown();
        assertThat(timer.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        assertThat(executor.refused).hasValue(0);
        assertThat(runs).as("cancelled before it ran").hasValue(0);
    }

    /**
     * Runs each task on the caller, and holds the timer thread in its first two hand-overs: in the first, before the
     * job runs, until {@code release[0]} (so that the jobs scheduled meanwhile are due together, one batch); in the
     * second, until {@code release[1]}, after the job ran if {@code runSecond}, else before.
     */
    private static final class HoldingExecutor extends InlineExecutor {
        final CountDownLatch[] held = {new CountDownLatch(1), new CountDownLatch(1)};
        final CountDownLatch[] release = {new CountDownLatch(1), new CountDownLatch(1)};
        final AtomicInteger handOvers = new AtomicInteger();
        private final boolean runSecond;

        HoldingExecutor(boolean runSecond) {
            this.runSecond = runSecond;
        }

        @Override
        public void execute(Runnable command) {
            int n = Thread.currentThread().getName().endsWith("-timer") ? handOvers.getAndIncrement() : 2;
            if (n == 1 && runSecond) {
                super.execute(command);
            }
            if (n < 2) {
                held[n].countDown();
                awaitUninterruptibly(release[n]);
            }
            if (n != 1 || !runSecond) {
                super.execute(command);
            }
        }

        /**
         * Holds the timer thread in the hand-over of a first job, then schedules the job that heads the next batch.
         *
         * @return that job, which counts its runs in {@code runs}
         */
        ScheduledJob<Void> batchBehindAFirstJob(JobTimer timer, AtomicInteger runs) throws InterruptedException {
            timer.schedule(() -> { }, 1L, 0L);
            assertThat(held[0].await(10, TimeUnit.SECONDS)).isTrue();
            return timer.schedule(runs::incrementAndGet, 1L, 0L);
        }

        /** Lets the first hand-over end once {@code last} is due, and waits for the batch's first hand-over. */
        void handOverTheBatch(ScheduledJob<?> last) throws InterruptedException {
            while (System.nanoTime() - last.deadline < 0L) {
                Thread.onSpinWait(); // every job due (a nanosecond after it was scheduled) before the timer looks again
            }
            release[0].countDown();
            assertThat(held[1].await(10, TimeUnit.SECONDS)).as("the batch taken, its first job being handed over")
                    .isTrue();
        }
    }

    /** Runs each task on the caller; refuses once shut down (counted), and is then terminated. */
    private static class InlineExecutor extends AbstractExecutorService {
        final AtomicInteger refused = new AtomicInteger();
        private volatile boolean shut;

        @Override
        public void execute(Runnable command) {
            if (shut) {
                refused.incrementAndGet();
                throw new RejectedExecutionException("shut down");
            }
            command.run();
        }

        @Override
        public void shutdown() {
            shut = true;
        }

        @Override
        public List<Runnable> shutdownNow() {
            shut = true;
            return List.of();
        }

        @Override
        public boolean isShutdown() {
            return shut;
        }

        @Override
        public boolean isTerminated() {
            return shut;
        }

        @Override
        public boolean awaitTermination(long timeout, TimeUnit unit) {
            return shut;
        }
    }

    /** {@return a periodic job, first due in an hour, whose run counts {@code entered} down, then awaits {@code go}} */
    private static ScheduledJob<Void> hourlyJobThatWaits(JobTimer timer, CountDownLatch entered, CountDownLatch go) {
        return timer.schedule(() -> {
            entered.countDown();
            awaitUninterruptibly(go);
        }, TimeUnit.HOURS.toNanos(1), TimeUnit.HOURS.toNanos(1));
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        boolean interrupted = false;
        while (true) {
            try {
                latch.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
