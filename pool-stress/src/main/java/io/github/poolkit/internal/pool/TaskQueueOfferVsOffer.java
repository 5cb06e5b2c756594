package io.github.poolkit.internal.pool;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Guarantee: two appenders of an unbounded queue race for the last slot of a segment and the first of the next, so
 * that one of them makes and links the next segment; the second appender then polls twice, and may find the first
 * appender's index taken while its task, or its segment, is not there yet (it waits for it). Each task is taken exactly
 * once, in index order; none is lost or taken twice.
 *
 * <p>r1, r2: what the second appender's polls returned (0 nothing, 1 the first appender's task, 2 its own). r3: the
 * tasks left afterwards (1 the first's, 2 the second's, 3 both; 100 or more: one was there twice). r4: 1 if the second
 * appender's index is the earlier one.
 */
@JCStressTest
@Outcome(id = "1, 2, 0, 0", expect = ACCEPTABLE, desc = "the first appender's index first: both polled in order")
@Outcome(id = "2, 1, 0, 1", expect = ACCEPTABLE, desc = "the second appender's index first: both polled in order")
@Outcome(id = "2, 0, 1, 1", expect = ACCEPTABLE, desc = "the second appender's index first, polled before the first"
        + " appended")
@Outcome(expect = FORBIDDEN, desc = "a task lost, taken twice, or taken out of index order")
@State
public class TaskQueueOfferVsOffer {

    private final TaskQueue queue = OneQueuedTask.atSegmentEnd();
    /** The first appender's task, then the second's. */
    private final Object[] tasks = {new Object(), new Object()};
    /** The indexes the appenders got, each written by its own actor, read by the arbiter. */
    private long firstIndex;
    private long secondIndex;

    /** The first appender. */
    @Actor
    public void appendFirst() {
        firstIndex = queue.offer(tasks[0]);
    }

    /** The second appender, which then polls twice. */
    @Actor
    public void appendSecondAndPoll(IIII_Result r) {
        secondIndex = queue.offer(tasks[1]);
        r.r1 = which(queue.poll());
        r.r2 = which(queue.poll());
    }

    /** Collects what is left. */
    @Arbiter
    public void arbiter(IIII_Result r) {
        int left = 0;
        for (Object t; (t = queue.poll()) != null; ) {
            int task = which(t);
            left = (left & task) != 0 ? left + 100 : left | task;
        }
        r.r3 = left;
        r.r4 = secondIndex < firstIndex ? 1 : 0;
    }

    private int which(Object task) {
        return task == null ? 0 : task == tasks[0] ? 1 : task == tasks[1] ? 2 : 100;
    }
}
