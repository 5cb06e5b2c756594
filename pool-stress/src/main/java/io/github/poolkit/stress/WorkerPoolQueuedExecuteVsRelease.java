package io.github.poolkit.stress;

import io.github.poolkit.PoolClosedException;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Guarantee: in a queued pool whose workers are all busy, a task appended (without the pool's lock) while another
 * thread releases the pool is either accepted and run exactly once, as the queue drains, or rejected with
 * {@link PoolClosedException} and never run. This is the appender that finds the pool closed under it and takes its
 * task back out of the queue, racing with the worker that drains the queue before it leaves.
 *
 * <p>r1: 1 if {@code execute} returned, 0 if it threw {@code PoolClosedException}. r2: how many times the task ran,
 * after termination ({@link Quiesce#STUCK} if the pool hung).
 */
@JCStressTest
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "queued before the release, and ran once as the queue drained")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "rejected by the closed pool, and never ran")
@Outcome(expect = FORBIDDEN, desc = "accepted but lost, run although rejected, run twice, or the pool hung")
@State
public class WorkerPoolQueuedExecuteVsRelease {

    /** Its only worker is held until the arbiter opens the gate, so that {@code execute} appends to the queue. */
    private final TestPool test = TestPool.holdingWorker(1, "jcs-queued-release",
            options -> options.queueCapacity(-1), new Runs());

    /** Submits the task. */
    @Actor
    public void execute(II_Result r) {
        r.r1 = Accepted.unless(PoolClosedException.class, () -> test.pool.execute(test.runs));
    }

    /** Releases the pool. */
    @Actor
    public void release() {
        test.pool.release();
    }

    /** Lets the worker go, waits for termination and counts the runs. */
    @Arbiter
    public void arbiter(II_Result r) {
        r.r2 = test.runsAfterTermination();
    }
}
