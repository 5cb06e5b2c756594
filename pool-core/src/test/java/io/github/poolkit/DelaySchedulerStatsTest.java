package io.github.poolkit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static java.util.concurrent.TimeUnit.HOURS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** {@link DelayScheduler#stats()} and {@link DelayScheduler#pending()}: where a job is counted at each stage. */
@Timeout(20)
class DelaySchedulerStatsTest {

    private final DelaySchedulerFixture fixture = new DelaySchedulerFixture();

    @AfterEach
    void stopSchedulers() throws InterruptedException {
        fixture.close();
    }

    /**
     * A job its caller runs itself ({@code RunnableScheduledFuture.run()}) while the timer hands it to the pool runs
     * once, on the caller's thread, and the worker that finds it taken counts nothing: not a second, phantom, run.
     */
    @Test
    void aJobItsCallerIsRunningIsNotCountedByTheWorkerThatFindsItTaken() throws Exception {
        DelayScheduler s = fixture.create(1);
        CountDownLatch inRun = new CountDownLatch(1);
        CountDownLatch gate = new CountDownLatch(1);
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> job = s.schedule(() -> {
            runs.incrementAndGet();
            inRun.countDown();
            Latches.await(gate);
        }, 10, TimeUnit.MILLISECONDS);
        Thread caller = Thread.ofPlatform().start((Runnable) job);
        Latches.await(inRun);
        // the one worker takes the jobs in deadline order: once the marker has run, the job's hand-over has been tried
        ScheduledFuture<?> marker = s.schedule(() -> { }, 40, TimeUnit.MILLISECONDS);
        marker.get(10, TimeUnit.SECONDS);
        gate.countDown();
        caller.join();

        assertThat(runs).hasValue(1);
        assertThat(job.isDone()).isTrue();
        assertThat(s.stats().completed()).as("the marker only; the caller's run is not the pool's").isEqualTo(1);
    }

    @Test
    void jobsNotYetDueArePendingAndDueJobsWaitingForAWorkerAreQueued() throws Exception {
        DelayScheduler s = fixture.create(1);
        PoolStats fresh = s.stats();
        assertThat(fresh.capacity()).isEqualTo(1);
        assertThat(fresh.queued()).isZero();
        assertThat(fresh.blocked()).isZero();
        assertThat(fresh.closed()).isFalse();

        CountDownLatch busy = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        s.execute(() -> {
            busy.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        busy.await();
        s.schedule(() -> { }, 1, HOURS);
        s.schedule(() -> { }, 1, TimeUnit.NANOSECONDS);
        s.submit(() -> { });
        await().until(() -> s.pending() == 1); // the nanosecond job is due and handed to the pool

        PoolStats loaded = s.stats();
        assertThat(loaded.running()).isEqualTo(1);
        assertThat(loaded.queued()).as("due, waiting for the busy worker").isEqualTo(2);
        assertThat(loaded.waiting()).isEqualTo(2);
        assertThat(loaded.blocked()).as("handing a job to the pool never blocks").isZero();
        assertThat(loaded.free()).isZero();
        assertThat(s.pending()).as("the hour-long job is not in the pool's figures").isEqualTo(1);

        release.countDown();
        await().until(() -> s.stats().queued() == 0);
        s.shutdown();
        assertThat(s.stats().closed()).as("closed once shut down, with a one-shot job still pending").isTrue();
        assertThat(s.pending()).isEqualTo(1);
    }

    @Test
    void jobsRefusedBecauseTheSchedulerIsShutDownCountAsRejectedAndTheListenerHearsOfThem() {
        List<RuntimeException> told = new CopyOnWriteArrayList<>();
        DelayScheduler s = fixture.create(1);
        s.addListener(new PoolListener() {
            @Override
            public void taskRejected(RuntimeException reason) {
                told.add(reason);
            }
        });
        s.shutdown();
        List<Runnable> attempts = List.of(
                () -> s.execute(() -> { }),
                () -> s.submit(() -> 1),
                () -> s.schedule(() -> { }, 1, HOURS),
                () -> s.scheduleAtFixedRate(() -> { }, 1, 1, HOURS),
                () -> s.scheduleWithFixedDelay(() -> { }, 1, 1, HOURS),
                () -> s.scheduleOnce(() -> { }, Duration.ZERO),
                () -> s.scheduleRepeating(() -> { }, Duration.ofHours(1)));
        for (Runnable attempt : attempts) {
            assertThatThrownBy(attempt::run).isInstanceOf(RejectedExecutionException.class);
        }
        PoolStats stats = s.stats();
        assertThat(stats.rejected()).as("each refused job counts once").isEqualTo(attempts.size());
        assertThat(stats.closed()).isTrue();
        assertThat(stats.completed() + stats.failed()).isZero();
        assertThat(told).hasSize(attempts.size()).allMatch(e -> e instanceof RejectedExecutionException);
    }
}
