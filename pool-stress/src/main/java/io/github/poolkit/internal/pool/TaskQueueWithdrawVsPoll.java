package io.github.poolkit.internal.pool;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Guarantee: a queued task that its appender withdraws while a consumer polls is either withdrawn or taken, exactly
 * one of the two (the engine runs a taken task and rejects a withdrawn one).
 *
 * <p>r1: 1 if {@code withdraw} succeeded. r2: 1 if {@code poll} returned the task. r3: 1 if the task was still in the
 * queue afterwards.
 */
@JCStressTest
@Outcome(id = "1, 0, 0", expect = ACCEPTABLE, desc = "withdrawn; the consumer found the queue empty")
@Outcome(id = "0, 1, 0", expect = ACCEPTABLE, desc = "taken; the withdrawal came too late")
@Outcome(expect = FORBIDDEN, desc = "both, neither, or left behind")
@State
public class TaskQueueWithdrawVsPoll {

    private final OneQueuedTask queued = new OneQueuedTask(new TaskQueue(-1));

    /** The appender takes its task back. */
    @Actor
    public void withdraw(III_Result r) {
        r.r1 = queued.withdraw();
    }

    /** A worker takes the head. */
    @Actor
    public void poll(III_Result r) {
        r.r2 = queued.poll();
    }

    /** Looks for what is left. */
    @Arbiter
    public void arbiter(III_Result r) {
        r.r3 = queued.left();
    }
}
