package io.github.poolkit;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A pool whose last future a caller saw done has nothing running, so its {@code shutdown()} returns it terminated,
 * although the worker that completed the future is still on its way out: such a worker is retired on its behalf, or
 * waited for while it looks for work. What still runs after a future completed (a task decorator's own code, a
 * scheduled job's failure on its way to the panic handler) keeps the pool from terminating until it ends, and a worker
 * retired so takes no work, also when the pool is rebooted at once.
 */
@Timeout(60)
class ShutdownAfterLastFutureTest {

    @Test
    void shutdownNowAlsoReturnsItTerminated() throws Exception {
        for (int i = 0; i < 200; i++) {
            WorkerPool pool = WorkerPool.create(2, PoolOptions.builder().queueCapacity(i % 2 == 0 ? 0 : -1).build());
            pool.submit(() -> "x").get(10, SECONDS);
            assertThat(pool.shutdownNow()).isEmpty();
            assertThat(pool.isTerminated()).as("round " + i).isTrue();
        }
    }

    /** The first shutdown came while the last task ran; a second one, after its future was seen done, terminates. */
    @Test
    void aSecondShutdownAfterTheLastFutureFindsThePoolTerminated() throws Exception {
        for (int i = 0; i < 200; i++) {
            WorkerPool pool = WorkerPool.create(2, PoolOptions.builder().queueCapacity(i % 2 == 0 ? 0 : -1)
                    .virtualThreads(i % 4 >= 2).build());
            CountDownLatch mayEnd = new CountDownLatch(1);
            Future<?> last = pool.submit(() -> await(mayEnd));
            pool.shutdown(); // the task runs, or is about to: nothing to retire, nobody to wait for
            assertASecondShutdownTerminates(pool, mayEnd, last, i);
        }
    }

    /** As above for a scheduler, whose timer finished at its first shutdown while the job still ran. */
    @Test
    void aSecondShutdownAfterTheLastJobFindsTheSchedulerTerminated() throws Exception {
        for (int i = 0; i < 50; i++) {
            DelayScheduler scheduler = DelayScheduler.create(1, PoolOptions.builder().name("second" + i).build());
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch mayEnd = new CountDownLatch(1);
            Future<?> last = scheduler.schedule(startsThenAwaits(started, mayEnd), 1, TimeUnit.NANOSECONDS);
            assertThat(started.await(10, SECONDS)).isTrue();
            scheduler.shutdown(); // nothing pending: the timer finishes now or as its thread exits, without the job
            String timer = "second" + i + "-timer";
            Awaitility.await().atMost(10, SECONDS).until(() -> Thread.getAllStackTraces().keySet().stream()
                    .noneMatch(t -> t.getName().equals(timer)));
            assertASecondShutdownTerminates(scheduler, mayEnd, last, i);
        }
    }

    /**
     * A periodic job running at the first shutdown is cancelled as that run ends, its last: a second shutdown after
     * its future was seen done (cancelled) finds the scheduler terminated.
     */
    @Test
    void aSecondShutdownAfterAPeriodicJobsLastRunFindsTheSchedulerTerminated() throws Exception {
        for (int i = 0; i < 100; i++) {
            DelayScheduler scheduler = DelayScheduler.create(1, PoolOptions.builder().name("periodic" + i).build());
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch mayEnd = new CountDownLatch(1);
            Future<?> periodic = scheduler.scheduleAtFixedRate(startsThenAwaits(started, mayEnd), 1,
                    TimeUnit.HOURS.toNanos(1), TimeUnit.NANOSECONDS);
            assertThat(started.await(10, SECONDS)).isTrue();
            scheduler.shutdown(); // the run goes on, and is the job's last
            assertThat(periodic.isDone()).as("not done while its run goes on").isFalse();
            mayEnd.countDown();
            assertThatThrownBy(() -> periodic.get(10, SECONDS)).isInstanceOf(CancellationException.class);
            scheduler.shutdown();
            assertThat(scheduler.isTerminated()).as("round " + i).isTrue();
        }
    }

    /** A job still pending at the first shutdown runs; a second one, after it was seen done, terminates. */
    @Test
    void aSecondShutdownAfterAJobPendingAtTheFirstFindsTheSchedulerTerminated() throws Exception {
        for (int i = 0; i < 100; i++) {
            DelayScheduler scheduler = DelayScheduler.create(1);
            Future<?> pending = scheduler.schedule(() -> "x", 2, TimeUnit.MILLISECONDS);
            scheduler.shutdown(); // a one-shot job still runs when due: the timer thread hands it over, then finishes
            pending.get(10, SECONDS);
            scheduler.shutdown(); // may come before the timer thread has finished
            assertThat(scheduler.isTerminated()).as("round " + i).isTrue();
        }
    }

    /** {@return a job that counts {@code started} down, then waits for {@code mayEnd}} */
    private static Runnable startsThenAwaits(CountDownLatch started, CountDownLatch mayEnd) {
        return () -> {
            started.countDown();
            await(mayEnd);
        };
    }

    /** Lets the last task end, sees its future done, and shuts the pool down again: it is terminated at once. */
    private static void assertASecondShutdownTerminates(ExecutorService pool, CountDownLatch mayEnd, Future<?> last,
            int round) throws Exception {
        mayEnd.countDown();
        last.get(10, SECONDS);
        pool.shutdown();
        assertThat(pool.isTerminated()).as("round " + round).isTrue();
    }

    /** An adaptive capacity samples the task's time (the limit's own code) after its future completed. */
    @Test
    void anAdaptiveCapacitysSampleStillCountsAsRunning() throws Exception {
        CountDownLatch sampleMayEnd = new CountDownLatch(1);
        CountDownLatch sampling = new CountDownLatch(1);
        AdaptiveLimit limit = new AdaptiveLimit() {
            @Override
            public int limit() {
                return 2;
            }

            @Override
            public void onSample(long rttNanos, int inFlight, boolean dropped) {
                sampling.countDown();
                await(sampleMayEnd);
            }
        };
        WorkerPool pool = WorkerPool.create(2, PoolOptions.builder().adaptiveCapacity(limit).build());
        pool.submit(() -> "x").get(10, SECONDS);
        assertRunsUntilReleased(pool, sampling, sampleMayEnd);
    }

    /** With virtual threads, the task counts are final once the pool is terminated. */
    @Test
    void theCountsOfAVirtualThreadPoolAreFinalOnceItIsTerminated() throws Exception {
        for (int i = 0; i < 200; i++) {
            WorkerPool pool = WorkerPool.create(2, PoolOptions.builder().virtualThreads(true).build());
            CountDownLatch ran = new CountDownLatch(2);
            pool.execute(ran::countDown);
            pool.execute(ran::countDown);
            assertThat(ran.await(10, SECONDS)).isTrue();
            pool.close();
            assertThat(pool.stats().completed()).as("round " + i).isEqualTo(2);
        }
    }

    /** A decorator wraps the future's whole run, so its code after the task runs after the future completed. */
    @Test
    void aDecoratorsCodeAfterTheTaskStillCountsAsRunning() throws Exception {
        CountDownLatch decoratorMayEnd = new CountDownLatch(1);
        CountDownLatch decoratorEnding = new CountDownLatch(1);
        WorkerPool pool = WorkerPool.create(1, PoolOptions.builder().queueCapacity(-1).taskDecorator(task -> () -> {
            task.run();
            decoratorEnding.countDown();
            await(decoratorMayEnd);
        }).build());
        pool.submit(() -> "x").get(10, SECONDS);
        assertRunsUntilReleased(pool, decoratorEnding, decoratorMayEnd);
    }

    /** A scheduled job's failure reaches the panic handler after its future completed. */
    @Test
    void aFailedJobsPanicHandlerStillCountsAsRunning() throws Exception {
        CountDownLatch handlerMayEnd = new CountDownLatch(1);
        CountDownLatch handlerCalled = new CountDownLatch(1);
        DelayScheduler scheduler = DelayScheduler.create(1, PoolOptions.builder().panicHandler(e -> {
            handlerCalled.countDown();
            await(handlerMayEnd);
        }).build());
        Future<?> failing = scheduler.schedule(() -> {
            throw new IllegalStateException("job broke");
        }, 1, TimeUnit.MILLISECONDS);
        assertThatThrownBy(() -> failing.get(10, SECONDS)).isInstanceOf(ExecutionException.class);
        assertRunsUntilReleased(scheduler, handlerCalled, handlerMayEnd);
    }

    /** Retired on its behalf, a worker takes nothing from a pool rebooted at once: the capacity holds. */
    @RepeatedTest(20)
    void aWorkerRetiredOnItsBehalfTakesNoWorkAfterAReboot() throws Exception {
        WorkerPool pool = WorkerPool.create(1, PoolOptions.builder().queueCapacity(-1).build());
        for (int i = 0; i < 50; i++) {
            pool.submit(() -> "x").get(10, SECONDS);
            pool.shutdown();
            assertThat(pool.isTerminated()).as("round " + i).isTrue();
            pool.reboot();
            AtomicInteger concurrent = new AtomicInteger();
            AtomicInteger most = new AtomicInteger();
            Future<?>[] futures = new Future<?>[8];
            for (int j = 0; j < futures.length; j++) {
                futures[j] = pool.submit(() -> {
                    most.accumulateAndGet(concurrent.incrementAndGet(), Math::max);
                    concurrent.decrementAndGet();
                });
            }
            for (Future<?> f : futures) {
                f.get(10, SECONDS);
            }
            assertThat(most).as("round " + i).hasValue(1);
            assertThat(pool.running()).isLessThanOrEqualTo(1);
        }
        pool.shutdown();
        assertThat(pool.awaitTermination(10, SECONDS)).isTrue();
        assertThat(pool.running()).isZero();
    }

    /**
     * A worker started for the queue that a close retired before its thread started, whose start then fails, is not
     * retired twice: the count of workers does not go below zero.
     */
    @Test
    void aWorkerTakenOutBeforeItsThreadFailedToStartIsRetiredOnce() throws Exception {
        CountDownLatch secondStartEntered = new CountDownLatch(1);
        CountDownLatch secondStartMayFail = new CountDownLatch(1);
        AtomicInteger starts = new AtomicInteger();
        ThreadFactory factory = r -> {
            if (starts.incrementAndGet() == 2) {
                secondStartEntered.countDown();
                await(secondStartMayFail);
                throw new IllegalStateException("no thread this time");
            }
            return new Thread(r);
        };
        WorkerPool pool = WorkerPool.create(1, PoolOptions.builder().queueCapacity(-1).threadFactory(factory)
                .panicHandler(e -> { }).build());
        CountDownLatch blockerMayEnd = new CountDownLatch(1);
        Future<?> blocker = pool.submit(() -> await(blockerMayEnd));
        CountDownLatch queuedRan = new CountDownLatch(1);
        pool.submit(queuedRan::countDown); // queued behind the blocker: no room for a second worker
        Thread tuner = new Thread(() -> pool.tune(2));
        tuner.start(); // room now: a worker is started for the queue, its thread blocked in the factory
        assertThat(secondStartEntered.await(10, SECONDS)).isTrue();
        blockerMayEnd.countDown(); // the first worker takes the queued task
        blocker.get(10, SECONDS);
        assertThat(queuedRan.await(10, SECONDS)).isTrue();
        pool.shutdown(); // nothing queued: the second worker, still starting, is retired on its behalf
        secondStartMayFail.countDown();
        tuner.join(10_000);
        assertThat(pool.awaitTermination(10, SECONDS)).isTrue();
        assertThat(pool.running()).isZero();
        assertThat(starts).hasValue(2);
    }

    /**
     * Once code after a future is under way ({@code reached}), shuts the pool down: it is not terminated until that
     * code may end ({@code release}), then it is.
     */
    private static void assertRunsUntilReleased(ExecutorService pool, CountDownLatch reached, CountDownLatch release)
            throws InterruptedException {
        assertThat(reached.await(10, SECONDS)).isTrue();
        pool.shutdown();
        assertThat(pool.isTerminated()).isFalse();
        release.countDown();
        assertThat(pool.awaitTermination(10, SECONDS)).isTrue();
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(30, SECONDS)) {
                throw new IllegalStateException("latch not released in time");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
