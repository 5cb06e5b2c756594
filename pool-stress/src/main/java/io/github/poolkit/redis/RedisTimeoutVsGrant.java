package io.github.poolkit.redis;

import io.github.poolkit.Permit;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Guarantee: a grant that races its request's timeout is never held by nobody. {@code tryAcquirePermit(1, timeout)}
 * waits in line; its grant message arrives ({@code Requests.granted}: the lease joins {@code Leases}, then the result
 * completes with the Permit) just as the wait times out ({@code Requests.await}: the caller gives up, and a request
 * that ends without a permit sends a cancel). Either the caller gets the Permit, whose lease the heartbeat renews
 * until the holder closes it (here at once), or the caller gets nothing, the lease is not renewed and the cancel gives
 * the grant back. A lease left in {@code Leases} with no holder would be renewed, and its permits kept from every
 * instance, for as long as this one lives.
 *
 * <p>r1: 1 if the timed acquire returned a Permit (closed by the actor at once), 0 if it returned none, 2 if it
 * threw. r2: leases still renewed at the end. r3: cancel scripts sent. r4: release scripts sent.
 */
@JCStressTest
@Outcome(id = "1, 0, 0, 1", expect = ACCEPTABLE, desc = "granted before (or as) it timed out: the caller held it and"
        + " its close released it")
@Outcome(id = "0, 0, 1, 0", expect = ACCEPTABLE, desc = "timed out first: not renewed, the cancel gives it back")
@Outcome(expect = FORBIDDEN, desc = "a lease renewed for nobody, a grant neither handed over nor given back, or a"
        + " holder's lease not renewed")
@State
public class RedisTimeoutVsGrant {

    private final AnsweringRedis redis = new AnsweringRedis();
    /** tryAcquirePermit(1, timeout): queued in Redis's line, waiting for its grant message. */
    private final Request request = redis.requests.send(1, true, false, false, "wait");

    /** The grant message (GrantMessages.onMessage on Redis's I/O thread). */
    @Actor
    public void grant() {
        redis.requests.granted(request, 7);
    }

    /** The caller's wait runs out; a Permit it gets after all it closes at once. */
    @Actor
    public void timeOut(IIII_Result r) {
        try {
            Permit permit = redis.requests.await(request, 0);
            r.r1 = permit != null ? 1 : 0;
            if (permit != null) {
                permit.close();
            }
        } catch (InterruptedException | RuntimeException e) {
            r.r1 = 2;
        }
    }

    /** Reads the books: what this instance still renews, and what Redis was sent. */
    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r2 = redis.leases.snapshot().size();
        r.r3 = redis.cancels.get();
        r.r4 = redis.releases.get();
    }
}
