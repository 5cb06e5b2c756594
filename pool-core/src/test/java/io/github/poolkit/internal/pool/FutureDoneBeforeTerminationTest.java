package io.github.poolkit.internal.pool;

import io.github.poolkit.PoolOptions;
import io.github.poolkit.internal.CountedRun;
import io.github.poolkit.internal.TaskCounter;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A pool is terminated only once the futures of its tasks are done, as {@code ExecutorService.awaitTermination}
 * promises ("all tasks have completed execution"): a close that comes while a worker completes its last future (the
 * task counted, the future about to complete) does not find the pool terminated until the future is done, although a
 * close that comes after it may retire that worker on its behalf. The future is held between its count and its
 * completion here, where a preemption could hold it.
 */
@Timeout(30)
class FutureDoneBeforeTerminationTest {

    @Test
    void aCloseWhileTheLastFutureCompletesDoesNotFindThePoolTerminatedBeforeItIsDone() throws Exception {
        for (int queue : new int[] {0, -1}) {
            for (boolean virtual : new boolean[] {false, true}) {
                PoolEngine engine = new PoolEngine(1, PoolOptions.builder().queueCapacity(queue)
                        .virtualThreads(virtual).build(), PoolEngine.RUNNABLES);
                HeldFuture future = new HeldFuture();
                engine.execute(future);
                assertThat(future.counted.await(10, TimeUnit.SECONDS)).isTrue();

                engine.release(); // waits a little for the completion, not for ever

                String mode = "queue " + queue + ", virtual " + virtual;
                assertThat(engine.isTerminated()).as("terminated before the future is done: " + mode).isFalse();
                future.mayComplete.countDown();
                assertThat(engine.awaitTermination(10, TimeUnit.SECONDS)).as(mode).isTrue();
                assertThat(future.done).as(mode).isTrue();
            }
        }
    }

    /** A pool's own future (as a submitted task), held after its count until the test lets it complete. */
    private static final class HeldFuture implements CountedRun {
        final CountDownLatch counted = new CountDownLatch(1);
        final CountDownLatch mayComplete = new CountDownLatch(1);
        final AtomicBoolean done = new AtomicBoolean();

        @Override
        public void runCounted(TaskCounter counter) {
            counter.countEnded(null, true);
            counted.countDown();
            try {
                mayComplete.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            done.set(true); // the future completes
            counter.futureCompleted();
        }

        @Override
        public void run() {
            throw new AssertionError("a pool's worker runs it counted");
        }

        @Override
        public boolean isCancelled() {
            return false;
        }
    }
}
