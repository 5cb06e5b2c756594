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
 * Guarantee: two workers polling a queue that holds one task: exactly one of them gets it (no task runs twice or is
 * lost), even when the task sits in the last slot of a segment so that the pollers also move the head's segment on.
 *
 * <p>r1, r2: 1 if that poller got the task. r3: 1 if the task was still there afterwards.
 */
@JCStressTest
@Outcome(id = "1, 0, 0", expect = ACCEPTABLE, desc = "the first poller took it")
@Outcome(id = "0, 1, 0", expect = ACCEPTABLE, desc = "the second poller took it")
@Outcome(expect = FORBIDDEN, desc = "taken twice, or lost")
@State
public class TaskQueuePollVsPoll {

    /** The task sits in the last slot of the first segment. */
    private final OneQueuedTask queued = new OneQueuedTask(OneQueuedTask.atSegmentEnd());

    /** The first worker. */
    @Actor
    public void first(III_Result r) {
        r.r1 = queued.poll();
    }

    /** The second worker. */
    @Actor
    public void second(III_Result r) {
        r.r2 = queued.poll();
    }

    /** Looks for what is left. */
    @Arbiter
    public void arbiter(III_Result r) {
        r.r3 = queued.left();
    }
}
