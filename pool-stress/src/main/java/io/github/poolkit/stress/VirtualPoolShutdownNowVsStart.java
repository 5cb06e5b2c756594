package io.github.poolkit.stress;

import io.github.poolkit.PoolClosedException;
import io.github.poolkit.WorkerPool;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Guarantee: {@code shutdownNow} interrupts every task of a virtual-thread pool that it did not stop from starting,
 * even one whose fresh thread is just listing itself in the pool's lock-free live set as {@code shutdownNow} scans it:
 * the thread lists itself, then reads the pool's state; {@code shutdownNow} writes the state, then scans, so one of the
 * two sees the other. The task waits at a gate until interrupted, so a missed interrupt leaves it waiting until the
 * arbiter opens the gate.
 *
 * <p>r1: 1 if {@code execute} accepted the task, 0 if it was rejected as closed. r2: 1 if the task ran and was
 * interrupted, 0 if it ran and was let go by the arbiter (missed), {@value #NEVER_RAN} if it never ran,
 * {@link Quiesce#STUCK} if the pool hung.
 */
@JCStressTest
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "accepted, then interrupted by shutdownNow")
@Outcome(id = "0, 2", expect = ACCEPTABLE, desc = "rejected by the stopped pool")
@Outcome(expect = FORBIDDEN, desc = "accepted but not interrupted, or lost, or the pool hung")
@State
public class VirtualPoolShutdownNowVsStart {

    /** What {@code interrupted} reads while the task has not run. */
    static final int NEVER_RAN = 2;

    private final WorkerPool pool = Pools.create(2, "jcs-vstop", options -> options.virtualThreads(true));
    private final Gate gate = new Gate();
    private volatile int interrupted = NEVER_RAN;

    /** Submits a task that waits at the gate, and records whether an interrupt ended the wait. */
    @Actor
    public void execute(II_Result r) {
        r.r1 = Accepted.unless(PoolClosedException.class, () -> pool.execute(() -> {
            gate.hold();
            interrupted = Thread.currentThread().isInterrupted() ? 1 : 0;
        }));
    }

    /** Stops the pool, interrupting its running tasks. */
    @Actor
    public void shutdownNow() {
        pool.shutdownNow();
    }

    /** Lets a task that was missed go, waits for the pool to terminate, and reads what the task saw. */
    @Arbiter
    public void arbiter(II_Result r) {
        gate.open();
        r.r2 = Quiesce.terminate(pool) ? interrupted : Quiesce.STUCK;
    }
}
