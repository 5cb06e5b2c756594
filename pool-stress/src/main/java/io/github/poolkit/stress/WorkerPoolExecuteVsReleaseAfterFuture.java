package io.github.poolkit.stress;

import io.github.poolkit.PoolClosedException;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import java.util.concurrent.Future;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Guarantee: a close that retires, on its behalf, the worker that has just completed a future (it holds no task and
 * has taken none) never strands a task that another thread appends meanwhile: the close reads the queue after it
 * closed the pool and retires the worker only with one CAS that the worker's own CAS, before it takes the task,
 * excludes; the appender reads the pool's state after it appended and takes its task back out if it finds it closed.
 * So the task is accepted and run exactly once, or refused and never run.
 *
 * <p>r1: 1 if {@code execute} returned, 0 if it threw {@code PoolClosedException}. r2: how many times the task ran,
 * after termination ({@link Quiesce#STUCK} if the pool hung, as it would with the task stranded in the queue).
 */
@JCStressTest
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "queued before the close, and run once by the worker")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "refused by the closed pool, and never run")
@Outcome(expect = FORBIDDEN, desc = "accepted but stranded or lost, run although refused, run twice, or hung")
@State
public class WorkerPoolExecuteVsReleaseAfterFuture {

    /** One worker and a queue: while that worker is counted, {@code execute} appends without the lock. */
    private final TestPool test = new TestPool(1, "jcs-release-after-future", options -> options.queueCapacity(-1),
            new Runs());

    /** Runs a future, sees it done, and closes the pool while its worker is on its way to the next task. */
    @Actor
    public void closeAfterFuture() {
        Future<?> first = test.pool.submit(() -> { });
        while (!first.isDone()) {
            Thread.onSpinWait();
        }
        test.pool.release();
    }

    /** Submits the task. */
    @Actor
    public void execute(II_Result r) {
        r.r1 = Accepted.unless(PoolClosedException.class, () -> test.pool.execute(test.runs));
    }

    /** Waits for termination and counts the runs. */
    @Arbiter
    public void arbiter(II_Result r) {
        r.r2 = test.runsAfterTermination();
    }
}
