package io.github.poolkit.internal.schedule;

import io.github.poolkit.internal.LogCapture;

import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The executor refuses a due job for a reason of its own (a pool that could not start a worker thread) while
 * {@code shutdownNow} runs: {@code shutdownNow} has taken the job from the timer's batch as it stopped the timer, and
 * the job never started, so it is returned (once), whatever the timer thread does about the refusal meanwhile.
 *
 * <p>The timer thread is held (in the executor, or in the logger) until the timer is stopped; {@code shutdownNow} is
 * still busy with many pending jobs when it lets go, so the timer thread acts on the refusal between the moment
 * {@code shutdownNow} took the job and the moment it cancels it to return it.
 */
@Timeout(60)
class JobTimerRefusalVsShutdownNowTest {

    /** Pending jobs that keep {@code shutdownNow} busy (clearing them, and collecting them) for milliseconds. */
    private static final int PENDING = 100_000;

    private static final long HOUR = TimeUnit.HOURS.toNanos(1);

    /** The refusal comes once the timer is stopped: the timer thread sees STOP as it catches it. */
    @RepeatedTest(20)
    void aJobRefusedOnceShutdownNowStoppedTheTimerIsReturned() throws Exception {
        for (boolean periodic : new boolean[] {false, true}) {
            AtomicReference<JobTimer> timerRef = new AtomicReference<>();
            CountDownLatch inExecute = new CountDownLatch(1);
            ThreadPoolExecutor refusing = executor(() -> {
                inExecute.countDown();
                spinUntilShutdown(timerRef.get());
                throw new RejectedExecutionException("test: no worker thread could be started");
            });
            JobTimer timer = start(timerRef, refusing);
            AtomicInteger runs = new AtomicInteger();
            ScheduledJob<Void> job = timer.schedule(runs::incrementAndGet, 1_000L, periodic ? HOUR : 0L);
            assertThat(inExecute.await(30, TimeUnit.SECONDS)).isTrue();

            List<Runnable> returned = timer.shutdownNow();

            assertReturnedOnce(timer, job, runs, returned, "periodic: " + periodic);
        }
    }

    /**
     * The refusal of a periodic job's run comes before the stop: the timer thread, logging it, is held there until
     * the timer is stopped, and then finds it cannot reschedule the job.
     */
    @RepeatedTest(20)
    void aPeriodicRunRefusedJustBeforeShutdownNowIsReturned() throws Exception {
        AtomicReference<JobTimer> timerRef = new AtomicReference<>();
        ThreadPoolExecutor refusing = executor(() -> {
            throw new RejectedExecutionException("test: no worker thread could be started");
        });
        CountDownLatch logging = new CountDownLatch(1);
        Logger logger = Logger.getLogger("io.github.poolkit");
        Handler holding = new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (Thread.currentThread().getName().endsWith("-timer")) {
                    logging.countDown();
                    spinUntilShutdown(timerRef.get());
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        try (LogCapture log = LogCapture.start()) {
            logger.addHandler(holding);
            JobTimer timer = start(timerRef, refusing);
            AtomicInteger runs = new AtomicInteger();
            ScheduledJob<Void> job = timer.schedule(runs::incrementAndGet, 1_000L, HOUR);
            assertThat(logging.await(30, TimeUnit.SECONDS)).isTrue();

            List<Runnable> returned = timer.shutdownNow();

            assertReturnedOnce(timer, job, runs, returned, "periodic");
        } finally {
            logger.removeHandler(holding);
        }
    }

    /** A pool whose {@code execute} runs {@code onTimerThread} when the timer thread calls it. */
    private static ThreadPoolExecutor executor(Runnable onTimerThread) {
        return new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>()) {
            @Override
            public void execute(Runnable command) {
                if (Thread.currentThread().getName().endsWith("-timer")) {
                    onTimerThread.run();
                }
                super.execute(command);
            }
        };
    }

    /** Starts a timer on {@code executor} with {@link #PENDING} jobs due in an hour. */
    private static JobTimer start(AtomicReference<JobTimer> timerRef, ThreadPoolExecutor executor) {
        JobTimer timer = JobTimer.start("refusing", executor, null);
        timerRef.set(timer);
        for (int i = 0; i < PENDING; i++) {
            timer.schedule(() -> { }, HOUR, 0L);
        }
        return timer;
    }

    /**
     * Spins (the window is short) until {@code shutdownNow} has stopped the timer, or for 30 seconds at most, so that
     * a test that failed before it does not leave the timer thread spinning.
     */
    private static void spinUntilShutdown(JobTimer timer) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!timer.isShutdown() && System.nanoTime() - deadline < 0) {
            Thread.onSpinWait();
        }
    }

    private static void assertReturnedOnce(JobTimer timer, ScheduledJob<Void> job, AtomicInteger runs,
                                           List<Runnable> returned, String what) throws InterruptedException {
        assertThat(timer.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        assertThat(runs.get()).as("runs (%s)", what).isZero();
        assertThat(returned.stream().filter(r -> r == job).count())
                .as("times the refused job, which never started, is returned (%s)", what).isEqualTo(1);
        assertThat(job.isCancelled()).isTrue();
    }
}
