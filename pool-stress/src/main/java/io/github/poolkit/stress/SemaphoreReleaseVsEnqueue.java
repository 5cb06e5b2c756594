package io.github.poolkit.stress;

import io.github.poolkit.Permit;
import io.github.poolkit.WeightedSemaphore;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJJJ_Result;
import java.util.concurrent.CompletableFuture;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Guarantee: a request that joins the line while the last held permit is released is never forgotten (no lost
 * wake-up): either it finds the permit free, or the release that frees it grants it.
 *
 * <p>Size 1, the permit held, nobody waiting. r1: 1 if the {@code acquireAsync(1)} future was done when the call
 * returned. r2: 1 if it holds a permit in the end. r3: {@code used()}. r4: {@code waiting()}.
 */
@JCStressTest
@Outcome(id = "1, 1, 1, 0", expect = ACCEPTABLE, desc = "the release came first: granted at once")
@Outcome(id = "0, 1, 1, 0", expect = ACCEPTABLE, desc = "queued first: the release granted it")
@Outcome(expect = FORBIDDEN, desc = "the request was left in line with the permit free, or a permit was lost")
@State
public class SemaphoreReleaseVsEnqueue {

    private final WeightedSemaphore semaphore = Semaphores.inUse(1, 1);
    private CompletableFuture<Permit> request;

    /** Gives the held permit back. */
    @Actor
    public void release() {
        semaphore.release(1);
    }

    /** Asks for the permit. */
    @Actor
    public void request(JJJJ_Result r) {
        request = semaphore.acquireAsync(1);
        r.r1 = request.isDone() ? 1 : 0;
    }

    /** Reads the books. */
    @Arbiter
    public void arbiter(JJJJ_Result r) {
        r.r2 = request.isDone() && !request.isCompletedExceptionally() ? 1 : 0;
        r.r3 = semaphore.used();
        r.r4 = semaphore.waiting();
    }
}
