package io.github.poolkit.internal.pool;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Guarantee: the expiry's cut of dead nodes off the idle stack never hides an idle worker. The stack holds an old
 * worker (idle since 10) under a recent one (idle since 30); the expiry (deadline 20) claims the old one and cuts
 * below the deepest node that may still lead to an idle worker, while a caller claims the recent one, which runs its
 * task and goes idle again (a new node, since 40). Every idle episode is claimed exactly once: the old one by the
 * expiry, the recent one's first by the caller and its second, after all, by a close that claims whatever is left.
 *
 * <p>r1: how many the expiry claimed. r2: 1 if the caller claimed the recent worker. r3: how many the close claimed,
 * plus 10 times the idle count left after it.
 */
@JCStressTest
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "each idle episode claimed once")
@Outcome(expect = FORBIDDEN, desc = "an idle worker claimed twice, lost to the cut, or left counted")
@State
public class IdleStackExpiryVsClaim {

    private final IdleStack stack = new IdleStack();
    private final Worker recent = idle(new Worker(null, null, null));

    public IdleStackExpiryVsClaim() {
        stack.push(idle(new Worker(null, null, null)), 10);
        stack.push(recent, 30);
    }

    private static Worker idle(Worker w) {
        w.clearHandoff();
        return w;
    }

    /** The purge: expires the workers idle since before 20, and cuts the dead nodes off. */
    @Actor
    public void expiry(III_Result r) {
        r.r1 = stack.claimIdleSince(20, Worker.STOP).size();
    }

    /** A caller hands a task to the most recently idle worker, which runs it and goes idle again. */
    @Actor
    public void claimThenIdleAgain(III_Result r) {
        r.r2 = stack.claim("task") == recent ? 1 : 0;
        stack.push(idle(recent), 40);
    }

    /** A close claims every idle worker left. */
    @Arbiter
    public void arbiter(III_Result r) {
        r.r3 = stack.claimAll(Worker.STOP).size() + 10 * stack.size();
    }
}
