package io.github.poolkit.internal.pool;

import io.github.poolkit.PoolOptions;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A worker thread is never started with the pool's lock held: the thread factory (and, when it fails, the panic
 * handler) is the user's code, and may wait for another thread that needs the pool, which would then deadlock.
 *
 * <p>The path under test: a worker on the locked path ({@code lockedNextTask}) takes the head of a full queue, moves
 * the blocked caller's task into the slot it freed, and, nobody being idle and the capacity having grown, has a worker
 * started for it. The test holds the pool's lock to line the threads up (the worker, then the caller, waiting for it),
 * grows the capacity under it (the worker that growth reserves cannot start, so the room stays), and lets go.
 */
@Timeout(60)
class LaunchOutsideLockTest {

    /** How long the factory waits for a thread that reads the pool's stats before it gives up (the deadlock). */
    private static final long STATS_WAIT_SECONDS = 3;

    @RepeatedTest(10)
    void aWorkerStartedForACallerTheLockedPathMovedInStartsAfterTheLockIsReleased() throws Exception {
        AtomicReference<PoolCore> coreRef = new AtomicReference<>();
        AtomicInteger made = new AtomicInteger();
        AtomicReference<Thread> firstWorker = new AtomicReference<>();
        AtomicBoolean lockHeldInFactory = new AtomicBoolean();
        AtomicBoolean statsReadWhileFactoryWaited = new AtomicBoolean();
        CountDownLatch fourthMade = new CountDownLatch(1);
        ThreadFactory factory = r -> {
            int n = made.incrementAndGet();
            if (n == 3) {
                throw new IllegalStateException("test: no thread for the worker the growth reserved");
            }
            if (n == 4) {
                PoolCore core = coreRef.get();
                lockHeldInFactory.set(core.lock.isHeldByCurrentThread());
                // A factory that waits for a thread that reads the pool's stats (they take the pool's lock).
                CountDownLatch statsRead = new CountDownLatch(1);
                Thread.ofPlatform().daemon().start(() -> {
                    core.tally();
                    statsRead.countDown();
                });
                statsReadWhileFactoryWaited.set(awaitQuietly(statsRead, STATS_WAIT_SECONDS));
                fourthMade.countDown();
            }
            Thread t = new Thread(r, "launch-test-" + n);
            if (n == 1) {
                firstWorker.set(t);
            }
            return t;
        };
        List<Throwable> panics = new CopyOnWriteArrayList<>();
        PoolOptions options = PoolOptions.builder().name("launch").queueCapacity(1).disablePurge(true)
                .threadFactory(factory).panicHandler(panics::add).build();
        TaskRunner runner = new TaskRunner(options, task -> ((Runnable) task).run(), null);
        PoolCore core = new PoolCore(2, options, WorkerThreads.of(options), runner, () -> WaitRules.of(options));
        coreRef.set(core);

        AtomicInteger[] runs = {new AtomicInteger(), new AtomicInteger(), new AtomicInteger(), new AtomicInteger()};
        CountDownLatch startedA = new CountDownLatch(1);
        CountDownLatch startedB = new CountDownLatch(1);
        CountDownLatch releaseA = new CountDownLatch(1);
        CountDownLatch releaseB = new CountDownLatch(1);
        CountDownLatch allRan = new CountDownLatch(4);
        Thread caller = null;
        try {
            core.admit(runner.carry(task(runs[0], allRan, startedA, releaseA)), WaitRules.NO_LIMIT); // worker 1
            core.admit(runner.carry(task(runs[1], allRan, startedB, releaseB)), WaitRules.NO_LIMIT); // worker 2
            assertThat(startedA.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(startedB.await(10, TimeUnit.SECONDS)).isTrue();
            core.admit(runner.carry(task(runs[2], allRan, null, null)), WaitRules.NO_LIMIT); // X: the queue is full
            assertThat(core.queuedCount()).isEqualTo(1);
            caller = Thread.ofPlatform().start(() ->
                    core.admit(runner.carry(task(runs[3], allRan, null, null)), WaitRules.NO_LIMIT)); // C blocks
            await().atMost(Duration.ofSeconds(10)).until(() -> core.blockedCallers() == 1);

            core.lifecycle.tune(1); // two workers for one place: worker 1, once done, takes the locked path
            Thread callerThread = caller;
            core.lock.lock();
            try {
                releaseA.countDown();
                await().atMost(Duration.ofSeconds(10)).until(() -> core.lock.hasQueuedThread(firstWorker.get()));
                // Room for one more (the worker the growth reserves fails to start), the caller woken to retry.
                core.lifecycle.tune(3);
                await().atMost(Duration.ofSeconds(10)).until(() -> core.lock.hasQueuedThread(callerThread));
            } finally {
                core.lock.unlock();
            }
            // Worker 1 takes X, moves C into the queue and has a fourth worker started for it.
            assertThat(fourthMade.await(STATS_WAIT_SECONDS + 10, TimeUnit.SECONDS)).isTrue();
            assertThat(statsReadWhileFactoryWaited).as("a thread reading the pool's stats while the factory waited"
                    + " for it got the pool's lock").isTrue();
            assertThat(lockHeldInFactory).as("the thread factory ran with the pool's lock held").isFalse();
        } finally {
            releaseA.countDown();
            releaseB.countDown();
            if (caller != null) {
                caller.join(10_000);
            }
        }
        assertThat(allRan.await(10, TimeUnit.SECONDS)).isTrue();
        core.lifecycle.transitionTo(PoolCore.State.SHUTDOWN);
        assertThat(core.termination.await(10, TimeUnit.SECONDS)).isTrue();
        for (AtomicInteger r : runs) {
            assertThat(r).hasValue(1);
        }
        assertThat(made).hasValue(4);
        assertThat(panics).singleElement().isInstanceOf(RejectedExecutionException.class); // the third worker's
    }

    private static Runnable task(AtomicInteger runs, CountDownLatch allRan, CountDownLatch started,
                                 CountDownLatch release) {
        return () -> {
            runs.incrementAndGet();
            if (started != null) {
                started.countDown();
                awaitQuietly(release, 30);
            }
            allRan.countDown();
        };
    }

    private static boolean awaitQuietly(CountDownLatch latch, long seconds) {
        try {
            return latch.await(seconds, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
