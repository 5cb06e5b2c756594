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
 * Guarantee: two tasks appended at once beside one idle worker both run, with the pool's other worker busy all along.
 * Only one searcher may be on its way at a time: the appender that finds one on its way wakes nobody, so the searcher
 * must see its task (it stops searching, then reads the queue), and a worker still going idle must see both (it pushes
 * itself, then reads the queue).
 *
 * <p>r1: how many of the two tasks ran within {@link Quiesce#TIMEOUT_SECONDS} while the other worker was still busy.
 */
@JCStressTest
@Outcome(id = "2", expect = ACCEPTABLE, desc = "both tasks ran on the idle worker")
@Outcome(expect = FORBIDDEN, desc = "a task was stranded in the queue beside an idle worker")
@State
public class WorkerPoolQueuedSearcher {

    /** One worker is held until the arbiter is done. */
    private final TestPool test = TestPool.holdingWorker(2, "jcs-searcher",
            options -> options.queueCapacity(-1), new Runs(2));

    /** The other worker runs a task and goes idle (or is on its way there). */
    public WorkerPoolQueuedSearcher() {
        Gate second = new Gate();
        test.pool.execute(second::open);
        second.hold();
    }

    /** Appends one task. */
    @Actor
    public void first() {
        test.pool.execute(test.runs);
    }

    /** Appends the other. */
    @Actor
    public void second() {
        test.pool.execute(test.runs);
    }

    /** Counts the tasks that ran while the first worker was still held, then lets it go and shuts the pool down. */
    @Arbiter
    public void arbiter(I_Result r) {
        r.r1 = test.runsBeforeTermination();
    }
}
