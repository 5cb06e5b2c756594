package io.github.poolkit;

import io.github.poolkit.internal.LogCapture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static java.util.concurrent.TimeUnit.HOURS;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.NANOSECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** How due jobs reach the pool: when the pool cannot start a thread for one run, and in which order. */
@Timeout(30)
class DelaySchedulerHandOffTest {

    private final DelaySchedulerFixture fixture = new DelaySchedulerFixture();

    @AfterEach
    void stopSchedulers() throws InterruptedException {
        fixture.close();
    }

    // ------------------------------------------------------------ a failed thread start

    /** The pool cannot start a thread for the first run: the run is skipped, reported, and the job keeps running. */
    @ParameterizedTest(name = "{0}, factory {1}")
    @CsvSource({"rate, throws", "rate, returns null", "delay, throws", "delay, returns null"})
    void aPeriodicJobOutlivesOneFailedThreadStart(String kind, String failure) throws Exception {
        DelayScheduler s = fixture.create(1, PoolOptions.builder().threadFactory(failingOnce(failure)));
        CountDownLatch threeRuns = new CountDownLatch(3);
        AtomicInteger inRun = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        Runnable body = () -> {
            if (inRun.incrementAndGet() != 1) {
                overlaps.incrementAndGet();
            }
            threeRuns.countDown();
            inRun.decrementAndGet();
        };
        try (LogCapture log = LogCapture.start()) {
            ScheduledFuture<?> job = kind.equals("rate") ? s.scheduleAtFixedRate(body, 1, 1, MILLISECONDS)
                    : s.scheduleWithFixedDelay(body, 1, 1, MILLISECONDS);

            assertThat(threeRuns.await(10, SECONDS)).as("the job runs on after the failed start").isTrue();
            assertThat(job.isDone()).as("the job is not over").isFalse();
            assertThat(overlaps).hasValue(0);
            assertThat(log.records()).anySatisfy(r -> {
                assertThat(r.getMessage()).contains(fixture.lastName(), "could not hand a due run");
                assertThat(r.getThrown()).isInstanceOf(RejectedExecutionException.class);
            });
            assertThat(job.cancel(false)).isTrue();
        }
    }

    /**
     * The run whose hand-off failed is skipped and the job keeps its schedule: next due one period later, pending; and
     * a job cancelled or shut down after that never runs.
     */
    @RepeatedTest(20)
    void aSkippedRunKeepsTheScheduleAndACancelOrShutdownStillStopsTheJob() throws Exception {
        for (boolean shutdown : new boolean[] {false, true}) {
            DelayScheduler s = fixture.create(1, PoolOptions.builder().threadFactory(failingOnce("throws")));
            AtomicInteger runs = new AtomicInteger();
            try (LogCapture log = LogCapture.start()) {
                ScheduledFuture<?> job = s.scheduleAtFixedRate(runs::incrementAndGet,
                        MILLISECONDS.toNanos(1), HOURS.toNanos(1), NANOSECONDS);
                await().until(() -> !log.records().isEmpty()); // the first run could not be handed over

                assertThat(job.isDone()).isFalse();
                assertThat(s.pending()).as("back in the pending set").isEqualTo(1);
                assertThat(job.getDelay(TimeUnit.MINUTES)).as("due one period after the skipped run")
                        .isBetween(58L, 60L);
                if (shutdown) {
                    s.shutdown();
                    assertThat(s.awaitTermination(10, SECONDS)).isTrue();
                } else {
                    assertThat(job.cancel(false)).isTrue();
                }
                assertThat(job.isCancelled()).isTrue();
                assertThat(s.pending()).isZero();
                assertThat(runs).hasValue(0);
            }
        }
    }

    /**
     * A periodic job with no initial delay is handed to the pool by the scheduling thread itself. If the pool cannot
     * start a thread for that first run, the outcome is the timer's: the run is skipped and reported, the caller gets
     * the job (no exception), and the job runs on at its period, never overlapping itself.
     */
    @RepeatedTest(20)
    void aPeriodicJobWithNoInitialDelayOutlivesAFailedFirstThreadStart() throws Exception {
        for (String kind : new String[] {"rate", "delay"}) {
            for (String failure : new String[] {"throws", "returns null"}) {
                DelayScheduler s = fixture.create(1, PoolOptions.builder().threadFactory(failingOnce(failure)));
                CountDownLatch threeRuns = new CountDownLatch(3);
                AtomicInteger inRun = new AtomicInteger();
                AtomicInteger overlaps = new AtomicInteger();
                Runnable body = () -> {
                    if (inRun.incrementAndGet() != 1) {
                        overlaps.incrementAndGet();
                    }
                    threeRuns.countDown();
                    inRun.decrementAndGet();
                };
                try (LogCapture log = LogCapture.start()) {
                    ScheduledFuture<?> job = kind.equals("rate") ? s.scheduleAtFixedRate(body, 0, 1, MILLISECONDS)
                            : s.scheduleWithFixedDelay(body, 0, 1, MILLISECONDS);

                    assertThat(log.records()).as("%s, factory %s: reported by the scheduling thread", kind, failure)
                            .anySatisfy(r -> {
                                assertThat(r.getMessage()).contains(fixture.lastName(), "could not hand a due run");
                                assertThat(r.getThrown()).isInstanceOf(RejectedExecutionException.class);
                            });
                    assertThat(threeRuns.await(10, SECONDS)).as("the job runs on after the failed start").isTrue();
                    assertThat(job.isDone()).as("the job is not over").isFalse();
                    assertThat(overlaps).hasValue(0);
                    assertThat(job.cancel(false)).isTrue();
                    assertThat(s.pending()).isZero();
                }
            }
        }
    }

    /**
     * The first run of a periodic job with no initial delay, refused by the pool, is skipped and the job keeps its
     * schedule: back in the pending set, due one period after the skipped run; a cancel or a shutdown then stops it
     * before it ever runs, and the scheduler terminates.
     */
    @RepeatedTest(20)
    void aSkippedFirstRunOfAJobWithNoInitialDelayKeepsTheSchedule() throws Exception {
        for (boolean shutdown : new boolean[] {false, true}) {
            DelayScheduler s = fixture.create(1, PoolOptions.builder().threadFactory(failingOnce("throws")));
            AtomicInteger runs = new AtomicInteger();
            try (LogCapture log = LogCapture.start()) {
                ScheduledFuture<?> job = s.scheduleAtFixedRate(runs::incrementAndGet, 0, 1, HOURS);

                assertThat(log.records()).hasSize(1);
                assertThat(job.isDone()).isFalse();
                assertThat(s.pending()).as("back in the pending set").isEqualTo(1);
                assertThat(job.getDelay(TimeUnit.MINUTES)).as("due one period after the skipped run")
                        .isBetween(58L, 60L);
                if (shutdown) {
                    s.shutdown();
                } else {
                    assertThat(job.cancel(false)).isTrue();
                    s.shutdown();
                }
                assertThat(s.awaitTermination(10, SECONDS)).isTrue();
                assertThat(job.isCancelled()).isTrue();
                assertThat(s.pending()).isZero();
                assertThat(runs).hasValue(0);
            }
        }
    }

    // ------------------------------------------------------------ order

    /**
     * A due job still in the pending set (the timer is busy handing an earlier job over) is handed over before a job
     * scheduled after it fell due with no delay, whichever method schedules that one.
     */
    @RepeatedTest(20)
    void aJobWithNoDelayGoesBehindAJobDueEarlierThatTheTimerHasNotTakenYet() throws Exception {
        for (String how : NO_DELAY) {
            TimerHoldingFactory factory = new TimerHoldingFactory(1);
            DelayScheduler s = fixture.create(1, PoolOptions.builder().threadFactory(factory));
            Recorder order = new Recorder(3);
            s.schedule(order.job("Z"), 1, NANOSECONDS);
            factory.awaitHeld(0); // the timer is handing Z over, making the only worker
            ScheduledFuture<?> a = s.schedule(order.job("A"), 1, MILLISECONDS);
            await().pollInterval(1, MILLISECONDS).until(() -> a.getDelay(NANOSECONDS) <= 0); // due, still pending

            scheduleWithNoDelay(s, how, order.job("B"));

            factory.release(0);
            assertThat(order.awaitAll()).as("B scheduled by %s", how).containsExactly("Z", "A", "B");
        }
    }

    /**
     * A due job the timer has taken from the pending set but not yet handed over (the rest of its batch) is handed
     * over before a job scheduled meanwhile with no delay.
     */
    @RepeatedTest(20)
    void aJobWithNoDelayGoesBehindADueJobTheTimerIsAboutToHandOver() throws Exception {
        for (String how : NO_DELAY) {
            TimerHoldingFactory factory = new TimerHoldingFactory(2);
            DelayScheduler s = fixture.create(2, PoolOptions.builder().threadFactory(factory));
            CountDownLatch gate = new CountDownLatch(1);
            s.schedule(() -> awaitQuietly(gate), 1, NANOSECONDS); // keeps the first worker busy throughout
            factory.awaitHeld(0);
            Recorder order = new Recorder(3);
            s.schedule(order.job("Z"), 1, NANOSECONDS);
            ScheduledFuture<?> a = s.schedule(order.job("A"), 1, NANOSECONDS);
            await().pollInterval(1, MILLISECONDS).until(() -> a.getDelay(NANOSECONDS) <= 0);
            factory.release(0);
            factory.awaitHeld(1); // the timer took [Z, A] and is handing Z over, making the second worker

            scheduleWithNoDelay(s, how, order.job("B"));

            factory.release(1);
            try {
                assertThat(order.awaitAll()).as("B scheduled by %s", how).containsExactly("Z", "A", "B");
            } finally {
                gate.countDown();
            }
        }
    }

    // ------------------------------------------------------------ helpers

    /** The ways to schedule a job with no delay. */
    private static final String[] NO_DELAY = {"schedule", "scheduleOnce", "execute", "submit", "scheduleAtFixedRate"};

    private static void scheduleWithNoDelay(DelayScheduler s, String how, Runnable job) {
        switch (how) {
            case "schedule" -> s.schedule(job, 0, NANOSECONDS);
            case "scheduleOnce" -> s.scheduleOnce(job, java.time.Duration.ZERO);
            case "execute" -> s.execute(job);
            case "submit" -> s.submit(job);
            case "scheduleAtFixedRate" -> s.scheduleAtFixedRate(job, 0, 1, HOURS);
            default -> throw new IllegalArgumentException(how);
        }
    }

    /** Records the order in which its jobs ran. */
    private static final class Recorder {
        private final java.util.List<String> order = new java.util.concurrent.CopyOnWriteArrayList<>();
        private final CountDownLatch all;

        Recorder(int jobs) {
            all = new CountDownLatch(jobs);
        }

        Runnable job(String name) {
            return () -> {
                order.add(name);
                all.countDown();
            };
        }

        java.util.List<String> awaitAll() throws InterruptedException {
            assertThat(all.await(10, SECONDS)).as("every job ran: %s", order).isTrue();
            return order;
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A thread factory whose first call fails, by throwing or by returning null; the later calls make threads. */
    private static ThreadFactory failingOnce(String failure) {
        AtomicInteger calls = new AtomicInteger();
        return r -> {
            if (calls.getAndIncrement() == 0) {
                if (failure.equals("throws")) {
                    throw new IllegalStateException("no thread this once (expected by this test)");
                }
                return null;
            }
            Thread t = new Thread(r);
            t.setDaemon(true);
            return t;
        };
    }
}
