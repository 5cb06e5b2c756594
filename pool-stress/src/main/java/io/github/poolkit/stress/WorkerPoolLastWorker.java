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
 * Guarantee: capacity is never exceeded when two callers race for the last free worker (ants #374: the check
 * "running &lt; capacity" and the increment must be one step). A nonblocking pool of capacity 1 gets two tasks that hold
 * their worker until the arbiter opens the gate: exactly one is accepted, the other gets
 * {@link io.github.poolkit.PoolOverloadException}.
 *
 * <p>r1, r2: 1 if that actor's {@code execute} was accepted, 0 if it was overloaded. r3: how many tasks ran, after
 * termination ({@link Quiesce#STUCK} if the pool hung).
 */
@JCStressTest
@Outcome(id = {"1, 0, 1", "0, 1, 1"}, expect = ACCEPTABLE, desc = "one caller got the worker, the other was overloaded")
@Outcome(expect = FORBIDDEN, desc = "both accepted (capacity exceeded), none accepted, or a task lost or run twice")
@State
public class WorkerPoolLastWorker {

    private final TestPool test = new TestPool(1, "jcs-last-worker", options -> options.nonblocking(true), new Runs());

    /** First caller. */
    @Actor
    public void first(III_Result r) {
        r.r1 = test.submitHeld();
    }

    /** Second caller. */
    @Actor
    public void second(III_Result r) {
        r.r2 = test.submitHeld();
    }

    /** Lets the task finish, terminates the pool and counts the runs. */
    @Arbiter
    public void arbiter(III_Result r) {
        r.r3 = test.runsAfterTermination();
    }
}
