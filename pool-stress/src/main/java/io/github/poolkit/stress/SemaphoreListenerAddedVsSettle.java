package io.github.poolkit.stress;

import io.github.poolkit.WeightedSemaphore;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Guarantee: a listener added while a request settles never costs the listeners before it that request (adding
 * replaces the semaphore's reporter with one that tells them all), and is told of it at most once.
 *
 * <p>r1: calls the constructor's listener received. r2: calls the added listener received.
 */
@JCStressTest
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "settled before the listener was added")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "added first, both told")
@Outcome(expect = FORBIDDEN, desc = "an earlier listener not told, or a listener told twice")
@State
public class SemaphoreListenerAddedVsSettle {

    private int first;
    private int added;

    private final WeightedSemaphore semaphore = new WeightedSemaphore(1, (permits, waited, outcome) -> first++);

    /** Adds a second listener. */
    @Actor
    public void add() {
        semaphore.addListener((permits, waited, outcome) -> added++);
    }

    /** Settles one request. */
    @Actor
    public void settle() {
        semaphore.tryAcquire(1);
    }

    /** Reads what each listener heard (both count on the settling thread only). */
    @Arbiter
    public void arbiter(II_Result r) {
        r.r1 = first;
        r.r2 = added;
    }
}
