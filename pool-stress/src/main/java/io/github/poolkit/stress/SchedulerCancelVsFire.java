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
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Guarantee: a one-shot job whose timer fires while two threads cancel it runs at most once; exactly one
 * {@code cancel} returns true unless the job completed first; and a job whose {@code cancel} returned true never
 * <em>starts</em> afterwards. Under the JDK's {@code FutureTask} semantics, which {@code DelayScheduler} follows,
 * {@code cancel} also succeeds on a job that has started but not finished: its run then completes, and its result is
 * discarded; that outcome is reported as interesting, not as a failure.
 *
 * <p>The job is due {@link #DELAY} after the state is made; both actors spin until then and cancel, one with
 * {@code cancel(false)}, the other with {@code cancel(true)}. r1, r2: 1 if that actor's {@code cancel} returned true.
 * r3: how many times the job ran, read after the scheduler's single worker drained ({@link Quiesce#STUCK} if it did
 * not).
 */
@JCStressTest
@Outcome(id = {"1, 0, 0", "0, 1, 0"}, expect = ACCEPTABLE, desc = "cancelled before it started; never ran")
@Outcome(id = "0, 0, 1", expect = ACCEPTABLE, desc = "fired and completed before both cancels")
@Outcome(id = {"1, 0, 1", "0, 1, 1"}, expect = ACCEPTABLE_INTERESTING,
        desc = "cancelled while running: the run completes, its result is discarded (JDK semantics)")
@Outcome(expect = FORBIDDEN, desc = "both cancels won, the job was lost, or it ran twice")
@State
public class SchedulerCancelVsFire {

    /** Close to the timer's wake-up latency, so that firing and cancelling overlap. */
    static final long DELAY = 20_000;

    private final Runs runs = new Runs();
    private final Moment due = Moment.after(DELAY);
    private final ScheduledFuture<?> job = SharedScheduler.INSTANCE.scheduleOnce(runs, Duration.ofNanos(DELAY));

    private int cancelAtDue(boolean mayInterrupt) {
        due.spinUntil();
        return job.cancel(mayInterrupt) ? 1 : 0;
    }

    /** Cancels without interrupting. */
    @Actor
    public void cancel(III_Result r) {
        r.r1 = cancelAtDue(false);
    }

    /** Cancels, interrupting a run in progress. */
    @Actor
    public void cancelAndInterrupt(III_Result r) {
        r.r2 = cancelAtDue(true);
    }

    /** Waits until the job has run or never will, and counts its runs. */
    @Arbiter
    public void arbiter(III_Result r) {
        r.r3 = SharedScheduler.drain() ? runs.count() : Quiesce.STUCK;
    }
}
