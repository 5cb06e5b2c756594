package io.github.poolkit.stress;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Guarantee: with {@code virtualThreads(true)} and a queue, a task appended while the only worker gives its place back
 * is never stranded in the open pool. The worker drops the count without the lock, then reads the queue (and starts a
 * worker for it under the lock if it is not empty); the caller finds no room, appends without the lock, then reads the
 * count: one of the two sees the other, so the task runs, once, with no shutdown to push it along.
 *
 * <p>r1: the task's runs while the pool is still open, within {@link Quiesce#TIMEOUT_SECONDS}. r2: workers counted
 * after termination ({@link Quiesce#STUCK} if the pool did not terminate).
 */
@JCStressTest
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the task ran once, every place given back")
@Outcome(expect = FORBIDDEN, desc = "the task was stranded in the queue or ran twice, or a place was lost")
@State
public class VirtualPoolQueuedAppendVsPassOn {

    private final TestPool test = TestPool.holdingWorker(1, "jcs-virtual-append-passon",
            options -> options.virtualThreads(true).queueCapacity(-1), new Runs());

    /** Lets the held task end: its worker gives its place back without the lock. */
    @Actor
    public void finish() {
        test.gate.open();
    }

    /** Executes the task: with the place taken, it is appended to the queue without the lock. */
    @Actor
    public void execute() {
        test.pool.execute(test.runs);
    }

    /** Waits for the task while the pool is open, then terminates it and counts its workers. */
    @Arbiter
    public void arbiter(II_Result r) {
        r.r1 = test.runs.awaitExpected();
        r.r2 = Quiesce.terminate(test.pool) ? test.pool.running() : Quiesce.STUCK;
    }
}
