package io.github.poolkit.stress;

import io.github.poolkit.MultiPool;
import io.github.poolkit.MultiPool.LoadBalancing;
import io.github.poolkit.PoolClosedException;
import io.github.poolkit.PoolOptions;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Guarantee: a multi-pool closed while another thread reboots it ends with its flag and every sub-pool agreeing. The
 * reboot lands before the close (which then closes everything), is refused while the close waits, or comes after it
 * (everything open again); never the multi-pool open with a sub-pool closed, or closed with a sub-pool still open.
 *
 * <p>r1: 1 if {@code reboot} returned, 0 if it was refused because a close was waiting. r2: 1 if the multi-pool ended
 * closed. r3: 1 if the sub-pools agree with it: all terminated when it is closed, or each taking a task when it is
 * open (round robin gives one task to each of the two).
 */
@JCStressTest
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "rebooted first, then closed with every sub-pool")
@Outcome(id = "0, 1, 1", expect = ACCEPTABLE, desc = "reboot refused while the close waited; all closed")
@Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "rebooted after the close; every sub-pool open again")
@Outcome(expect = FORBIDDEN, desc = "the flag and a sub-pool disagree")
@State
public class MultiPoolCloseVsReboot {

    private final MultiPool pool = MultiPool.create(2, 1, LoadBalancing.ROUND_ROBIN,
            PoolOptions.builder().name("jcs-multi-close-reboot").disablePurge(true).build());

    /** Closes the multi-pool (and waits for it, though it has no task). */
    @Actor
    public void close() {
        pool.close();
    }

    /** Reopens it. */
    @Actor
    public void reboot(III_Result r) {
        r.r1 = Accepted.unless(IllegalStateException.class, pool::reboot);
    }

    /** Checks the sub-pools against the flag, then closes the multi-pool for good. */
    @Arbiter
    public void arbiter(III_Result r) {
        boolean closed = pool.isClosed();
        r.r2 = closed ? 1 : 0;
        if (closed) {
            r.r3 = pool.isTerminated() ? 1 : 0;
        } else {
            int taken = Accepted.unless(PoolClosedException.class, () -> pool.execute(() -> { }))
                    + Accepted.unless(PoolClosedException.class, () -> pool.execute(() -> { }));
            r.r3 = taken == 2 ? 1 : 0;
        }
        pool.close();
    }
}
