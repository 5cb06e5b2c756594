package io.github.poolkit.internal.pool;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Guarantee ({@code interruptOverdue}): the checker's interrupt of an overdue task never reaches the worker once that
 * task has ended and the next one begins. The worker ends its watched task ({@link Worker#endWatched}: a volatile
 * store of null, then it waits out an interrupt in progress) and moves on; the checker raises its flag, then reads
 * the task ({@link Worker#interruptIfStillRunning}): of the two, one sees the other. The worker's thread here is a
 * stand-in that records each interrupt and whether it came before or after the next task began.
 *
 * <p>r1: 1 if the checker interrupted. r2: interrupts that arrived after the next task began.
 */
@JCStressTest
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "interrupted while the overdue task still ran")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the task had ended: no interrupt")
@Outcome(expect = FORBIDDEN, desc = "an interrupt reached the next task")
@State
public class OverdueInterruptVsTaskEnd {

    /** A worker thread that is never started: it records the interrupts aimed at it. */
    static final class Recorder extends Thread {
        volatile boolean nextTaskBegun;
        volatile int afterNextTaskBegun;

        @Override
        public void interrupt() {
            if (nextTaskBegun) {
                afterNextTaskBegun++;
            }
        }
    }

    private final Worker worker = new Worker(null, null, null);
    private final Recorder thread = new Recorder();
    private final Object task = new Object();
    private final long since;

    public OverdueInterruptVsTaskEnd() {
        worker.thread = thread;
        worker.beginWatched(task);
        since = worker.watchedSince();
    }

    /** The worker: the task ends, then the next one begins. */
    @Actor
    public void taskEnds() {
        worker.endWatched(true);
        thread.nextTaskBegun = true;
    }

    /** The checker: interrupts the worker if it still runs the overdue task. */
    @Actor
    public void checker(II_Result r) {
        r.r1 = worker.interruptIfStillRunning(task, since) ? 1 : 0;
    }

    /** Counts the interrupts that came too late. */
    @Arbiter
    public void arbiter(II_Result r) {
        r.r2 = thread.afterNextTaskBegun;
    }
}
