package io.github.poolkit.stress;

import io.github.poolkit.PoolOverloadException;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import java.time.Duration;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Guarantee: a blocked caller whose {@code maxWait} runs out just as a finishing worker serves the line either has its
 * task taken (accepted, runs once) or leaves the line with {@link PoolOverloadException} (never runs): never both,
 * never neither. A pool of one busy worker; one actor executes with a {@code maxWait} about as long as a wake-up, the
 * other lets the busy task finish, whose worker then takes the head caller's task.
 *
 * <p>r1: 1 if the caller's {@code execute} was accepted, 0 if it timed out. r2: how many times its task ran, after
 * termination ({@link Quiesce#STUCK} if the pool hung).
 */
@JCStressTest
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "served before the wait ran out: the task ran once")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "timed out: the task never ran")
@Outcome(expect = FORBIDDEN, desc = "a timed-out task ran, an accepted task was lost or ran twice, or the pool hung")
@State
public class WorkerPoolMaxWaitVsGrant {

    private final TestPool test = new TestPool(1, "jcs-max-wait",
            options -> options.maxWait(Duration.ofNanos(30_000)), new Runs());

    /** Occupies the only worker, and waits until it is busy, so that the caller finds the pool full. */
    public WorkerPoolMaxWaitVsGrant() {
        Gate started = new Gate();
        test.pool.execute(test.gate.holdAfter(started::open));
        started.hold();
    }

    /** A caller that finds the pool full and waits at most maxWait. */
    @Actor
    public void caller(II_Result r) {
        r.r1 = Accepted.unless(PoolOverloadException.class, () -> test.pool.execute(test.runs));
    }

    /** Lets the busy task finish; its worker then serves the head of the line. */
    @Actor
    public void finisher() {
        test.gate.open();
    }

    /** Terminates the pool and counts the runs of the caller's task. */
    @Arbiter
    public void arbiter(II_Result r) {
        r.r2 = test.runsAfterTermination();
    }
}
