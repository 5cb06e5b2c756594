package io.github.poolkit.stress;

import io.github.poolkit.WorkerPool;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

import java.util.concurrent.Future;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Guarantee, as {@link WorkerPoolDoneThenShutdown} for pooled workers: an unpooled pool whose only task a caller has
 * seen done has nothing running, so it is terminated when the caller's {@code shutdown()} returns, although the worker
 * that completed the task's future is still finishing its own bookkeeping at that moment (the close retires such a
 * worker on its behalf). The actor watches the future and shuts the pool down the instant it sees it done, while the
 * worker, a virtual thread of an unpooled pool without a queue, races to give its place back.
 *
 * <p>r1: 1 if the pool was terminated when {@code shutdown()} returned, 0 if not ({@link Quiesce#STUCK} if the future
 * did not complete in time).
 */
@JCStressTest
@Outcome(id = "1", expect = ACCEPTABLE, desc = "terminated when shutdown returned")
@Outcome(expect = FORBIDDEN, desc = "still running after its last task was seen done and it was shut down, or hung")
@State
public class VirtualPoolDoneThenShutdown {

    private final WorkerPool pool = Pools.create(1, "jcs-virtual-done-shutdown",
            options -> options.virtualThreads(true));
    private final Future<?> task = pool.submit(() -> { });

    /** Sees the task done, shuts the pool down, reads whether it is terminated. */
    @Actor
    public void shutDownWhenDone(I_Result r) {
        r.r1 = Quiesce.shutDownWhenDone(pool, task);
    }
}
