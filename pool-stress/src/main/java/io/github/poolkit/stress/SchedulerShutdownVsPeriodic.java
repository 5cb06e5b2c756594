package io.github.poolkit.stress;

import io.github.poolkit.DelayScheduler;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Guarantee: {@code shutdown()} cancels every periodic job it did not reject, including one handed straight to the
 * pool (no initial delay) while the shutdown runs: such a job is registered with the timer before it reaches the
 * pool, so the shutdown either finds it or the schedule is rejected. And the scheduler then terminates.
 *
 * <p>r1: 1 if {@code scheduleAtFixedRate} accepted the job. r2: 1 if the accepted job is cancelled once the scheduler
 * terminated (0 if it was rejected; a run under way when the shutdown came is cancelled as it ends). r3: 1 if the
 * scheduler terminated within {@link Quiesce#TIMEOUT_SECONDS}.
 */
@JCStressTest
@Outcome(id = "0, 0, 1", expect = ACCEPTABLE, desc = "shut down first: the job was rejected")
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "accepted, then cancelled by the shutdown")
@Outcome(id = "1, 0, .*", expect = FORBIDDEN, desc = "a periodic job survived the shutdown")
@Outcome(expect = FORBIDDEN, desc = "the scheduler did not terminate")
@State
public class SchedulerShutdownVsPeriodic {

    private final DelayScheduler scheduler = SharedScheduler.create("jcs-shutdown");
    private volatile ScheduledFuture<?> job;

    /** Schedules a periodic job that is due at once. */
    @Actor
    public void schedule(III_Result r) {
        r.r1 = Accepted.unless(RejectedExecutionException.class,
                () -> job = scheduler.scheduleAtFixedRate(() -> { }, 0, 1, TimeUnit.MILLISECONDS));
    }

    /** Shuts the scheduler down. */
    @Actor
    public void shutdown() {
        scheduler.shutdown();
    }

    /** Waits for termination (the shutdown is done by then) and checks the job. */
    @Arbiter
    public void arbiter(III_Result r) {
        r.r3 = Quiesce.terminate(scheduler) ? 1 : 0;
        ScheduledFuture<?> accepted = job;
        r.r2 = accepted != null && accepted.isCancelled() ? 1 : 0;
    }
}
