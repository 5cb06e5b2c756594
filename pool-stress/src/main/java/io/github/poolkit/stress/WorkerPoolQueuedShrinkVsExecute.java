package io.github.poolkit.stress;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import java.util.concurrent.CountDownLatch;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Guarantee: a shrink never strands a queued task. A queued pool of capacity 2 has one worker held at the gate and one
 * idle (or about to be); one thread submits while another shrinks the pool to 1. The submitter appends without the
 * lock (it saw a worker idle) and wakes that worker as the searcher, while the shrink stops an idle worker, or leaves
 * the searcher surplus so that it retires without taking the task; either way the worker that stays must take the
 * task. The arbiter opens the gate (the held worker is then surplus, or the one that stays), then waits for the task
 * while the pool is still open.
 *
 * <p>r1: 1 if the task ran within {@link Quiesce#TIMEOUT_SECONDS} while the pool was open, else 0. r2: workers
 * counted once the task ran (at most the shrunk capacity 1, plus the one still leaving: never more than 2).
 */
@JCStressTest
@Outcome(id = {"1, 1", "1, 2"}, expect = ACCEPTABLE, desc = "the task ran")
@Outcome(expect = FORBIDDEN, desc = "the task was stranded in the queue, or a worker started beyond the capacity")
@State
public class WorkerPoolQueuedShrinkVsExecute {

    private final TestPool test = TestPool.holdingWorker(2, "jcs-queued-shrink",
            options -> options.queueCapacity(-1), new Runs());

    public WorkerPoolQueuedShrinkVsExecute() {
        CountDownLatch ran = new CountDownLatch(1);
        test.pool.execute(ran::countDown); // a second worker, which goes idle once this ends
        try {
            ran.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Submits the task. */
    @Actor
    public void execute() {
        test.pool.execute(test.runs);
    }

    /** Shrinks the pool to one worker. */
    @Actor
    public void shrink() {
        test.pool.tune(1);
    }

    /** Lets the held worker go on, waits for the task while the pool is open, then terminates the pool. */
    @Arbiter
    public void arbiter(II_Result r) {
        test.gate.open();
        r.r1 = test.runs.awaitExpected();
        r.r2 = test.pool.running();
        Quiesce.terminate(test.pool);
    }
}
