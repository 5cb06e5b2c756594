package io.github.poolkit.internal.pool;

import io.github.poolkit.PoolOptions;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Once terminated, a pool stays terminated until it is rebooted: an appender that saw the pool open before it closed
 * may still put its task in the queue after the pool terminated (it then sees the pool closed and withdraws the task,
 * {@link QueuedPath#tryAppend}), and for that instant the queue is not empty; the pool must not report itself not
 * terminated meanwhile, nor start a worker for that task.
 *
 * <p>The race has no seam inside {@code tryAppend}, so the test plays the appender's steps on the real engine in the
 * order of the race (the appender saw the pool open, the pool closes and terminates, the appender appends, sees the
 * pool closed, withdraws); the jcstress test {@code WorkerPoolQueuedTerminatedVsExecute} races them for real.
 */
@Timeout(20)
class TerminatedStaysTerminatedTest {

    @RepeatedTest(20)
    void aTaskAppendedAfterTerminationAndWithdrawnLeavesThePoolTerminated() throws Exception {
        PoolOptions options = PoolOptions.builder().name("terminated").queueCapacity(1).disablePurge(true).build();
        TaskRunner runner = new TaskRunner(options, task -> ((Runnable) task).run(), null);
        PoolCore core = new PoolCore(1, options, WorkerThreads.of(options), runner, () -> WaitRules.of(options));
        CountDownLatch ran = new CountDownLatch(1);
        core.admit(runner.carry((Runnable) ran::countDown), WaitRules.NO_LIMIT); // the only worker
        assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();

        core.lifecycle.transitionTo(PoolCore.State.SHUTDOWN); // the appender has seen the pool open
        assertThat(core.termination.await(10, TimeUnit.SECONDS)).isTrue();

        Object appended = runner.carry((Runnable) () -> { });
        long index = core.queue.offer(appended); // the appender appends
        assertThat(index).isNotNegative();
        assertThat(core.isTerminated()).as("terminated while a withdrawing appender's task is queued").isTrue();
        assertThat(core.termination.await(0, TimeUnit.SECONDS)).isTrue();
        core.startWorkerForQueue(); // e.g. a retry of a failed worker start: nothing to start in a terminated pool
        assertThat(core.running()).isZero();

        assertThat(core.queue.withdraw(index, appended)).isTrue(); // it sees the pool closed and withdraws
        core.queued.withdrawn();
        assertThat(core.isTerminated()).isTrue();

        core.lifecycle.reboot(); // reopens it: not terminated any more, and it terminates again
        assertThat(core.isTerminated()).isFalse();
        CountDownLatch ranAgain = new CountDownLatch(1);
        core.admit(runner.carry((Runnable) ranAgain::countDown), WaitRules.NO_LIMIT);
        assertThat(ranAgain.await(10, TimeUnit.SECONDS)).isTrue();
        core.lifecycle.transitionTo(PoolCore.State.SHUTDOWN);
        assertThat(core.termination.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(core.isTerminated()).isTrue();
    }
}
