package io.github.poolkit.stress;

import io.github.poolkit.DelayScheduler;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Guarantee: a scheduler whose only job a caller has seen done has nothing pending and nothing running, so it is
 * terminated when the caller's {@code shutdown()} returns, although the timer thread that handed the job over may not
 * yet have let go of its batch, and the worker that ran it may still be on its way out. The actor schedules the job
 * through the timer (a delay), waits for it, and shuts the scheduler down the instant it sees it done.
 *
 * <p>r1: 1 if the scheduler was terminated when {@code shutdown()} returned, 0 if not ({@link Quiesce#STUCK} if the
 * job did not run in time).
 */
@JCStressTest
@Outcome(id = "1", expect = ACCEPTABLE, desc = "terminated when shutdown returned")
@Outcome(expect = FORBIDDEN, desc = "still running after its last job was seen done and it was shut down, or hung")
@State
public class SchedulerDoneThenShutdown {

    private final DelayScheduler scheduler = SharedScheduler.create("jcs-done-shutdown");

    /** Schedules a job through the timer, sees it done, shuts the scheduler down, reads whether it terminated. */
    @Actor
    public void shutDownWhenDone(I_Result r) {
        Future<?> job = scheduler.schedule(() -> { }, 1, TimeUnit.NANOSECONDS);
        r.r1 = Quiesce.shutDownWhenDone(scheduler, job);
    }
}
