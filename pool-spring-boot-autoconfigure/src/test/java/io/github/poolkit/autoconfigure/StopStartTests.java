package io.github.poolkit.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import io.github.poolkit.DelayScheduler;
import io.github.poolkit.PoolClosedException;
import io.github.poolkit.WorkerPool;
import io.github.poolkit.autoconfigure.ShutdownDeadlineTests.Blocker;

/**
 * The context's {@code stop()} and {@code start()}, and its {@code pause()} and {@code restart()} (used around a
 * checkpoint and its restore): pools
 * are stopped as on close and reopened, the scheduler is paused (jobs that fall due wait) and resumed, and a close
 * while stopped still shuts everything down.
 */
@Timeout(30)
class StopStartTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(PoolkitAutoConfiguration.class))
            .withPropertyValues("poolkit.semaphore.enabled=false", "poolkit.pools.reports.capacity=2");

    @Test
    void stopThenStartBringsEveryPoolAndTheSchedulerBack() {
        runner.run(context -> {
            WorkerPool primary = context.getBean("workerPool", WorkerPool.class);
            WorkerPool reports = context.getBean("reports", WorkerPool.class);
            DelayScheduler scheduler = context.getBean(DelayScheduler.class);
            AtomicInteger beats = new AtomicInteger();
            ScheduledFuture<?> heartbeat = scheduler.scheduleRepeating(beats::incrementAndGet, Duration.ofMillis(20));
            await().atMost(10, TimeUnit.SECONDS).until(() -> beats.get() >= 2);

            context.stop();

            assertThat(primary.isClosed()).isTrue();
            assertThat(reports.isClosed()).isTrue();
            assertThatExceptionOfType(PoolClosedException.class).isThrownBy(() -> primary.execute(() -> {
            }));
            // The scheduler is paused, not shut down: it takes jobs, and holds them, and the periodic one, until start.
            assertThat(scheduler.isShutdown()).isFalse();
            CountDownLatch due = new CountDownLatch(1);
            scheduler.execute(due::countDown);
            int beatsWhenStopped = beats.get();
            await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5))
                    .until(() -> due.getCount() == 1 && beats.get() == beatsWhenStopped);

            context.start();

            assertThat(due.await(10, TimeUnit.SECONDS)).as("held job ran after start").isTrue();
            await().atMost(10, TimeUnit.SECONDS).until(() -> beats.get() >= beatsWhenStopped + 2);
            assertThat(heartbeat.isCancelled()).isFalse();
            for (WorkerPool pool : new WorkerPool[] { primary, reports }) {
                assertThat(pool.isClosed()).isFalse();
                CountDownLatch ran = new CountDownLatch(1);
                pool.execute(ran::countDown);
                assertThat(ran.await(10, TimeUnit.SECONDS)).as(pool.name()).isTrue();
            }
        });
    }

    /**
     * A scheduler job held while the context is stopped runs after {@code start()}, and the pools it submits to are
     * open by then: every pool is reopened before the scheduler resumes (the scheduler bean is made before the named
     * pools, so in the order of their creation it would resume first).
     */
    @RepeatedTest(5)
    void aHeldJobFindsEveryPoolOpenWhenItRuns() {
        String[] pools = new String[40];
        for (int i = 0; i < pools.length; i++) {
            pools[i] = "poolkit.pools.p" + i + ".capacity=1";
        }
        runner.withPropertyValues(pools).run(context -> {
            DelayScheduler scheduler = context.getBean(DelayScheduler.class);
            context.stop();
            AtomicInteger closed = new AtomicInteger();
            CountDownLatch ran = new CountDownLatch(1);
            scheduler.execute(() -> {
                for (int i = pools.length - 1; i >= 0; i--) {
                    if (context.getBean("p" + i, WorkerPool.class).isClosed()) {
                        closed.incrementAndGet();
                    }
                }
                ran.countDown();
            });
            context.start();
            assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(closed).as("pools still closed when the held job ran").hasValue(0);
        });
    }

    @RepeatedTest(3)
    @ExtendWith(OutputCaptureExtension.class)
    void stopInterruptsWhatOutlivesTheDeadlineAndStartStillBringsThemBack(CapturedOutput output) {
        runner.withPropertyValues("poolkit.pool.shutdown-timeout=300ms").run(context -> {
            WorkerPool primary = context.getBean("workerPool", WorkerPool.class);
            DelayScheduler scheduler = context.getBean(DelayScheduler.class);
            Blocker task = new Blocker(1);
            Blocker job = new Blocker(1);
            primary.execute(task);
            scheduler.execute(job);
            task.awaitStarted();
            job.awaitStarted();

            context.stop();

            task.awaitCleanedUp();
            job.awaitCleanedUp();
            assertThat(task.interrupted).hasValue(1);
            assertThat(job.interrupted).hasValue(1);
            assertThat(output).contains("Pool 'workerPool' did not finish within the shutdown deadline of 300ms:"
                    + " interrupted 1 running tasks, 0 tasks never started")
                    .contains("Scheduler 'delayScheduler' did not finish within the shutdown deadline of 300ms:"
                            + " interrupted 1 running tasks, 0 tasks never started");

            context.start();

            CountDownLatch ran = new CountDownLatch(2);
            primary.execute(ran::countDown);
            scheduler.execute(ran::countDown);
            assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
        });
    }

    /**
     * A pool whose task ignored the stop's interrupt, and which the application then closes itself (its
     * {@code close()} waits for that task), cannot be rebooted: {@code start()} leaves it to that close, as it leaves
     * a pool the application released, and still reopens every other pool and resumes the scheduler.
     */
    @Test
    @ExtendWith(OutputCaptureExtension.class)
    void aPoolTheApplicationIsClosingDoesNotKeepTheOthersClosed(CapturedOutput output) throws Exception {
        String[] pools = new String[6];
        for (int i = 0; i < pools.length; i++) {
            pools[i] = "poolkit.pools.p" + i + ".capacity=1";
        }
        runner.withPropertyValues(pools).withPropertyValues("poolkit.pool.shutdown-timeout=100ms").run(context -> {
            WorkerPool stubborn = context.getBean("p0", WorkerPool.class);
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch gate = new CountDownLatch(1);
            stubborn.execute(() -> {
                started.countDown();
                boolean done = false;
                while (!done) {
                    try {
                        done = gate.await(20, TimeUnit.SECONDS);
                    }
                    catch (InterruptedException ignoredByThisTask) {
                        // keeps running, as a task that ignores interrupts does
                    }
                }
            });
            assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
            DelayScheduler scheduler = context.getBean(DelayScheduler.class);
            context.stop();
            Thread closer = new Thread(stubborn::close, "closer");
            closer.start();
            await().atMost(10, TimeUnit.SECONDS).until(() -> java.util.Arrays.stream(closer.getStackTrace())
                    .anyMatch(frame -> frame.getClassName().endsWith(".Termination")
                            && frame.getMethodName().equals("await"))); // the pool's wait for termination
            CountDownLatch held = new CountDownLatch(1);
            scheduler.execute(held::countDown);

            context.start();

            assertThat(context.isRunning()).isTrue();
            assertThat(held.await(10, TimeUnit.SECONDS)).as("the scheduler resumed").isTrue();
            for (int i = 1; i < pools.length; i++) {
                WorkerPool pool = context.getBean("p" + i, WorkerPool.class);
                assertThat(pool.isClosed()).as(pool.name()).isFalse();
            }
            assertThat(context.getBean("workerPool", WorkerPool.class).isClosed()).isFalse();
            assertThat(stubborn.isClosed()).isTrue();
            assertThat(output).contains("Pool 'p0' was not reopened").contains("is being closed");
            gate.countDown();
            closer.join(10_000);
            assertThat(closer.isAlive()).isFalse();
        });
    }

    @Test
    void aRepeatingJobDoesNotCatchUpTheRunsItMissedWhileStopped() {
        runner.run(context -> {
            DelayScheduler scheduler = context.getBean(DelayScheduler.class);
            List<Long> beats = new CopyOnWriteArrayList<>(); // when each run began
            scheduler.scheduleRepeating(() -> beats.add(System.nanoTime()), Duration.ofMillis(100)); // fixed rate
            await().atMost(10, TimeUnit.SECONDS).until(() -> beats.size() >= 1);
            context.stop();
            int before = beats.size();
            // About twelve periods pass while stopped; none runs.
            await().during(Duration.ofMillis(1200)).atMost(Duration.ofSeconds(5)).until(() -> beats.size() == before);
            long startedAt = System.nanoTime();
            context.start();
            await().atMost(10, TimeUnit.SECONDS).until(() -> beats.size() > before);
            // A catch-up would run the dozen missed periods back to back at once; the schedule goes on at one run per
            // 100 ms slot instead: never more runs than slots since start() (and the one it started in)
            int ran = beats.size() - before;
            long slots = (System.nanoTime() - startedAt) / TimeUnit.MILLISECONDS.toNanos(100) + 2;
            assertThat((long) ran).isLessThanOrEqualTo(slots);
        });
    }

    @Test
    void aPoolTheApplicationReleasedStaysReleasedAfterStart() {
        runner.run(context -> {
            WorkerPool reports = context.getBean("reports", WorkerPool.class);
            reports.release();
            context.stop();
            context.start();
            assertThat(reports.isClosed()).isTrue();
            assertThat(context.getBean("workerPool", WorkerPool.class).isClosed()).isFalse();
        });
    }

    @Test
    void closingAStoppedContextShutsTheSchedulerDownAndRunsItsHeldOneShotJobs() {
        runner.run(context -> {
            DelayScheduler scheduler = context.getBean(DelayScheduler.class);
            WorkerPool primary = context.getBean("workerPool", WorkerPool.class);
            context.stop();
            CountDownLatch held = new CountDownLatch(1);
            scheduler.execute(held::countDown);

            context.close();

            assertThat(held.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(scheduler.isShutdown()).isTrue();
            assertThat(scheduler.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
            assertThat(primary.isTerminated()).isTrue();
        });
    }

    @Test
    void pauseThenRestartAlsoBringsThemBack() {
        runner.run(context -> {
            WorkerPool primary = context.getBean("workerPool", WorkerPool.class);
            DelayScheduler scheduler = context.getBean(DelayScheduler.class);
            context.pause();
            assertThat(primary.isClosed()).isTrue();
            CountDownLatch ran = new CountDownLatch(2);
            scheduler.execute(ran::countDown);
            context.restart();
            primary.execute(ran::countDown);
            assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
        });
    }

    @Test
    void stopAndStartMoreThanOnce() {
        runner.run(context -> {
            WorkerPool primary = context.getBean("workerPool", WorkerPool.class);
            DelayScheduler scheduler = context.getBean(DelayScheduler.class);
            for (int round = 0; round < 3; round++) {
                context.stop();
                assertThat(primary.isClosed()).isTrue();
                context.start();
                CountDownLatch ran = new CountDownLatch(2);
                primary.execute(ran::countDown);
                scheduler.execute(ran::countDown);
                assertThat(ran.await(10, TimeUnit.SECONDS)).as("round " + round).isTrue();
            }
        });
    }
}
