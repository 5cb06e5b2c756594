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
 * Guarantee: two appenders that withdraw neighbouring tasks at once, the head and the one behind it, leave no
 * withdrawn slot at the head: the queue reads empty, so a closed pool with no worker left can terminate. Each CASes
 * its own slot, then moves the head past withdrawn slots ({@code skipWithdrawnHead}, with volatile reads): one of the
 * two sees the other's slot withdrawn.
 *
 * <p>r1, r2: 1 if that withdrawal succeeded. r3: 1 if the queue read empty afterwards (and a poll found nothing).
 */
@JCStressTest
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "both withdrawn; the head moved past both")
@Outcome(expect = FORBIDDEN, desc = "a withdrawal failed, or a withdrawn slot was left at the head")
@State
public class TaskQueueWithdrawVsWithdraw {

    private final TaskQueue queue = new TaskQueue(-1);
    private final Object first = new Object();
    private final Object second = new Object();
    private final long firstIndex = queue.offer(first);
    private final long secondIndex = queue.offer(second);

    /** The first appender takes its task, the head, back. */
    @Actor
    public void withdrawHead(III_Result r) {
        r.r1 = queue.withdraw(firstIndex, first) ? 1 : 0;
    }

    /** The second appender takes its task, behind the head, back. */
    @Actor
    public void withdrawNext(III_Result r) {
        r.r2 = queue.withdraw(secondIndex, second) ? 1 : 0;
    }

    /** Reads whether the queue is empty, as a closing pool does. */
    @Arbiter
    public void arbiter(III_Result r) {
        r.r3 = queue.isEmpty() && queue.size() == 0 && queue.poll() == null ? 1 : 0;
    }
}
