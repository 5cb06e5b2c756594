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
 * Guarantee: {@code tryAcquire} racing with {@code release} of the only permit either sees the permit free and takes
 * it, or sees it held and leaves the semaphore alone; the books ({@code used()}) always match what the callers saw.
 *
 * <p>r1: 1 if {@code tryAcquire(1)} succeeded. r2: {@code used()} at the end.
 */
@JCStressTest
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "released first, then acquired")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "tried while held, then released")
@Outcome(expect = FORBIDDEN, desc = "a permit created or lost")
@State
public class SemaphoreTryAcquireVsRelease {

    /** The only permit starts held. */
    private final WeightedSemaphore semaphore = Semaphores.inUse(1, 1);

    /** Tries to take the permit. */
    @Actor
    public void tryAcquire(JJ_Result r) {
        r.r1 = semaphore.tryAcquire(1) ? 1 : 0;
    }

    /** Gives the permit back. */
    @Actor
    public void release() {
        semaphore.release(1);
    }

    /** Reads the books. */
    @Arbiter
    public void arbiter(JJ_Result r) {
        r.r2 = semaphore.used();
    }
}
