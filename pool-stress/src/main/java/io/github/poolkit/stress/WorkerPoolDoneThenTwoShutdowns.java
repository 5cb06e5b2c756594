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
 * Guarantee, as {@link WorkerPoolDoneThenShutdown}, with a second closer: a pool whose only task a caller has seen
 * done is terminated when that caller's {@code shutdown()} returns, also when another thread's {@code shutdown()}
 * takes the worker out on its behalf while the first waits for it (the worker still completing the task's future when
 * the first looked; the second then finds it done and retires it under the pool's lock).
 *
 * <p>r1: 1 if the pool was terminated when the watching actor's {@code shutdown()} returned, 0 if not
 * ({@link Quiesce#STUCK} if the future did not complete in time).
 */
@JCStressTest
@Outcome(id = "1", expect = ACCEPTABLE, desc = "terminated when shutdown returned")
@Outcome(expect = FORBIDDEN, desc = "still running after its last task was seen done and it was shut down, or hung")
@State
public class WorkerPoolDoneThenTwoShutdowns {

    private final WorkerPool pool = Pools.create(1, "jcs-done-two-shutdowns", options -> options.queueCapacity(-1));
    private final Future<?> task = pool.submit(() -> { });

    /** Sees the task done, shuts the pool down, reads whether it is terminated. */
    @Actor
    public void shutDownWhenDone(I_Result r) {
        r.r1 = Quiesce.shutDownWhenDone(pool, task);
    }

    /** Another closer, at any moment. */
    @Actor
    public void shutDown() {
        pool.shutdown();
    }
}
