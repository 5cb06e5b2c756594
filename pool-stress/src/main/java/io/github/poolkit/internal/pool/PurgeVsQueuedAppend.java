package io.github.poolkit.internal.pool;

import io.github.poolkit.PoolOptions;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Guarantee (invariant 3 of {@link PoolCore}): a task appended to the queue without the lock while the expiry stops
 * the pool's only idle worker is never stranded in the open pool. The appender appends, then looks for an idle worker
 * to hand the queue to; the expiry claims the idle worker with STOP under the lock, then starts a worker for the queue
 * if it holds anything ({@code reserveForQueue}): one of the two sees the other, so the task runs with no later
 * submission or shutdown to push it along. (The purge is called here as its timer would call it; every idle worker is
 * expired, as the pool's expiry is disabled.)
 *
 * <p>r1: 1 if the task ran while the pool was open, within 30 s. r2: workers counted once the pool, shut down by the
 * arbiter, terminated (-1 if it did not terminate in time).
 */
@JCStressTest
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the task ran; every worker gone after the shutdown")
@Outcome(expect = FORBIDDEN, desc = "the task was stranded in the queue beside no worker, or a worker was lost")
@State
public class PurgeVsQueuedAppend {

    private static final long TIMEOUT_SECONDS = 30;

    private final PoolOptions options = PoolOptions.builder().name("jcs-purge-append").queueCapacity(-1)
            .disablePurge(true).build();
    private final TaskRunner runner = new TaskRunner(options, task -> ((Runnable) task).run(), null);
    private final PoolCore core = new PoolCore(1, options, WorkerThreads.of(options), runner,
            () -> WaitRules.of(options));
    private final CountDownLatch ran = new CountDownLatch(1);

    /** Starts the only worker with a task of its own and waits (a bounded spin) until it is idle. */
    public PurgeVsQueuedAppend() {
        core.admit(runner.carry((Runnable) () -> { }), WaitRules.NO_LIMIT);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
        while (core.idle.size() == 0 && System.nanoTime() - deadline < 0) {
            Thread.onSpinWait(); // if it never goes idle, the race is with a busy worker: still a valid run
        }
    }

    /** The purge: stops the idle worker, then starts one for the queue if it holds anything. */
    @Actor
    public void purge() {
        core.lifecycle.purgeExpiredWorkers();
    }

    /** A caller: with the worker idle or gone, the task is appended without the lock (or handed to the worker). */
    @Actor
    public void execute() {
        core.admit(runner.carry((Runnable) ran::countDown), WaitRules.NO_LIMIT);
    }

    /** Waits for the task while the pool is open, then shuts it down and counts its workers. */
    @Arbiter
    public void arbiter(II_Result r) {
        try {
            r.r1 = ran.await(TIMEOUT_SECONDS, TimeUnit.SECONDS) ? 1 : 0;
            core.lifecycle.transitionTo(PoolCore.State.SHUTDOWN);
            r.r2 = core.termination.await(TIMEOUT_SECONDS, TimeUnit.SECONDS) ? core.running() : -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            r.r2 = -1;
        }
    }
}
