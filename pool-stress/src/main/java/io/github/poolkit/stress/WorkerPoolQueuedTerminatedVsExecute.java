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
 * Guarantee: once a pool is terminated it stays terminated (until it is rebooted), even while a submitter that saw it
 * open appends to its queue. The queued pool's only worker has run a task, so the submitter appends without the lock
 * (no room for another worker); meanwhile another thread closes the pool, which then terminates as soon as the worker
 * leaves, and watches {@code isTerminated()}. A submitter that appends after termination sees the pool closed and
 * withdraws its task, which is then refused; the queue holds that task for an instant, which the pool must not
 * report as "not terminated" any more.
 *
 * <p>r1: 1 if {@code execute} accepted the task, 0 if it was refused as closed. r2: how many times it ran, after
 * termination ({@link Quiesce#STUCK} if the pool hung). r3: 1 if the closing thread saw {@code isTerminated()} true,
 * then false.
 */
@JCStressTest
@Outcome(id = "1, 1, 0", expect = ACCEPTABLE, desc = "accepted and run once")
@Outcome(id = "0, 0, 0", expect = ACCEPTABLE, desc = "refused by the closed pool, never run")
@Outcome(expect = FORBIDDEN, desc = "terminated, then not terminated; or the task lost, run twice, or the pool hung")
@State
public class WorkerPoolQueuedTerminatedVsExecute {

    /** How many times the closing thread reads {@code isTerminated()}. */
    private static final int READS = 1_000;

    private final TestPool test = new TestPool(1, "jcs-queued-terminated",
            options -> options.queueCapacity(-1), new Runs());

    public WorkerPoolQueuedTerminatedVsExecute() {
        test.pool.execute(() -> { }); // the only worker: it finishes and goes idle (or leaves at the close)
    }

    /** Submits the task. */
    @Actor
    public void execute(III_Result r) {
        r.r1 = Accepted.unless(PoolClosedException.class, () -> test.pool.execute(test.runs));
    }

    /** Closes the pool, then watches it terminate. */
    @Actor
    public void releaseAndWatch(III_Result r) {
        test.pool.release();
        boolean terminated = false;
        for (int i = 0; i < READS; i++) {
            boolean now = test.pool.isTerminated();
            if (terminated && !now) {
                r.r3 = 1;
                return;
            }
            terminated = now;
        }
    }

    /** Terminates the pool and counts the runs. */
    @Arbiter
    public void arbiter(III_Result r) {
        r.r2 = test.runsAfterTermination();
    }
}
