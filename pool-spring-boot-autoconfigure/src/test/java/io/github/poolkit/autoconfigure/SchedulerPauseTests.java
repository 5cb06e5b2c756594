package io.github.poolkit.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;

/**
 * The gate that pauses the scheduler's jobs: a job that comes while paused waits until resumed, a repeat of a job that
 * has run before is skipped, and the running jobs can be awaited and interrupted.
 */
@Timeout(30)
class SchedulerPauseTests {

    private final SchedulerPause pause = new SchedulerPause();

    @RepeatedTest(5)
    void aJobThatComesWhilePausedWaitsUntilResumed() throws Exception {
        CountDownLatch ran = new CountDownLatch(1);
        Runnable job = pause.apply(ran::countDown);
        pause.pause();
        Thread worker = Thread.ofPlatform().start(job);
        await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(5)).until(() -> ran.getCount() == 1);
        pause.resume();
        assertThat(worker.join(Duration.ofSeconds(10))).isTrue();
        assertThat(ran.getCount()).isZero();
    }

    @RepeatedTest(5)
    void aRepeatOfAJobThatRanBeforeIsSkippedWhilePaused() {
        AtomicInteger runs = new AtomicInteger();
        Runnable periodic = pause.apply(runs::incrementAndGet);
        periodic.run();
        pause.pause();
        periodic.run(); // returns at once: skipped, not held
        assertThat(runs).hasValue(1);
        pause.resume();
        periodic.run();
        assertThat(runs).hasValue(2);
    }

    @RepeatedTest(5)
    void runningJobsAreAwaitedAndCanBeInterruptedWithoutTheInterruptOutlivingTheJob() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch cleanedUp = new CountDownLatch(1);
        AtomicBoolean interruptLeftAfterTheJob = new AtomicBoolean(true);
        Runnable gated = pause.apply(() -> {
            started.countDown();
            try {
                new CountDownLatch(1).await(20, TimeUnit.SECONDS);
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
            finally {
                cleanedUp.countDown();
            }
        });
        Runnable job = () -> {
            gated.run();
            interruptLeftAfterTheJob.set(Thread.currentThread().isInterrupted());
        };
        // A thread of its own: a pooled one may carry an interrupt status from elsewhere.
        Thread worker = Thread.ofPlatform().start(job);
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        pause.pause();
        assertThat(pause.running()).isEqualTo(1);
        assertThat(pause.awaitIdle(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100))).isFalse();
        assertThat(pause.interruptRunning()).isEqualTo(1);
        assertThat(cleanedUp.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(pause.awaitIdle(System.nanoTime() + TimeUnit.SECONDS.toNanos(10))).isTrue();
        assertThat(worker.join(Duration.ofSeconds(10))).isTrue();
        assertThat(pause.running()).isZero();
        assertThat(interruptLeftAfterTheJob).as("the worker's next job would see the interrupt").isFalse();
    }

    @RepeatedTest(5)
    void toStringIsTheJobs() {
        Runnable job = new Runnable() {
            @Override
            public void run() {
            }

            @Override
            public String toString() {
                return "nightly-report";
            }
        };
        assertThat(pause.apply(job)).hasToString("nightly-report");
    }
}
