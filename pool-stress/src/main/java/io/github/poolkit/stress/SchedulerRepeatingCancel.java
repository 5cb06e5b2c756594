package io.github.poolkit.stress;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import java.time.Duration;
import java.util.concurrent.ScheduledFuture;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Guarantee: once {@code cancel} of a periodic job has returned, no new run of it starts: at most the run that was
 * already in progress completes. A job repeating every {@link #PERIOD} is cancelled by two threads at once (so also:
 * exactly one {@code cancel} returns true, as a periodic job never completes by itself).
 *
 * <p>r1, r2: 1 if that actor's {@code cancel} returned true. r3: runs counted after the successful {@code cancel}
 * returned, read once the scheduler's single worker has drained ({@link Quiesce#STUCK} if it did not). A run that had
 * already begun may count itself just after the cancel, so 1 is allowed; 2 or more means a new run started after the
 * cancel.
 */
@JCStressTest
@Outcome(id = {"1, 0, 0", "0, 1, 0", "1, 0, 1", "0, 1, 1"}, expect = ACCEPTABLE,
        desc = "one cancel won; at most the run in progress completed")
@Outcome(expect = FORBIDDEN, desc = "both or neither cancel won, or a new run started after the cancel")
@State
public class SchedulerRepeatingCancel {

    static final long PERIOD = 10_000;

    private final Runs runs = new Runs();
    private final Moment firstDue = Moment.after(PERIOD);
    private final ScheduledFuture<?> job = SharedScheduler.INSTANCE.scheduleRepeating(runs, Duration.ofNanos(PERIOD));
    private volatile int runsWhenCancelled = -1;

    private int cancelAfterFirstRunIsDue(boolean mayInterrupt) {
        firstDue.spinUntil();
        if (job.cancel(mayInterrupt)) {
            runsWhenCancelled = runs.count();
            return 1;
        }
        return 0;
    }

    /** Cancels without interrupting. */
    @Actor
    public void cancel(III_Result r) {
        r.r1 = cancelAfterFirstRunIsDue(false);
    }

    /** Cancels, interrupting a run in progress. */
    @Actor
    public void cancelAndInterrupt(III_Result r) {
        r.r2 = cancelAfterFirstRunIsDue(true);
    }

    /** Waits until no run can be in progress and counts the runs that started after the cancel. */
    @Arbiter
    public void arbiter(III_Result r) {
        int before = runsWhenCancelled;
        r.r3 = SharedScheduler.drain() && before >= 0 ? runs.count() - before : Quiesce.STUCK;
    }
}
