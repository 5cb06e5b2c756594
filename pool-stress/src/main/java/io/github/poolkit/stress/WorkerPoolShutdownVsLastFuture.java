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
 * Guarantee: a pool is terminated only once the future of its task is done, as {@code awaitTermination} promises ("all
 * tasks have completed execution"), also when the close comes while the worker completes that future: a close retires
 * on its behalf a worker whose future has completed, never one still completing it. The actor shuts the pool down while
 * its only task, run by a pooled worker of a pool with a queue, as a scheduler's, may be running, completing its
 * future, or done.
 *
 * <p>r1: 1 if the pool was terminated when {@code shutdown()} returned and the future was done, 2 if it was not
 * terminated yet, 0 if it was terminated with the future not done.
 */
@JCStressTest
@Outcome(id = "1", expect = ACCEPTABLE, desc = "terminated, the future done")
@Outcome(id = "2", expect = ACCEPTABLE, desc = "not terminated yet: the task was running")
@Outcome(expect = FORBIDDEN, desc = "terminated before the future was done")
@State
public class WorkerPoolShutdownVsLastFuture {

    private final WorkerPool pool = Pools.create(1, "jcs-shutdown-last-future", options -> options.queueCapacity(-1));
    private final Future<?> task = pool.submit(() -> { });

    /** Shuts the pool down, then reads whether it is terminated and, if so, whether the future is done. */
    @Actor
    public void shutDown(I_Result r) {
        pool.shutdown();
        r.r1 = !pool.isTerminated() ? 2 : task.isDone() ? 1 : 0;
    }
}
