package io.github.poolkit.stress;

import io.github.poolkit.PoolClosedException;
import io.github.poolkit.PoolStats;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Guarantee, as {@link WorkerPoolExecuteVsRelease} but with the pool's one worker idle, so that {@code execute} hands
 * the task to it without the lock ({@code HandOffPath}: a claim of the idle worker's slot) while the release claims
 * every idle worker to stop it: a task is either accepted and run exactly once, or refused and never run.
 *
 * <p>r1: 1 if {@code execute} returned, 0 if it threw {@link PoolClosedException}. r2: how many times the task ran,
 * read after the pool terminated ({@link Quiesce#STUCK} if it did not).
 */
@JCStressTest
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "handed to the idle worker before the release, and ran once")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "refused by the closed pool, and never ran")
@Outcome(expect = FORBIDDEN, desc = "accepted but lost, run although refused, run twice, or the pool hung")
@State
public class WorkerPoolIdleHandOffVsRelease {

    private final TestPool test = new TestPool(1, "jcs-idle-handoff-release", options -> options, new Runs());

    /** Starts the worker with a task of its own and waits (a bounded spin) until it is idle again. */
    public WorkerPoolIdleHandOffVsRelease() {
        test.pool.execute(() -> { });
        long deadline = System.nanoTime() + 1_000_000_000L;
        for (PoolStats s = test.pool.stats(); s.completed() == 0 || s.busy() != 0; s = test.pool.stats()) {
            if (System.nanoTime() - deadline > 0) {
                break; // the race is then with a busy worker: still a valid run of the guarantee
            }
            Thread.onSpinWait();
        }
    }

    /** Submits the task: to the idle worker, without the lock. */
    @Actor
    public void execute(II_Result r) {
        r.r1 = Accepted.unless(PoolClosedException.class, () -> test.pool.execute(test.runs));
    }

    /** Releases the pool, stopping its idle worker. */
    @Actor
    public void release() {
        test.pool.release();
    }

    /** Waits for termination and counts the runs. */
    @Arbiter
    public void arbiter(II_Result r) {
        r.r2 = test.runsAfterTermination();
    }
}
