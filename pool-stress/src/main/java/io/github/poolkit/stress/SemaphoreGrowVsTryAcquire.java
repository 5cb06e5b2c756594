package io.github.poolkit.stress;

import io.github.poolkit.WeightedSemaphore;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Guarantee: a resize never makes a {@code tryAcquire} fail spuriously. The resize briefly sends every operation
 * through the lock; a {@code tryAcquire(1)} on a free semaphore of size 1 growing to 2 fits before and after, so it
 * must succeed whenever it runs.
 *
 * <p>r1: 1 if {@code tryAcquire(1)} succeeded. r2: {@code available()} at the end.
 */
@JCStressTest
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "acquired 1, size 2")
@Outcome(id = "0, .*", expect = FORBIDDEN, desc = "refused although the permit was free before and after")
@Outcome(expect = FORBIDDEN, desc = "permits created or lost")
@State
public class SemaphoreGrowVsTryAcquire {

    private final WeightedSemaphore semaphore = new WeightedSemaphore(1);

    /** Grows. */
    @Actor
    public void grow() {
        semaphore.resize(2);
    }

    /** Takes the one permit that is free throughout. */
    @Actor
    public void tryAcquire(JJ_Result r) {
        r.r1 = semaphore.tryAcquire(1) ? 1 : 0;
    }

    /** Reads the books. */
    @Arbiter
    public void arbiter(JJ_Result r) {
        r.r2 = semaphore.available();
    }
}
