package io.github.poolkit.stress;

import io.github.poolkit.PoolClosedException;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Guarantee: with {@code virtualThreads(true)}, a task that a caller reserves a place for without the lock while
 * another thread releases the pool is either refused or runs, and a pool seen terminated never holds it. The caller
 * CASes the count, then reads whether the pool is still open (giving the place back if not); the close writes its
 * state, then reads the count: a close that misses the place is seen by the caller, which then refuses the task.
 *
 * <p>r1: 1 if {@code execute} accepted the task (held at the gate), 0 if it threw {@link PoolClosedException}. r2: 1
 * if the pool was terminated when {@code release()} returned. r3: the task's runs once the pool has terminated.
 */
@JCStressTest
@Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "accepted before the close, which then waits for it")
@Outcome(id = "0, 1, 0", expect = ACCEPTABLE, desc = "refused: the close came first, nothing runs")
@Outcome(id = "0, 0, 0", expect = ACCEPTABLE, desc = "refused, its place given back after release() returned")
@Outcome(expect = FORBIDDEN, desc = "a terminated pool holds a task, an accepted task did not run once, or a refused"
        + " one ran")
@State
public class VirtualPoolExecuteVsRelease {

    private final TestPool test = new TestPool(1, "jcs-virtual-execute-release",
            options -> options.virtualThreads(true), new Runs());

    /** Executes the task, which waits at the gate once it runs. */
    @Actor
    public void execute(III_Result r) {
        r.r1 = Accepted.unless(PoolClosedException.class, () -> test.pool.execute(test.gate.holdAfter(test.runs)));
    }

    /** Releases the pool and reads whether it is terminated at once. */
    @Actor
    public void release(III_Result r) {
        test.pool.release();
        r.r2 = test.pool.isTerminated() ? 1 : 0;
    }

    /** Opens the gate, waits for termination, then counts the runs. */
    @Arbiter
    public void arbiter(III_Result r) {
        r.r3 = test.runsAfterTermination();
    }
}
