package io.github.poolkit.stress;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Guarantee: once {@code tune} has shrunk the capacity, no new worker is started beyond it. A nonblocking pool of
 * capacity 2 is shrunk to 1 while another thread submits two tasks that hold their workers until the arbiter opens the
 * gate. If {@code running()}, read right after {@code tune(1)} returned, is below 2, then at most one worker existed
 * when the shrink took effect and the second task must have been refused.
 *
 * <p>r1: {@code running()} right after {@code tune(1)}. r2: tasks accepted. r3: tasks that ran, after termination
 * ({@link Quiesce#STUCK} if the pool hung).
 */
@JCStressTest
@Outcome(id = {"0, 1, 1", "1, 1, 1"}, expect = ACCEPTABLE, desc = "the shrink came first: only one task accepted")
@Outcome(id = "2, 2, 2", expect = ACCEPTABLE, desc = "both tasks accepted before the shrink (busy surplus worker)")
@Outcome(expect = FORBIDDEN, desc = "a worker started beyond the shrunk capacity, or a task was lost or run twice")
@State
public class WorkerPoolTuneVsExecute {

    private final TestPool test = new TestPool(2, "jcs-tune-exec", options -> options.nonblocking(true), new Runs());

    /** Shrinks the pool, then looks at how many workers it has. */
    @Actor
    public void tune(III_Result r) {
        r.r1 = test.tuneThenRunning(1);
    }

    /** Submits two gated tasks (a refused one was refused because the capacity was reached). */
    @Actor
    public void submit(III_Result r) {
        r.r2 = test.submitHeld() + test.submitHeld();
    }

    /** Lets the tasks finish, terminates the pool and counts the runs. */
    @Arbiter
    public void arbiter(III_Result r) {
        r.r3 = test.runsAfterTermination();
    }
}
