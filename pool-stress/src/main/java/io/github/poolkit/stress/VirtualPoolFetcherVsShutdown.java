package io.github.poolkit.stress;

import io.github.poolkit.WorkerPool;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import java.util.concurrent.Future;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Guarantee, as {@link VirtualPoolDoneThenShutdown} with a queue: a caller who saw every future of an unpooled pool
 * done finds it terminated when {@code shutdown()} returns, also when a place passed on to a worker started to fetch
 * queued work that has not looked at the queue yet. Two held tasks end together, one task queued behind them: the
 * second place to free up may go to a second fetcher, when the first has lowered the count of fetchers and not yet
 * taken the task; that one finds nothing, and holds no task, so a close that comes first retires it on its behalf (it
 * then takes nothing), and one that comes after it began waits for it to leave. One actor ends both tasks, the other
 * shuts the pool down the instant it sees all three futures done.
 *
 * <p>r1: 1 if the pool was terminated when {@code shutdown()} returned, 0 if not ({@link Quiesce#STUCK} if a future
 * did not complete in time). r2: runs of the queued task. r3: workers counted after termination ({@code STUCK} if the
 * pool did not terminate).
 */
@JCStressTest
@Outcome(id = "1, 1, 0", expect = ACCEPTABLE,
        desc = "terminated at once, the queued task ran once, every place given back")
@Outcome(expect = FORBIDDEN, desc = "a fetcher kept the pool busy after its last future was seen done, a task was lost"
        + " or ran twice, or a place was lost or counted twice")
@State
public class VirtualPoolFetcherVsShutdown {

    private final WorkerPool pool = Pools.create(2, "jcs-vfetch-shutdown",
            options -> options.virtualThreads(true).queueCapacity(2));
    private final Gate first = new Gate();
    private final Gate second = new Gate();
    private final Runs queuedRuns = new Runs();
    private final Future<?> firstDone = pool.submit(first::hold);
    private final Future<?> secondDone = pool.submit(second::hold);
    private final Future<?> queuedDone = pool.submit(queuedRuns);

    /** Ends both held tasks, whose workers then pass their places on at once, each on its own thread. */
    @Actor
    public void endBoth() {
        first.open();
        second.open();
    }

    /** Sees all three futures done, shuts the pool down, reads whether it is terminated. */
    @Actor
    public void shutDownWhenAllDone(III_Result r) {
        r.r1 = Quiesce.shutDownWhenAllDone(pool, firstDone, secondDone, queuedDone);
    }

    /** Waits for termination, then reads the queued task's runs and the count of workers. */
    @Arbiter
    public void arbiter(III_Result r) {
        r.r3 = Quiesce.terminate(pool) ? pool.running() : Quiesce.STUCK;
        r.r2 = queuedRuns.count();
    }
}
