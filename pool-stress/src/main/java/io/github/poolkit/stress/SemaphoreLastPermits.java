package io.github.poolkit.stress;

import io.github.poolkit.WeightedSemaphore;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Guarantee: two callers racing for the last permits never both get them. A semaphore of size 3 has 1 permit in use;
 * two callers each {@code tryAcquire(2)}: exactly one succeeds and {@code used()} ends at 3, never above the size.
 *
 * <p>r1, r2: 1 if that caller's {@code tryAcquire(2)} succeeded. r3: {@code used()} at the end.
 */
@JCStressTest
@Outcome(id = {"1, 0, 3", "0, 1, 3"}, expect = ACCEPTABLE, desc = "one caller got the last two permits")
@Outcome(expect = FORBIDDEN, desc = "both got them (size exceeded), neither did, or the books are off")
@State
public class SemaphoreLastPermits {

    /** One permit starts in use, leaving two. */
    private final WeightedSemaphore semaphore = Semaphores.inUse(3, 1);

    /** First caller. */
    @Actor
    public void first(JJJ_Result r) {
        r.r1 = semaphore.tryAcquire(2) ? 1 : 0;
    }

    /** Second caller. */
    @Actor
    public void second(JJJ_Result r) {
        r.r2 = semaphore.tryAcquire(2) ? 1 : 0;
    }

    /** Reads the books. */
    @Arbiter
    public void arbiter(JJJ_Result r) {
        r.r3 = semaphore.used();
    }
}
