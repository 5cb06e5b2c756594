package io.github.poolkit.redis;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import java.util.concurrent.Future;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Guarantee: a request sent while the Redis semaphore closes is never left waiting for a grant that no closed
 * connection or stopped heartbeat would tell. {@code Requests.send} puts the request in the table, then reads
 * {@code refusal}; {@code withdrawAll} sets {@code refusal}, then walks the table (a Dekker pair): the request either
 * fails unsent, or is failed by the walk and withdrawn from Redis's line by a cancel. Redis (a fake) answers the
 * acquire "queued" at once, so a request both actors miss stays pending for good.
 *
 * <p>r1: 1 if the request failed with {@link ClosedSemaphoreException}, 2 if it failed otherwise, 0 if it is still
 * pending, 3 if it was granted. r2: acquire scripts sent. r3: cancel scripts sent.
 */
@JCStressTest
@Outcome(id = "1, 0, 0", expect = ACCEPTABLE, desc = "closed first: failed unsent, nothing went to Redis")
@Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "the walk failed it before send read the flag: failed unsent,"
        + " one (needless) cancel")
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "sent first, then failed by the walk and withdrawn")
@Outcome(id = "1, 1, 2", expect = ACCEPTABLE, desc = "sent, failed by the walk before the acquire's answer was read:"
        + " withdrawn again after that answer")
@Outcome(expect = FORBIDDEN, desc = "left waiting after the close, or sent and never withdrawn (a place in line held"
        + " by nobody)")
@State
public class RedisRequestSendVsClose {

    private final AnsweringRedis redis = new AnsweringRedis();
    /** Written by the sender; read by the arbiter only. */
    private Request request;

    /** acquireAsync(1): a request that would wait in line. */
    @Actor
    public void send() {
        request = redis.requests.send(1, false, false, true, "wait");
    }

    /** The semaphore's close (after its heartbeat stopped): fails and withdraws every request in the table. */
    @Actor
    public void close() {
        redis.requests.withdrawAll(RedisLink.CLOSED);
    }

    /** Reads how the request ended and what Redis was sent. */
    @Arbiter
    public void arbiter(III_Result r) {
        Future.State state = request.result.state();
        if (state == Future.State.RUNNING) {
            r.r1 = 0;
        } else if (state == Future.State.FAILED) {
            r.r1 = request.result.exceptionNow() instanceof ClosedSemaphoreException ? 1 : 2;
        } else {
            r.r1 = 3;
        }
        r.r2 = redis.acquires.get();
        r.r3 = redis.cancels.get();
    }
}
