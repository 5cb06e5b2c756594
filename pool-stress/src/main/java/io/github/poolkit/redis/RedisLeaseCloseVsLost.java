package io.github.poolkit.redis;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Guarantee: a lease of the Redis semaphore is marked lost exactly once, and its holder told once, when its Permit is
 * closed while the heartbeat gives up on it. The holder's close ({@code Leases.release}) moves it HELD -> CLOSED, and
 * its release script then finds it expired (CLOSED -> LOST); the heartbeat ({@code LeaseRenewal.loseSilentLeases})
 * moves it HELD -> LOST. Whichever CAS comes first decides: a lease closed first is never reported lost by the
 * heartbeat, and a lease lost first is released quietly, not reported a second time.
 *
 * <p>r1: 1 if the close came first ({@code Lease.close()} true). r2: 1 if the release, having closed it, marked it
 * lost. r3: 1 if the heartbeat marked it lost. r4: 1 if its lost signal is done (the Permit's {@code isValid()} is
 * false).
 */
@JCStressTest
@Outcome(id = "1, 1, 0, 1", expect = ACCEPTABLE, desc = "closed first; the release found it expired and told the"
        + " holder; the heartbeat came too late")
@Outcome(id = "0, 0, 1, 1", expect = ACCEPTABLE, desc = "the heartbeat gave up on it first and told the holder; the"
        + " close released it quietly")
@Outcome(expect = FORBIDDEN, desc = "marked lost twice (two warnings, the loss handled twice), never, or by the"
        + " heartbeat after its Permit was closed")
@State
public class RedisLeaseCloseVsLost {

    /** A Permit's lease (not handle-less), held; its lost stages would run inline. */
    private final Lease lease = new Lease(new Request("jcs:1", 1, false, false, false, false), 7, System.nanoTime(),
            Runnable::run);

    /** The holder closes its Permit, and the release script answers "had expired" (Leases.release). */
    @Actor
    public void release(IIII_Result r) {
        boolean closedFirst = lease.close();
        r.r1 = closedFirst ? 1 : 0;
        r.r2 = closedFirst && lease.markLost(true) ? 1 : 0;
    }

    /** The heartbeat finds it unconfirmed for longer than the lease time (LeaseRenewal.loseSilentLeases). */
    @Actor
    public void heartbeat(IIII_Result r) {
        r.r3 = lease.markLost(false) ? 1 : 0;
    }

    /** Reads whether the holder was told. */
    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r4 = lease.lost.isDone() ? 1 : 0;
    }
}
