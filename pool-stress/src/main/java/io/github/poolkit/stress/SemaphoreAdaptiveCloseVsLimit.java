package io.github.poolkit.stress;

import io.github.poolkit.AdaptiveLimit;
import io.github.poolkit.Permit;
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
 * Guarantee: once the closes of an adaptive semaphore's permits are done, its size is its limit's latest value, even
 * when a close resizes to a limit that another close's sample has just moved.
 *
 * <p>An adaptive semaphore at limit (and size) 2, both permits held. Each actor moves the limit, as its sample would,
 * and closes a permit: one to 3, the other back to 2. r1: the limit in the end. r2: the size in the end.
 */
@JCStressTest
@Outcome(id = "2, 2", expect = ACCEPTABLE, desc = "the limit went to 2 last, and so did the size")
@Outcome(id = "3, 3", expect = ACCEPTABLE, desc = "the limit went to 3 last, and so did the size")
@Outcome(expect = FORBIDDEN, desc = "the size was left at a stale limit")
@State
public class SemaphoreAdaptiveCloseVsLimit {

    /** A limit that the actors set; samples change nothing else. */
    static final class SetLimit implements AdaptiveLimit {
        volatile int value = 2;

        @Override
        public int limit() {
            return value;
        }

        @Override
        public void onSample(long rttNanos, int inFlight, boolean dropped) {
        }
    }

    private final SetLimit limit = new SetLimit();
    private final WeightedSemaphore semaphore = WeightedSemaphore.adaptive(limit);
    private final Permit first = acquire();
    private final Permit second = acquire();

    private Permit acquire() {
        Permit p = semaphore.acquireAsync(1).getNow(null);
        if (p == null) {
            throw new IllegalStateException("a new adaptive semaphore of size 2 refused a permit");
        }
        return p;
    }

    /** Raises the limit and closes a permit. */
    @Actor
    public void up() {
        limit.value = 3;
        first.close();
    }

    /** Puts the limit back and closes a permit. */
    @Actor
    public void back() {
        limit.value = 2;
        second.close();
    }

    /** Reads the limit and the size. */
    @Arbiter
    public void arbiter(JJ_Result r) {
        r.r1 = limit.limit();
        r.r2 = semaphore.size();
    }
}
