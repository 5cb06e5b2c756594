package io.github.poolkit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;

import static java.util.concurrent.TimeUnit.HOURS;
import static java.util.concurrent.TimeUnit.MICROSECONDS;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Many timers, busy pools, concurrent scheduling: nothing is lost, run twice, or miscounted. */
@Timeout(60)
class DelaySchedulerLoadTest {

    private final DelaySchedulerFixture fixture = new DelaySchedulerFixture();

    @AfterEach
    void stopSchedulers() throws InterruptedException {
        fixture.close();
    }

    @Test
    void aBusyPoolDelaysJobsButNeverStallsScheduling() throws Exception {
        DelayScheduler s = fixture.create(2);
        CountDownLatch gate = new CountDownLatch(1);
        CountDownLatch busy = new CountDownLatch(2);
        for (int i = 0; i < 2; i++) {
            s.execute(() -> {
                busy.countDown();
                awaitQuietly(gate);
            });
        }
        busy.await();
        int jobs = 1_000;
        AtomicInteger ran = new AtomicInteger();
        for (int i = 0; i < jobs; i++) {
            s.schedule(ran::incrementAndGet, 1 + i % 5, MILLISECONDS);
        }
        ScheduledFuture<?> later = s.schedule(ran::incrementAndGet, 1, HOURS);

        // every due job has been handed to the (blocked) pool, so the timer thread kept going
        await().until(() -> s.pending() == 1);
        assertThat(ran.get()).isZero();
        assertThat(later.cancel(false)).isTrue();
        assertThat(s.pending()).isZero();

        gate.countDown();
        await().until(() -> ran.get() == jobs);
    }

    @Test
    void oneHundredThousandTimersEachFireExactlyOnceUnlessCancelled() throws Exception {
        DelayScheduler s = fixture.create(4);
        int jobs = 100_000;
        AtomicIntegerArray fired = new AtomicIntegerArray(jobs);
        boolean[] cancelled = new boolean[jobs];
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int i = 0; i < jobs; i++) {
            int id = i;
            ScheduledFuture<?> f = s.schedule(() -> fired.incrementAndGet(id), random.nextLong(0, 20_000), MICROSECONDS);
            if (i % 7 == 0) {
                cancelled[i] = f.cancel(false);
            }
        }
        s.shutdown(); // pending one-shot jobs still run
        assertThat(s.awaitTermination(30, TimeUnit.SECONDS)).isTrue();

        int cancelledCount = 0;
        int cancelledWhileRunning = 0;
        for (int i = 0; i < jobs; i++) {
            if (cancelled[i]) {
                // as in the JDK, cancel also succeeds on a job that has started but not finished (a delay of ~0)
                assertThat(fired.get(i)).as("runs of cancelled job %d", i).isLessThanOrEqualTo(1);
                cancelledCount++;
                cancelledWhileRunning += fired.get(i);
            } else {
                assertThat(fired.get(i)).as("runs of job %d", i).isEqualTo(1);
            }
        }
        assertThat(cancelledCount).as("most cancels come before the job fires").isGreaterThan(jobs / 14);
        assertThat(cancelledWhileRunning).as("cancelled jobs that had already started").isLessThan(cancelledCount / 2);
    }

    @Test
    void aMillionPendingTimersFitAndAreCountedExactly() {
        DelayScheduler s = fixture.create(1);
        int jobs = 1_000_000;
        Runnable job = () -> { };
        ScheduledFuture<?> last = null;
        for (int i = 0; i < jobs; i++) {
            last = s.schedule(job, 1 + (i % 1_000), HOURS);
        }
        assertThat(s.pending()).isEqualTo(jobs);
        assertThat(last.cancel(false)).isTrue();
        assertThat(s.pending()).isEqualTo(jobs - 1);
        assertThat(s.shutdownNow()).hasSize(jobs - 1);
        assertThat(s.pending()).isZero();
    }

    @Test
    void pendingIsExactUnderConcurrentScheduleAndCancel() throws Exception {
        DelayScheduler s = fixture.create(1);
        int threads = 4;
        int perThread = 5_000;
        CyclicBarrier start = new CyclicBarrier(threads);
        List<Thread> schedulers = new ArrayList<>();
        AtomicInteger cancelFailures = new AtomicInteger();
        for (int t = 0; t < threads; t++) {
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                    for (int i = 0; i < perThread; i++) {
                        ScheduledFuture<?> f = s.schedule(() -> { }, 1 + i, TimeUnit.MINUTES);
                        if (i % 2 == 0 && !f.cancel(false)) {
                            cancelFailures.incrementAndGet();
                        }
                    }
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            });
            schedulers.add(thread);
            thread.start();
        }
        for (Thread t : schedulers) {
            t.join();
        }
        assertThat(cancelFailures.get()).isZero();
        assertThat(s.pending()).isEqualTo(threads * perThread / 2);
    }

    @Test
    void cancellingPeriodicJobsWhileTheyRunLeavesNothingPendingAndStopsThem() throws Exception {
        DelayScheduler s = fixture.create(4);
        int jobs = 200;
        AtomicIntegerArray runs = new AtomicIntegerArray(jobs);
        List<ScheduledFuture<?>> futures = new ArrayList<>();
        for (int i = 0; i < jobs; i++) {
            int id = i;
            Runnable job = () -> runs.incrementAndGet(id);
            futures.add(i % 2 == 0 ? s.scheduleAtFixedRate(job, 0, 2, MILLISECONDS)
                    : s.scheduleWithFixedDelay(job, 0, 2, MILLISECONDS));
        }
        await().until(() -> {
            for (int i = 0; i < jobs; i++) {
                if (runs.get(i) < 3) {
                    return false;
                }
            }
            return true;
        });

        // cancel them all from two threads at once, while they keep being rescheduled
        AtomicInteger refused = new AtomicInteger();
        CyclicBarrier start = new CyclicBarrier(2);
        Thread[] cancellers = new Thread[2];
        for (int t = 0; t < 2; t++) {
            int half = t;
            cancellers[t] = new Thread(() -> {
                try {
                    start.await();
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
                for (int i = half; i < jobs; i += 2) {
                    if (!futures.get(i).cancel(i % 4 < 2)) {
                        refused.incrementAndGet();
                    }
                }
            });
            cancellers[t].start();
        }
        for (Thread t : cancellers) {
            t.join();
        }

        assertThat(refused.get()).as("a periodic job is never done before it is cancelled").isZero();
        assertThat(s.pending()).as("no cancelled job is left or put back in the pending set").isZero();
        int[] atCancel = new int[jobs];
        for (int i = 0; i < jobs; i++) {
            atCancel[i] = runs.get(i);
        }
        s.schedule(() -> { }, 30, MILLISECONDS).get(); // 15 periods later
        for (int i = 0; i < jobs; i++) {
            assertThat(runs.get(i)).as("runs of job %d after its cancel", i).isBetween(atCancel[i], atCancel[i] + 1);
        }
        assertThat(s.pending()).isZero();
        assertThat(fixture.panics).isEmpty();
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
