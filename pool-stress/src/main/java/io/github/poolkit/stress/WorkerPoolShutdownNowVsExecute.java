package io.github.poolkit.stress;

import io.github.poolkit.PoolClosedException;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import java.util.List;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Guarantee: no accepted task is lost by {@code shutdownNow}: it either runs or is handed back, exactly one of the two.
 * The pool's only worker is held by a task that waits until interrupted (by {@code shutdownNow}), so a task accepted
 * meanwhile goes to the queue, where {@code shutdownNow} must find it.
 *
 * <p>r1: 1 if {@code execute} accepted the task, 0 if it was rejected as closed. r2: 1 if {@code shutdownNow} handed
 * it back. r3: how many times it ran, after termination ({@link Quiesce#STUCK} if the pool hung). The task can not
 * run: the only worker is held until {@code shutdownNow} has drained the queue.
 */
@JCStressTest
@Outcome(id = "1, 1, 0", expect = ACCEPTABLE, desc = "queued, then handed back by shutdownNow, never ran")
@Outcome(id = "0, 0, 0", expect = ACCEPTABLE, desc = "rejected by the stopped pool")
@Outcome(expect = FORBIDDEN, desc = "lost, run and handed back, run twice, or the pool hung")
@State
public class WorkerPoolShutdownNowVsExecute {

    /** Its only worker is held until {@code shutdownNow} interrupts it (or the arbiter opens the gate). */
    private final TestPool test = TestPool.holdingWorker(1, "jcs-stop-exec",
            options -> options.queueCapacity(-1), new Runs());

    /** Submits the task. */
    @Actor
    public void execute(III_Result r) {
        r.r1 = Accepted.unless(PoolClosedException.class, () -> test.pool.execute(test.runs));
    }

    /** Stops the pool and looks for the task among the ones handed back. */
    @Actor
    public void shutdownNow(III_Result r) {
        List<Runnable> handedBack = test.pool.shutdownNow();
        r.r2 = handedBack.contains(test.runs) ? 1 : 0;
    }

    /** Terminates the pool and counts the runs. */
    @Arbiter
    public void arbiter(III_Result r) {
        r.r3 = test.runsAfterTermination();
    }
}
