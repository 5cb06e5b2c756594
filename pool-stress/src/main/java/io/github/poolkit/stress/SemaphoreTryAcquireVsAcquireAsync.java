package io.github.poolkit.stress;

import io.github.poolkit.WeightedSemaphore;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJJJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Guarantee: a barging {@code tryAcquire} and a queueing {@code acquireAsync} racing for the last permits: exactly one
 * gets them at once; if the async request had to queue, it is because the other caller holds the permits, so it waits
 * as the only waiter; and a {@code tryAcquire} never succeeds past a queued request (no barging).
 *
 * <p>Size 3, 1 permit in use. r1: 1 if {@code tryAcquire(2)} succeeded. r2: 1 if the {@code acquireAsync(2)} future
 * was complete on return. r3: {@code used()}. r4: {@code waiting()}.
 */
@JCStressTest
@Outcome(id = "1, 0, 3, 1", expect = ACCEPTABLE, desc = "tryAcquire won; the async request waits in line")
@Outcome(id = "0, 1, 3, 0", expect = ACCEPTABLE, desc = "the async request was granted at once; tryAcquire failed")
@Outcome(expect = FORBIDDEN, desc = "both or neither got the permits, or the books are off")
@State
public class SemaphoreTryAcquireVsAcquireAsync {

    /** One permit starts in use, leaving two. */
    private final WeightedSemaphore semaphore = Semaphores.inUse(3, 1);

    /** Barges in. */
    @Actor
    public void tryAcquire(JJJJ_Result r) {
        r.r1 = semaphore.tryAcquire(2) ? 1 : 0;
    }

    /** Queues up. */
    @Actor
    public void acquireAsync(JJJJ_Result r) {
        r.r2 = semaphore.acquireAsync(2).isDone() ? 1 : 0;
    }

    /** Reads the books. */
    @Arbiter
    public void arbiter(JJJJ_Result r) {
        r.r3 = semaphore.used();
        r.r4 = semaphore.waiting();
    }
}
