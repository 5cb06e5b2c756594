package io.github.poolkit.stress;

import io.github.poolkit.PoolOverloadException;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Guarantee (as {@link WorkerPoolTuneVsExecute}, for {@code virtualThreads(true)}, whose callers reserve a place
 * without the pool's lock): once {@code tune} has shrunk the capacity, no new worker is started beyond it. A
 * nonblocking pool of capacity 2 with one place held is shrunk to 1 while another thread submits a task. If
 * {@code running()}, read right after {@code tune(1)} returned, is 1, the submitted task must have been refused.
 *
 * <p>r1: {@code running()} right after {@code tune(1)}. r2: tasks accepted. r3: tasks that ran, after termination
 * ({@link Quiesce#STUCK} if the pool hung).
 */
@JCStressTest
@Outcome(id = "1, 0, 0", expect = ACCEPTABLE, desc = "the shrink came first: the task was refused")
@Outcome(id = "2, 1, 1", expect = ACCEPTABLE, desc = "the task was accepted before the shrink (busy surplus worker)")
@Outcome(id = "2, 0, 0", expect = ACCEPTABLE_INTERESTING,
        desc = "a place reserved an instant before it was given back for the shrink: the task was refused")
@Outcome(expect = FORBIDDEN, desc = "a worker started beyond the shrunk capacity, or a task was lost or run twice")
@State
public class VirtualPoolTuneVsExecute {

    /** One place of two held until the arbiter opens the gate; that task is not counted in {@link Runs}. */
    private final TestPool test = TestPool.holdingWorker(2, "jcs-virtual-tune",
            options -> options.virtualThreads(true).nonblocking(true), new Runs());

    /** Shrinks the pool, then looks at how many places it has taken. */
    @Actor
    public void tune(III_Result r) {
        r.r1 = test.tuneThenRunning(1);
    }

    /** Submits a gated task (refused if the capacity is reached). */
    @Actor
    public void submit(III_Result r) {
        r.r2 = test.submitHeld();
    }

    /** Lets the tasks finish, terminates the pool and counts the runs. */
    @Arbiter
    public void arbiter(III_Result r) {
        r.r3 = test.runsAfterTermination();
    }
}
