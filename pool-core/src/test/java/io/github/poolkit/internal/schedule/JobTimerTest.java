package io.github.poolkit.internal.schedule;

import io.github.poolkit.internal.LogCapture;

import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.CancellationException;
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
        ScheduledJob<Void> job = timer.schedule(() -> {
            entered.countDown();
            try {
                go.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, TimeUnit.HOURS.toNanos(1), TimeUnit.HOURS.toNanos(1));
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
