package io.github.poolkit.stress;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Guarantee: a caller never stays blocked beside an idle worker. In a pool without a queue, the only worker finishes
 * its task and goes idle (without a lock: it pushes itself on the idle stack, then reads whether callers are blocked)
 * while a caller executes (it claims an idle worker, else spins, else joins the line and then claims again): at least
 * one of them must see the other, so the caller's task runs.
 *
 * <p>r1: 1 if the caller's task ran within {@link Quiesce#TIMEOUT_SECONDS}, else 0.
 */
@JCStressTest
@Outcome(id = "1", expect = ACCEPTABLE, desc = "the task ran")
@Outcome(expect = FORBIDDEN, desc = "the caller stayed blocked beside the idle worker")
@State
public class WorkerPoolHandOffVsIdle {

    /** Its only worker is held until the first actor opens the gate. */
    private final TestPool test = TestPool.holdingWorker(1, "jcs-handoff-idle", options -> options, new Runs());

    /** Lets the worker finish, so that it goes idle (unless a caller is already blocked). */
    @Actor
    public void finish() {
        test.gate.open();
    }

    /** Executes the task; it may block until the worker is free. */
    @Actor
    public void execute() {
        test.pool.execute(test.runs);
    }

    /** Waits for the task, then shuts the pool down. */
    @Arbiter
    public void arbiter(I_Result r) {
        r.r1 = test.runsBeforeTermination();
    }
}
