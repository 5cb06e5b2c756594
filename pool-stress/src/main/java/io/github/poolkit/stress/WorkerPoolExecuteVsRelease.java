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
 * Guarantee: a task given to {@code execute} while another thread releases the pool is either accepted and run
 * exactly once, or rejected with {@link PoolClosedException} and never run; never both, never neither.
 *
 * <p>r1: 1 if {@code execute} returned, 0 if it threw {@code PoolClosedException}. r2: how many times the task ran,
 * read after the pool terminated ({@link Quiesce#STUCK} if it did not).
 */
@JCStressTest
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "accepted before the release, and ran once")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "rejected by the closed pool, and never ran")
@Outcome(expect = FORBIDDEN, desc = "accepted but lost, run although rejected, run twice, or the pool hung")
@State
public class WorkerPoolExecuteVsRelease {

    private final TestPool test = new TestPool(1, "jcs-exec-release", options -> options, new Runs());

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

    /** Waits for termination and counts the runs. */
    @Arbiter
    public void arbiter(II_Result r) {
        r.r2 = test.runsAfterTermination();
    }
}
