package io.github.poolkit.stress;

import io.github.poolkit.PoolOptions;
import io.github.poolkit.WorkerPool;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

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

    private final WorkerPool pool = WorkerPool.create(2,
            PoolOptions.builder().name("jcs-searcher").queueCapacity(-1).disablePurge(true).build());
    private final CountDownLatch gate = new CountDownLatch(1);
    private final CountDownLatch ran = new CountDownLatch(2);

    /** One worker held until the arbiter is done; the other runs a task and goes idle (or is on its way there). */
    public WorkerPoolQueuedSearcher() {
        CountDownLatch second = new CountDownLatch(1);
        pool.execute(() -> Quiesce.hold(gate));
        pool.execute(second::countDown);
        Quiesce.hold(second);
    }

    /** Appends one task. */
    @Actor
    public void first() {
        pool.execute(ran::countDown);
    }

    /** Appends the other. */
    @Actor
    public void second() {
        pool.execute(ran::countDown);
    }

    /** Counts the tasks that ran while the first worker was still held, then lets it go and shuts the pool down. */
    @Arbiter
    public void arbiter(I_Result r) {
        try {
            ran.await(Quiesce.TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        r.r1 = (int) (2 - ran.getCount());
        Quiesce.openAndTerminate(gate, pool);
    }
}
