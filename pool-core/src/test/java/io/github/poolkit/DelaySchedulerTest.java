package io.github.poolkit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import io.github.poolkit.internal.LogCapture;

import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.RunnableScheduledFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.LongUnaryOperator;

import static java.util.concurrent.TimeUnit.HOURS;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.NANOSECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** One-shot and periodic jobs, their futures, and argument checks. */
@Timeout(20)
class DelaySchedulerTest {

    private final DelaySchedulerFixture fixture = new DelaySchedulerFixture();

    @AfterEach
    void stopSchedulers() throws InterruptedException {
        fixture.close();
    }

    // ------------------------------------------------------------ creation and arguments

    @Test
    void workersMustBePositive() {
        assertThatThrownBy(() -> DelayScheduler.create(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("workers").hasMessageContaining("0");
        assertThatThrownBy(() -> DelayScheduler.create(-3, PoolOptions.defaults()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("workers").hasMessageContaining("-3");
        assertThatThrownBy(() -> DelayScheduler.create(1, null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void anAdaptiveCapacityIsRefusedNamingTheOptionAndTheFix() {
        PoolOptions adaptive = PoolOptions.builder().adaptiveCapacity(AdaptiveLimit.gradient(1, 8)).build();
        assertThatThrownBy(() -> DelayScheduler.create(2, adaptive)).isInstanceOfSatisfying(InvalidOptionException.class,
                e -> {
                    assertThat(e.option()).isEqualTo("adaptiveCapacity");
                    assertThat(e.problem()).contains("not supported by a DelayScheduler");
                    assertThat(e.fix()).contains("leave adaptiveCapacity unset");
                });
    }

    @Test
    void optionsThatWouldBlockOrRejectAreOverridden() throws Exception {
        DelayScheduler scheduler = fixture.create(1,
                PoolOptions.builder().nonblocking(true).queueCapacity(1).maxBlockingTasks(1).preAlloc(true));
        CountDownLatch gate = new CountDownLatch(1);
        scheduler.execute(() -> awaitQuietly(gate));
        List<Future<?>> queued = new CopyOnWriteArrayList<>();
        for (int i = 0; i < 20; i++) { // with a 1-slot nonblocking queue, the second would be refused
            queued.add(scheduler.submit(() -> { }));
        }
        gate.countDown();
        for (Future<?> f : queued) {
            assertThat(f.get(5, TimeUnit.SECONDS)).isNull();
        }
    }

    @Test
    void nullArgumentsAreRejected() {
        DelayScheduler s = fixture.create(1);
        Runnable r = () -> { };
        Callable<String> c = () -> "";
        assertThatThrownBy(() -> s.scheduleOnce(null, Duration.ZERO)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> s.scheduleOnce(r, null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> s.scheduleRepeating(null, Duration.ofSeconds(1))).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> s.scheduleRepeating(r, null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> s.schedule((Runnable) null, 1, MILLISECONDS)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> s.schedule(r, 1, null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> s.schedule((Callable<String>) null, 1, MILLISECONDS)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> s.schedule(c, 1, null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> s.scheduleAtFixedRate(null, 1, 1, MILLISECONDS)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> s.scheduleAtFixedRate(r, 1, 1, null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> s.scheduleWithFixedDelay(null, 1, 1, MILLISECONDS)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> s.scheduleWithFixedDelay(r, 1, 1, null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> s.execute(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> s.submit((Runnable) null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> s.submit((Runnable) null, "x")).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> s.submit((Callable<String>) null)).isInstanceOf(NullPointerException.class);
        assertThat(s.pending()).isZero();
    }

    @Test
    void nonPositivePeriodsAreRejectedLikeTheJdk() {
        DelayScheduler s = fixture.create(1);
        assertThatThrownBy(() -> s.scheduleAtFixedRate(() -> { }, 0, 0, MILLISECONDS))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("period").hasMessageContaining("0");
        assertThatThrownBy(() -> s.scheduleWithFixedDelay(() -> { }, 0, -5, MILLISECONDS))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("delay").hasMessageContaining("-5");
        assertThat(s.pending()).isZero();
    }

    @Test
    void threadsAreNamedAfterTheScheduler() throws Exception {
        DelayScheduler s = fixture.create(1);
        String name = fixture.lastName();
        assertThat(s.submit(() -> Thread.currentThread().getName()).get()).isEqualTo(name + "-1");
        Thread timer = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals(name + "-timer")).findFirst().orElseThrow();
        assertThat(timer.isDaemon()).isTrue();
        assertThat(timer.isVirtual()).isFalse();
    }

    @Test
    void theTimerThreadIgnoresInterrupts() throws Exception {
        DelayScheduler s = fixture.create(1);
        Thread timer = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals(fixture.lastName() + "-timer")).findFirst().orElseThrow();
        timer.interrupt(); // while it waits with nothing pending
        assertThat(s.schedule(() -> "first", 5, MILLISECONDS).get()).isEqualTo("first");
        s.schedule(() -> { }, 1, HOURS);
        timer.interrupt(); // while it waits for a deadline
        assertThat(s.schedule(() -> "second", 5, MILLISECONDS).get()).isEqualTo("second");
        assertThat(timer.isAlive()).isTrue();
    }

    @Test
    void aJobThePoolCannotTakeFailsWithTheReason() {
        ThreadFactory broken = r -> {
            throw new IllegalStateException("no threads today");
        };
        DelayScheduler s = fixture.create(1, PoolOptions.builder().threadFactory(broken));
        assertThatThrownBy(() -> s.execute(() -> { })).as("at once: the caller hears of it")
                .isInstanceOf(RejectedExecutionException.class);
        try (LogCapture log = LogCapture.start()) {
            ScheduledFuture<?> delayed = s.schedule(() -> { }, 1, MILLISECONDS);
            assertThatThrownBy(delayed::get).as("later: the future does")
                    .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(RejectedExecutionException.class);
            assertThat(delayed.isCancelled()).isFalse();
            await().until(() -> !log.records().isEmpty());
            assertThat(log.records().get(0).getMessage()).contains(fixture.lastName(), "could not hand a due job");
            assertThat(log.records().get(0).getThrown()).isInstanceOf(RejectedExecutionException.class);
        }
    }

    @Test
    void jobsMayScheduleAndCancelJobs() throws Exception {
        DelayScheduler s = fixture.create(1);
        ScheduledFuture<?> victim = s.schedule(() -> { }, 1, HOURS);
        ScheduledFuture<ScheduledFuture<String>> outer = s.schedule(() -> {
            victim.cancel(false);
            return s.schedule(() -> "inner", 1, MILLISECONDS);
        }, 1, MILLISECONDS);
        assertThat(outer.get().get()).isEqualTo("inner");
        assertThat(victim.isCancelled()).isTrue();
        assertThat(s.pending()).isZero();
    }

    // ------------------------------------------------------------ timing

    @Test
    void jobsRunInTheOrderOfTheirDeadlines() {
        DelayScheduler s = fixture.create(1);
        List<String> ran = new CopyOnWriteArrayList<>();
        // deadlines relative to one base, 100 ms apart: scheduling them all takes far less than that
        long base = System.nanoTime();
        LongUnaryOperator delayTo = at -> base + MILLISECONDS.toNanos(at) - System.nanoTime();
        s.schedule(() -> ran.add("300"), delayTo.applyAsLong(300), NANOSECONDS);
        s.schedule(() -> ran.add("100"), delayTo.applyAsLong(100), NANOSECONDS);
        s.scheduleOnce(() -> ran.add("200"), Duration.ofNanos(delayTo.applyAsLong(200)));
        for (int i = 0; i < 5; i++) { // the same delay: first scheduled, first run
            String label = "400#" + i;
            s.schedule(() -> ran.add(label), 400, MILLISECONDS);
        }
        await().until(() -> ran.size() == 8);
        assertThat(ran).containsExactly("100", "200", "300", "400#0", "400#1", "400#2", "400#3", "400#4");
    }

    @Test
    void jobsNeverStartBeforeTheirDelay() {
        DelayScheduler s = fixture.create(4);
        int jobs = 200;
        AtomicInteger done = new AtomicInteger();
        List<String> early = new CopyOnWriteArrayList<>();
        for (int i = 0; i < jobs; i++) {
            long delayNanos = MILLISECONDS.toNanos(1 + i % 25) + i * 1_000L;
            long scheduledAt = System.nanoTime();
            s.schedule(() -> {
                long waited = System.nanoTime() - scheduledAt;
                if (waited < delayNanos) {
                    early.add("ran after " + waited + "ns, delay " + delayNanos + "ns");
                }
                done.incrementAndGet();
            }, delayNanos, NANOSECONDS);
        }
        await().until(() -> done.get() == jobs);
        assertThat(early).isEmpty();
    }

    @Test
    void delaysOfZeroOrLessRunAtOnceAndAreNeverPending() throws Exception {
        DelayScheduler s = fixture.create(1);
        CountDownLatch gate = new CountDownLatch(1);
        s.execute(() -> awaitQuietly(gate)); // keep the worker busy so nothing completes before we look
        ScheduledFuture<?> zero = s.scheduleOnce(() -> { }, Duration.ZERO);
        ScheduledFuture<?> negative = s.scheduleOnce(() -> { }, Duration.ofSeconds(-5));
        ScheduledFuture<?> repeatingZero = s.scheduleRepeating(() -> { }, Duration.ZERO);
        ScheduledFuture<String> callable = s.schedule(() -> "now", -1, HOURS);
        assertThat(s.pending()).isZero();
        assertThat(isPeriodic(repeatingZero)).isFalse();
        assertThat(zero.getDelay(NANOSECONDS)).isLessThanOrEqualTo(0);
        gate.countDown();
        assertThat(zero.get(5, TimeUnit.SECONDS)).isNull();
        assertThat(negative.get(5, TimeUnit.SECONDS)).isNull();
        assertThat(repeatingZero.get(5, TimeUnit.SECONDS)).as("runs once, then done").isNull();
        assertThat(callable.get(5, TimeUnit.SECONDS)).isEqualTo("now");
    }

    @Test
    void hugeDelaysAreCappedNotOverflowed() {
        DelayScheduler s = fixture.create(1);
        ScheduledFuture<?> forever = s.schedule(() -> { }, Long.MAX_VALUE, TimeUnit.DAYS);
        ScheduledFuture<?> foreverToo = s.scheduleOnce(() -> { }, Duration.ofSeconds(Long.MAX_VALUE));
        ScheduledFuture<?> soon = s.schedule(() -> { }, 1, HOURS);
        assertThat(forever.getDelay(TimeUnit.DAYS)).isGreaterThan(365L * 100);
        assertThat(soon.compareTo(forever)).isNegative();
        assertThat(soon.compareTo(foreverToo)).isNegative();
        assertThat(s.pending()).isEqualTo(3);
    }

    @Test
    void futuresReportTheirDelayAndCompareByIt() {
        DelayScheduler s = fixture.create(1);
        ScheduledFuture<?> inOneHour = s.schedule(() -> { }, 1, HOURS);
        ScheduledFuture<?> inTwoHours = s.scheduleAtFixedRate(() -> { }, 2, 1, HOURS);
        ScheduledFuture<?> alsoInTwoHours = s.scheduleWithFixedDelay(() -> { }, 2, 1, HOURS);
        assertThat(inOneHour.getDelay(TimeUnit.MINUTES)).isBetween(58L, 60L);
        assertThat(inOneHour.compareTo(inTwoHours)).isNegative();
        assertThat(inTwoHours.compareTo(inOneHour)).isPositive();
        assertThat(inOneHour.compareTo(inOneHour)).isZero();
        assertThat(inTwoHours.compareTo(alsoInTwoHours)).as("later scheduled, later due").isNegative();
        assertThat(isPeriodic(inOneHour)).isFalse();
        assertThat(isPeriodic(inTwoHours)).isTrue();
        assertThat(isPeriodic(alsoInTwoHours)).isTrue();
        assertThat(inOneHour.isDone()).isFalse();
    }

    // ------------------------------------------------------------ results and failures

    @Test
    void callablesAndSubmitsDeliverTheirResults() throws Exception {
        DelayScheduler s = fixture.create(2);
        ScheduledFuture<Integer> delayed = s.schedule(() -> 42, 10, MILLISECONDS);
        Future<String> submitted = s.submit(() -> "callable");
        Future<String> withResult = s.submit(() -> { }, "given");
        Future<?> runnable = s.submit(() -> { });
        assertThat(delayed.get()).isEqualTo(42);
        assertThat(delayed.isDone()).isTrue();
        assertThat(delayed.isCancelled()).isFalse();
        assertThat(delayed.resultNow()).isEqualTo(42);
        assertThat(submitted.get()).isEqualTo("callable");
        assertThat(withResult.get()).isEqualTo("given");
        assertThat(runnable.get()).isNull();
        assertThat(s.invokeAll(List.<Callable<Integer>>of(() -> 1, () -> 2, () -> 3))).extracting(Future::get).containsExactly(1, 2, 3);
        assertThat(s.invokeAny(List.<Callable<Integer>>of(() -> 7, () -> 7))).isEqualTo(7);
    }

    @Test
    void getWaitsForTheJobAndTimesOut() throws Exception {
        DelayScheduler s = fixture.create(1);
        CountDownLatch gate = new CountDownLatch(1);
        ScheduledFuture<String> job = s.schedule(() -> {
            gate.await();
            return "done";
        }, 0, MILLISECONDS);
        assertThatThrownBy(() -> job.get(20, MILLISECONDS)).isInstanceOf(TimeoutException.class);
        AtomicReferenceArray<Object> got = new AtomicReferenceArray<>(2);
        CountDownLatch waiting = new CountDownLatch(2);
        Thread[] waiters = new Thread[2];
        for (int i = 0; i < 2; i++) {
            int slot = i;
            waiters[i] = new Thread(() -> {
                waiting.countDown();
                try {
                    got.set(slot, slot == 0 ? job.get() : job.get(10, TimeUnit.SECONDS));
                } catch (Exception e) {
                    got.set(slot, e);
                }
            });
            waiters[i].start();
        }
        waiting.await();
        gate.countDown();
        for (Thread t : waiters) {
            t.join();
        }
        assertThat(got.get(0)).isEqualTo("done");
        assertThat(got.get(1)).isEqualTo("done");
        assertThat(job.get(0, NANOSECONDS)).isEqualTo("done");
    }

    @Test
    void aFailingOneShotJobFailsItsFutureAndReachesThePanicHandler() throws Exception {
        DelayScheduler s = fixture.create(1);
        IllegalStateException boom = new IllegalStateException("boom");
        ScheduledFuture<?> runnable = s.schedule(() -> {
            throw boom;
        }, 5, MILLISECONDS);
        IOException io = new IOException("disk");
        ScheduledFuture<Object> callable = s.schedule(() -> {
            throw io;
        }, 10, MILLISECONDS);

        assertThatThrownBy(runnable::get).isInstanceOf(ExecutionException.class).hasCause(boom);
        assertThatThrownBy(callable::get).isInstanceOf(ExecutionException.class).hasCause(io);
        await().until(() -> fixture.panics.size() == 2);
        List<Throwable> panics = List.copyOf(fixture.panics);
        assertThat(panics.get(0)).isSameAs(boom);
        assertThat(panics.get(1)).isInstanceOf(CompletionException.class).hasCause(io);
        assertThat(runnable.isDone()).isTrue();
        assertThat(runnable.isCancelled()).isFalse();
        assertThat(s.submit(() -> "alive").get()).as("the worker survives").isEqualTo("alive");
    }

    @Test
    void executeHandsFailuresToThePanicHandler() {
        DelayScheduler s = fixture.create(1);
        RuntimeException boom = new RuntimeException("fire and forget");
        s.execute(() -> {
            throw boom;
        });
        await().until(() -> fixture.panics.contains(boom));
        assertThat(fixture.panics).containsExactly(boom);
    }

    @Test
    void aFailingRepeatingJobStopsAndFailsItsFuture() throws Exception {
        DelayScheduler s = fixture.create(2);
        AtomicInteger runs = new AtomicInteger();
        IllegalStateException boom = new IllegalStateException("third run fails");
        ScheduledFuture<?> job = s.scheduleAtFixedRate(() -> {
            if (runs.incrementAndGet() == 3) {
                throw boom;
            }
        }, 1, 2, MILLISECONDS);

        assertThatThrownBy(job::get).isInstanceOf(ExecutionException.class).hasCause(boom);
        assertThat(s.schedule(() -> "later", 30, MILLISECONDS).get()).isEqualTo("later");
        assertThat(runs.get()).as("no run after the failure").isEqualTo(3);
        assertThat(s.pending()).isZero();
        await().until(() -> !fixture.panics.isEmpty());
        assertThat(fixture.panics).containsExactly(boom);
        assertThat(job.cancel(false)).as("already done").isFalse();
    }

    // ------------------------------------------------------------ cancelling

    @Test
    void cancelBeforeFiringRemovesTheJobAtOnce() {
        DelayScheduler s = fixture.create(1);
        ScheduledFuture<?> job = s.schedule(() -> { }, 1, HOURS);
        s.schedule(() -> { }, 2, HOURS);
        assertThat(s.pending()).isEqualTo(2);

        assertThat(job.cancel(false)).isTrue();
        assertThat(s.pending()).isEqualTo(1);
        assertThat(job.isCancelled()).isTrue();
        assertThat(job.isDone()).isTrue();
        assertThat(job.cancel(true)).as("second cancel").isFalse();
        assertThatThrownBy(job::get).isInstanceOf(CancellationException.class);
    }

    @Test
    void aJobCancelledBeforeFiringNeverRuns() throws Exception {
        DelayScheduler s = fixture.create(1);
        AtomicBoolean ran = new AtomicBoolean();
        ScheduledFuture<?> job = s.schedule(() -> ran.set(true), 100, MILLISECONDS);
        assertThat(job.cancel(false)).isTrue();
        // one worker, FIFO: the cancelled job, due earlier, would have run before the sentinel
        s.schedule(() -> { }, 150, MILLISECONDS).get();
        assertThat(ran).isFalse();
        assertThat(s.pending()).isZero();
    }

    @Test
    void cancelAfterFiringReturnsFalse() throws Exception {
        DelayScheduler s = fixture.create(1);
        ScheduledFuture<String> job = s.schedule(() -> "fired", 5, MILLISECONDS);
        assertThat(job.get()).isEqualTo("fired");
        assertThat(job.cancel(false)).isFalse();
        assertThat(job.cancel(true)).isFalse();
        assertThat(job.isCancelled()).isFalse();
        assertThat(job.get()).isEqualTo("fired");
    }

    @Test
    void cancelWithInterruptStopsARunningJobAndSparesTheNextTask() throws Exception {
        DelayScheduler s = fixture.create(1);
        CountDownLatch started = new CountDownLatch(1);
        AtomicBoolean interrupted = new AtomicBoolean();
        ScheduledFuture<?> job = s.schedule(() -> {
            started.countDown();
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                interrupted.set(true);
            }
        }, 1, MILLISECONDS);
        started.await();
        assertThat(job.cancel(true)).isTrue();
        assertThatThrownBy(job::get).isInstanceOf(CancellationException.class);
        await().untilTrue(interrupted);
        assertThat(s.submit(() -> Thread.currentThread().isInterrupted()).get())
                .as("the next task on the same worker is not interrupted").isFalse();
        assertThat(fixture.panics).isEmpty();
    }

    @Test
    void cancelledRepeatingJobStops() throws Exception {
        DelayScheduler s = fixture.create(2);
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> job = s.scheduleRepeating(runs::incrementAndGet, Duration.ofMillis(2));
        await().until(() -> runs.get() >= 3);
        assertThat(job.cancel(false)).isTrue();
        int atCancel = runs.get();
        assertThat(s.pending()).isZero();
        assertThat(job.isCancelled()).isTrue();

        s.schedule(() -> { }, 40, MILLISECONDS).get(); // 20 periods later
        assertThat(runs.get()).as("at most the run that was starting").isBetween(atCancel, atCancel + 1);
        assertThatThrownBy(job::get).isInstanceOf(CancellationException.class);
    }

    // ------------------------------------------------------------ periodic timing

    @Test
    void fixedRateRunsNeverOverlapAndNeverStartEarly() {
        DelayScheduler s = fixture.create(4);
        List<long[]> runs = new CopyOnWriteArrayList<>();
        AtomicInteger concurrent = new AtomicInteger();
        AtomicInteger maxConcurrent = new AtomicInteger();
        long initial = MILLISECONDS.toNanos(5);
        long period = MILLISECONDS.toNanos(3);
        long t0 = System.nanoTime();
        ScheduledFuture<?> job = s.scheduleAtFixedRate(() -> {
            long start = System.nanoTime();
            maxConcurrent.accumulateAndGet(concurrent.incrementAndGet(), Math::max);
            if (runs.size() % 2 == 0) {
                sleepQuietly(8); // longer than the period: the next run is late, and must not overlap
            }
            concurrent.decrementAndGet();
            runs.add(new long[] {start, System.nanoTime()});
        }, initial, period, NANOSECONDS);
        await().until(() -> runs.size() >= 8);
        job.cancel(false);

        assertThat(maxConcurrent.get()).isEqualTo(1);
        for (int k = 0; k < 8; k++) {
            assertThat(runs.get(k)[0] - t0).as("start of run %d", k).isGreaterThanOrEqualTo(initial + k * period);
            if (k > 0) {
                assertThat(runs.get(k)[0]).as("run %d starts after run %d ended", k, k - 1)
                        .isGreaterThanOrEqualTo(runs.get(k - 1)[1]);
            }
        }
    }

    @Test
    void fixedDelayWaitsTheDelayAfterEachRunEnds() {
        DelayScheduler s = fixture.create(2);
        List<long[]> runs = new CopyOnWriteArrayList<>();
        long delay = MILLISECONDS.toNanos(10);
        ScheduledFuture<?> job = s.scheduleWithFixedDelay(() -> {
            long start = System.nanoTime();
            sleepQuietly(3);
            runs.add(new long[] {start, System.nanoTime()});
        }, 0, delay, NANOSECONDS);
        await().until(() -> runs.size() >= 4);
        job.cancel(false);
        for (int k = 1; k < 4; k++) {
            assertThat(runs.get(k)[0] - runs.get(k - 1)[1]).as("gap before run %d", k).isGreaterThanOrEqualTo(delay);
        }
    }

    @Test
    void aPeriodicJobBetweenRunsIsPending() throws Exception {
        DelayScheduler s = fixture.create(1);
        CountDownLatch firstRun = new CountDownLatch(1);
        ScheduledFuture<?> job = s.scheduleAtFixedRate(firstRun::countDown, 0, 1, HOURS);
        firstRun.await();
        await().until(() -> s.pending() == 1);
        assertThat(job.getDelay(TimeUnit.MINUTES)).isBetween(58L, 60L);
        assertThat(job.cancel(false)).isTrue();
        assertThat(s.pending()).isZero();
    }

    /**
     * A one-shot job its caller runs itself ({@code RunnableScheduledFuture.run()}, "now instead of later") leaves the
     * heap: it is no longer pending, is not kept until its deadline, and a shutdown does not wait an hour for it.
     */
    @Test
    void aJobItsCallerRunsItselfIsNoLongerPending() throws Exception {
        DelayScheduler s = fixture.create(1);
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> job = s.schedule(runs::incrementAndGet, 1, HOURS);
        assertThat(s.pending()).isEqualTo(1);
        ((RunnableScheduledFuture<?>) job).run();
        assertThat(job.isDone()).isTrue();
        assertThat(runs).hasValue(1);
        assertThat(s.pending()).isZero();
        s.shutdown();
        assertThat(s.awaitTermination(10, TimeUnit.SECONDS)).as("nothing left to wait for").isTrue();
        assertThat(runs).hasValue(1);
    }

    // ------------------------------------------------------------ helpers

    /** The futures are {@link RunnableScheduledFuture}s, as documented, which is where {@code isPeriodic} lives. */
    private static boolean isPeriodic(ScheduledFuture<?> future) {
        return ((RunnableScheduledFuture<?>) future).isPeriodic();
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Simulates work inside a job (not used to wait for another thread). */
    private static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
