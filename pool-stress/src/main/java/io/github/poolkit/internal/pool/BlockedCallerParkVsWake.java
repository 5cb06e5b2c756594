package io.github.poolkit.internal.pool;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Guarantee: a blocked caller that decides to park, while a worker wakes it without the pool's lock, is either told
 * not to park (it saw the wake-up) or unparked by that worker: never parked with nobody to unpark it. The waker skips
 * the unpark for a caller that has not said it parks ({@link BlockedCaller#wake}), so this is the Dekker pair of
 * {@code parking} and {@code woken}.
 *
 * <p>r1: 1 if the caller may park ({@link BlockedCaller#mayPark}), else 0. r2: 1 if the waker unparked it, else 0.
 * The caller's thread is a fresh, unstarted one, so the unpark itself does nothing.
 */
@JCStressTest
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the caller saw the wake-up first: no park, no unpark")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the caller parks, and the waker unparks it")
@Outcome(id = "0, 1", expect = ACCEPTABLE_INTERESTING, desc = "each saw the other: a stray unpark, absorbed later")
@Outcome(id = "1, 0", expect = FORBIDDEN, desc = "the caller parks and nobody unparks it: a lost wake-up")
@State
public class BlockedCallerParkVsWake {

    private final BlockedCaller caller = new BlockedCaller(new Object(), new Thread(() -> { }), TaskQueue.UNWATCHED);

    /** The caller, after its spin saw no wake-up: may it park? */
    @Actor
    public void caller(II_Result r) {
        r.r1 = caller.mayPark() ? 1 : 0;
    }

    /** A worker that freed a place, waking the caller without the lock. */
    @Actor
    public void waker(II_Result r) {
        r.r2 = caller.wake() ? 1 : 0;
    }
}
