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
 * Guarantee: a consumer polling while an appender appends two tasks takes them in the order they were appended, never
 * the second before the first, and sees each task's contents as written before {@code offer}; nothing is lost.
 *
 * <p>r1, r2: what the two polls returned (0 nothing, 1 the first task, 2 the second, -1 a task whose field was not
 * visible yet). r3: how many tasks were left in the queue afterwards.
 */
@JCStressTest
@Outcome(id = "0, 0, 2", expect = ACCEPTABLE, desc = "both polls came before the appends")
@Outcome(id = "0, 1, 1", expect = ACCEPTABLE, desc = "the second poll took the first task")
@Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "the first poll took the first task, the second was not there yet")
@Outcome(id = "1, 2, 0", expect = ACCEPTABLE, desc = "both tasks, in order")
@Outcome(expect = FORBIDDEN, desc = "out of order, lost, duplicated, or taken before its contents were visible")
@State
public class TaskQueueOfferVsPoll {

    private final TaskQueue queue = new TaskQueue(-1);

    /** Appends two tasks, each carrying its number in a plain field. */
    @Actor
    public void append() {
        queue.offer(new Numbered(1));
        queue.offer(new Numbered(2));
    }

    /** Polls twice. */
    @Actor
    public void poll(III_Result r) {
        r.r1 = number(queue.poll());
        r.r2 = number(queue.poll());
    }

    /** Counts what is left. */
    @Arbiter
    public void arbiter(III_Result r) {
        int left = 0;
        while (queue.poll() != null) {
            left++;
        }
        r.r3 = left;
    }

    private static int number(Object task) {
        return task == null ? 0 : ((Numbered) task).n == 0 ? -1 : ((Numbered) task).n;
    }

    /** A task with a plain (non-final, non-volatile) field, written before it is appended. */
    static final class Numbered {
        int n;

        Numbered(int n) {
            this.n = n;
        }
    }
}
