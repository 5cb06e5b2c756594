package io.github.poolkit.stress;

import io.github.poolkit.WeightedSemaphore;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Guarantee: a lock-free {@code tryAcquire} racing with a shrink never grants against the old size once the shrink
 * has taken effect. The fast path reads the state word and the bound, then CASes the state; the shrink may run
 * entirely between those steps and leave the state word as it was.
 *
 * <p>r1: {@code available()} read by the resizing actor right after {@code resize(1)} (-1 if the acquire of 2 came
 * first, 1 if not yet). r2: 1 if {@code tryAcquire(2)} succeeded.
 */
@JCStressTest
@Outcome(id = "-1, 1", expect = ACCEPTABLE, desc = "acquired 2 of 2, then shrunk to 1: nothing taken back")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "shrunk first: 2 no longer fits")
@Outcome(id = "1, 1", expect = FORBIDDEN, desc = "granted 2 after the semaphore had shrunk to 1")
@Outcome(expect = FORBIDDEN, desc = "permits created or lost")
@State
public class SemaphoreShrinkVsTryAcquire {

    private final WeightedSemaphore semaphore = new WeightedSemaphore(2);

    /** Shrinks, then looks. */
    @Actor
    public void shrink(JJ_Result r) {
        semaphore.resize(1);
        r.r1 = semaphore.available();
    }

    /** Tries to take the old size. */
    @Actor
    public void tryAcquire(JJ_Result r) {
        r.r2 = semaphore.tryAcquire(2) ? 1 : 0;
    }
}
