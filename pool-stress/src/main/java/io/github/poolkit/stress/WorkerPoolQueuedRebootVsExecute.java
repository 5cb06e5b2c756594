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
 * Guarantee: a task appended while the pool closes and reopens is run exactly when it was accepted. The queued pool's
 * only worker is held at the gate, so the submitter appends without the lock; meanwhile another thread closes the pool
 * and reopens it at once. The submitter may see the pool open, closed (it then withdraws its task and the locked path
 * decides, refusing it, or queueing it again if the pool is open by then) or open again; whatever it answers, the task
 * must run exactly once if accepted and never if refused.
 *
 * <p>r1: 1 if {@code execute} accepted the task, 0 if it was refused as closed. r2: how many times it ran, after
 * termination ({@link Quiesce#STUCK} if the pool hung).
 */
@JCStressTest
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "accepted and run once")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "refused by the closed pool, never run")
@Outcome(expect = FORBIDDEN, desc = "accepted and lost, refused and run, run twice, or the pool hung")
@State
public class WorkerPoolQueuedRebootVsExecute {

    /** Its only worker is held until the arbiter opens the gate. */
    private final TestPool test = TestPool.holdingWorker(1, "jcs-queued-reboot",
            options -> options.queueCapacity(-1), new Runs());

    /** Submits the task. */
    @Actor
    public void execute(II_Result r) {
        r.r1 = Accepted.unless(PoolClosedException.class, () -> test.pool.execute(test.runs));
    }

    /** Closes the pool and reopens it. */
    @Actor
    public void releaseAndReboot() {
        test.pool.release();
        test.pool.reboot();
    }

    /** Lets the held worker go on, terminates the pool and counts the runs. */
    @Arbiter
    public void arbiter(II_Result r) {
        r.r2 = test.runsAfterTermination();
    }
}
