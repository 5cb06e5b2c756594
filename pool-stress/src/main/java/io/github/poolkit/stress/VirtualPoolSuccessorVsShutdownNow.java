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
 * Guarantee: with {@code virtualThreads(true)} and a queue, a queued task is either run by the fresh thread that takes
 * over a finished task's place or handed back by {@code shutdownNow}, never both and never neither. The successor
 * takes the task from the queue on its own thread, while {@code shutdownNow} drains the queue: the queue gives each
 * task to one taker. A pool of capacity 1 runs a task until the first actor opens the gate, with one task queued.
 *
 * <p>r1: how many times the queued task ran. r2: how many tasks {@code shutdownNow} handed back.
 */
@JCStressTest
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the successor ran the queued task")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "shutdownNow handed the queued task back")
@Outcome(expect = FORBIDDEN, desc = "the queued task was lost, or both ran it and handed it back")
@State
public class VirtualPoolSuccessorVsShutdownNow {

    private final TestPool test = TestPool.holdingWorker(1, "jcs-vsucc",
            options -> options.virtualThreads(true).queueCapacity(1), new Runs());
    private volatile int handedBack;

    /** Queues one task behind the one that occupies the only place until the first actor opens the gate. */
    public VirtualPoolSuccessorVsShutdownNow() {
        test.pool.execute(test.runs);
    }

    /** Lets the first task end: a fresh thread takes over its place and takes the queued task. */
    @Actor
    public void finish() {
        test.gate.open();
    }

    /** Stops the pool, draining its queue. */
    @Actor
    public void shutdownNow() {
        handedBack = test.pool.shutdownNow().size();
    }

    /** Waits for the pool to terminate, then counts. */
    @Arbiter
    public void arbiter(II_Result r) {
        r.r1 = test.runsAfterTermination();
        r.r2 = handedBack;
    }
}
