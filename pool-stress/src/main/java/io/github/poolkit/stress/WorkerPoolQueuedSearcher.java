package io.github.poolkit.stress;

import io.github.poolkit.WorkerPool;
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

    private final WorkerPool pool = Pools.create(2, "jcs-searcher", options -> options.queueCapacity(-1));
    private final Gate gate = new Gate();
    private final Runs runs = new Runs(2);

    /** One worker held until the arbiter is done; the other runs a task and goes idle (or is on its way there). */
    public WorkerPoolQueuedSearcher() {
        Gate second = new Gate();
        pool.execute(gate::hold);
        pool.execute(second::open);
        second.hold();
    }

    /** Appends one task. */
    @Actor
    public void first() {
        pool.execute(runs);
    }

    /** Appends the other. */
    @Actor
    public void second() {
        pool.execute(runs);
    }

    /** Counts the tasks that ran while the first worker was still held, then lets it go and shuts the pool down. */
    @Arbiter
    public void arbiter(I_Result r) {
        r.r1 = runs.awaitExpected();
        gate.open();
        Quiesce.terminate(pool);
    }
}
