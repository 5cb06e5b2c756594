package io.github.poolkit.internal.pool;

import io.github.poolkit.PoolOptions;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An appender that withdraws its task because the pool closed after it appended ({@link QueuedPath#tryAppend}) frees
 * a queue slot that no worker's poll announces; should the pool have reopened meanwhile, a caller that found the queue
 * full and blocked must be woken to take that slot, not left waiting until a busy worker finishes.
 *
 * <p>The race has no seam inside {@code tryAppend}, so the test plays the appender's steps on the real engine in the
 * order of the race (append, the pool closes, the appender sees it closed, the pool reopens, a caller blocks, the
 * appender withdraws and does what {@code tryAppend} then does), with the pool's only worker held busy throughout.
 */
@Timeout(20)
class WithdrawnAppendTest {

    @RepeatedTest(20)
    void aCallerBlockedInAReopenedPoolTakesTheSlotAWithdrawnTaskFreed() throws Exception {
        PoolOptions options = PoolOptions.builder().name("withdrawn").queueCapacity(1).disablePurge(true).build();
        TaskRunner runner = new TaskRunner(options, task -> ((Runnable) task).run(), null);
        PoolCore core = new PoolCore(1, options, WorkerThreads.of(options), runner, () -> WaitRules.of(options));
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        core.admit(runner.carry((Runnable) () -> {
            started.countDown();
            awaitQuietly(release);
        }), WaitRules.NO_LIMIT);
        Thread caller = null;
        try {
            assertThat(started.await(10, TimeUnit.SECONDS)).isTrue(); // no room: appends go to the queue lock-free

            Object appended = runner.carry((Runnable) () -> { });
            long index = core.queue.offer(appended); // the appender appended: the queue of 1 is full
            core.lifecycle.transitionTo(PoolCore.State.SHUTDOWN);
            assertThat(core.isOpen()).isFalse(); // the appender sees the pool closed: it will withdraw
            core.lifecycle.reboot();

            CountDownLatch callerReturned = new CountDownLatch(1);
            caller = Thread.ofPlatform().start(() -> {
                core.admit(runner.carry((Runnable) () -> { }), WaitRules.NO_LIMIT);
                callerReturned.countDown();
            });
            await().atMost(Duration.ofSeconds(10)).until(() -> core.blockedCallers() == 1); // the queue is full

            assertThat(core.queue.withdraw(index, appended)).isTrue();
            core.queued.withdrawn(); // what tryAppend does after a withdraw

            assertThat(callerReturned.await(10, TimeUnit.SECONDS)).as("the blocked caller took the freed slot")
                    .isTrue();
            assertThat(core.queuedCount()).isEqualTo(1);
            assertThat(release.getCount()).isEqualTo(1); // while the worker was still busy
        } finally {
            release.countDown();
            core.lifecycle.transitionTo(PoolCore.State.SHUTDOWN);
            if (caller != null) {
                caller.join(10_000);
            }
        }
        assertThat(core.termination.await(10, TimeUnit.SECONDS)).isTrue();
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
