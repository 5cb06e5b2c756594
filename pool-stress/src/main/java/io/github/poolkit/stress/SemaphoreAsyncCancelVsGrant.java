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
 * Guarantee: cancelling a pending {@code acquireAsync} future while a {@code release} grants it never leaks a permit.
 * If the cancellation wins, the request leaves the line (or its late grant is given back) and the permit is free; if
 * the grant wins, the future holds a {@link Permit} and the permit is counted as used, and nothing else.
 *
 * <p>Size 1, the permit held, one {@code acquireAsync(1)} waiting. r1: 1 if {@code cancel} returned true. r2: 1 if
 * the future ended up holding a permit. r3: {@code used()}. r4: {@code waiting()}.
 */
@JCStressTest
@Outcome(id = "1, 0, 0, 0", expect = ACCEPTABLE, desc = "cancelled before (or despite) the grant; the permit is free")
@Outcome(id = "0, 1, 1, 0", expect = ACCEPTABLE, desc = "granted first; the future holds the permit")
@Outcome(expect = FORBIDDEN, desc = "a permit leaked or was lost, or the request is still in line")
@State
public class SemaphoreAsyncCancelVsGrant {

    private final WeightedSemaphore semaphore = Semaphores.inUse(1, 1);
    private final CompletableFuture<Permit> pending = semaphore.acquireAsync(1);

    /** The request must wait for the held permit. */
    public SemaphoreAsyncCancelVsGrant() {
        if (pending.isDone()) {
            throw new IllegalStateException("a request for a held permit was granted at once");
        }
    }

    /** Gives the held permit back, which grants the waiting request. */
    @Actor
    public void release() {
        semaphore.release(1);
    }

    /** Gives up the waiting request. */
    @Actor
    public void cancel(JJJJ_Result r) {
        r.r1 = pending.cancel(false) ? 1 : 0;
    }

    /** Reads the books. */
    @Arbiter
    public void arbiter(JJJJ_Result r) {
        r.r2 = pending.isDone() && !pending.isCompletedExceptionally() ? 1 : 0;
        r.r3 = semaphore.used();
        r.r4 = semaphore.waiting();
    }
}
