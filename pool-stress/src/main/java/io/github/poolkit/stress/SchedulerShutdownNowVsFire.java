package io.github.poolkit.stress;

import io.github.poolkit.DelayScheduler;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ScheduledFuture;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Guarantee: a job whose timer fires while {@code shutdownNow()} runs is either run or returned by
 * {@code shutdownNow()}, exactly once, never both and never neither; including when the timer thread has taken the
 * job as due and is handing it to the pool at that very moment, and the pool, shut down meanwhile, refuses it.
 *
 * <p>The job is due {@link SchedulerCancelVsFire#DELAY} after the state is made; the actor spins until then and calls
 * {@code shutdownNow()} on the state's own scheduler; the timer thread is the other side of the race. r1: how many
 * times the job is in the list {@code shutdownNow()} returned. r2: how many times it ran, read once the scheduler has
 * terminated ({@link Quiesce#STUCK} if it did not).
 */
@JCStressTest
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "returned by shutdownNow, never ran")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "handed to the pool first: ran, not returned")
@Outcome(id = "0, 0", expect = FORBIDDEN, desc = "lost: neither run nor returned")
@Outcome(expect = FORBIDDEN, desc = "run and returned, returned twice, or the scheduler did not terminate")
@State
public class SchedulerShutdownNowVsFire {

    private final DelayScheduler scheduler = SharedScheduler.create("jcs-shutdownnow");
    private final Runs runs = new Runs();
    private final Moment due = Moment.after(SchedulerCancelVsFire.DELAY);
    private final ScheduledFuture<?> job =
            scheduler.scheduleOnce(runs, Duration.ofNanos(SchedulerCancelVsFire.DELAY));

    /** Stops the scheduler when the job falls due. */
    @Actor
    public void shutdownNow(II_Result r) {
        due.spinUntil();
        List<Runnable> returned = scheduler.shutdownNow();
        r.r1 = (int) returned.stream().filter(task -> task == job).count();
    }

    /** Waits for termination and counts the job's runs. */
    @Arbiter
    public void arbiter(II_Result r) {
        r.r2 = Quiesce.runsAfterTermination(scheduler, runs);
    }
}
