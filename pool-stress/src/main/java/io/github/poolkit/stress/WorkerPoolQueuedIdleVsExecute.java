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
 * Guarantee: a queued task never waits beside an idle worker. The pool's only worker finishes its task and goes idle
 * while another thread submits: the submitter appends to the queue without the lock (it saw the worker busy), the
 * worker looks at the queue without the lock before it parks, and at least one of them must see the other, so the
 * task runs while the pool is open, without any later submission or shutdown to push it along.
 *
 * <p>r1: 1 if the task ran within {@link Quiesce#TIMEOUT_SECONDS} while the pool was open, else 0.
 */
@JCStressTest
@Outcome(id = "1", expect = ACCEPTABLE, desc = "the task ran")
@Outcome(expect = FORBIDDEN, desc = "the task was stranded in the queue beside the idle worker")
@State
public class WorkerPoolQueuedIdleVsExecute {

    /** Its only worker is held until the first actor opens the gate. */
    private final TestPool test = TestPool.holdingWorker(1, "jcs-queued-idle",
            options -> options.queueCapacity(-1), new Runs());

    /** Lets the worker finish, so that it goes idle (unless it finds the task queued first). */
    @Actor
    public void finish() {
        test.gate.open();
    }

    /** Submits the task. */
    @Actor
    public void execute() {
        test.pool.execute(test.runs);
    }

    /** Waits for the task while the pool is still open, then shuts the pool down. */
    @Arbiter
    public void arbiter(I_Result r) {
        r.r1 = test.runsBeforeTermination();
    }
}
