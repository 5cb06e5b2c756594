package io.github.poolkit.stress;

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
 * Guarantee: with {@code virtualThreads(true)} and a queue, two tasks that end together pass their places on so that
 * the one queued task runs exactly once, at once, and the pool's count comes back to zero. The first place to free
 * up goes to a fresh worker counted as on its way to fetch the task; the second sees that count and retires, unless
 * the fetcher has already begun (it lowers the count before it looks, so the count is never too high). Capacity 2,
 * both places held at gates that the two actors open, one task queued.
 *
 * <p>r1: how many times the queued task ran while the pool was open. r2: workers counted after termination
 * ({@link Quiesce#STUCK} if the pool did not terminate).
 */
@JCStressTest
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the queued task ran once, the places were all given back")
@Outcome(expect = FORBIDDEN, desc = "the queued task was stranded or ran twice, or a place was lost or counted twice")
@State
public class VirtualPoolSuccessorsRace {

    private final WorkerPool pool = Pools.create(2, "jcs-vsuccs",
            options -> options.virtualThreads(true).queueCapacity(2));
    private final Gate first = new Gate();
    private final Gate second = new Gate();
    private final Runs queued = new Runs();

    /** Holds both places at their gates, with one task queued behind them. */
    public VirtualPoolSuccessorsRace() {
        pool.execute(first::hold);
        pool.execute(second::hold);
        pool.execute(queued);
    }

    /** Ends the first task. */
    @Actor
    public void endFirst() {
        first.open();
    }

    /** Ends the second task. */
    @Actor
    public void endSecond() {
        second.open();
    }

    /** Waits for the queued task with the pool open, then terminates it and reads its count. */
    @Arbiter
    public void arbiter(II_Result r) {
        r.r1 = queued.awaitExpected();
        r.r2 = Quiesce.terminate(pool) ? pool.running() : Quiesce.STUCK;
    }
}
