package io.github.poolkit.stress;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import java.util.concurrent.atomic.AtomicInteger;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Guarantee: with {@code virtualThreads(true)} and no queue, two callers racing for the one place that a finishing
 * task gives back (without the lock) both get their tasks run: one takes the place with a CAS, without the lock; the
 * other, which may have seen the place free under the lock, must then wait for it, not fail.
 *
 * <p>r1: callers whose {@code execute} threw. r2: tasks run within {@link Quiesce#TIMEOUT_SECONDS}.
 */
@JCStressTest
@Outcome(id = "0, 2", expect = ACCEPTABLE, desc = "both tasks accepted and run")
@Outcome(expect = FORBIDDEN, desc = "a caller failed, or a task did not run")
@State
public class VirtualPoolPlaceRace {

    /** Its only place is taken until the first actor opens the gate. */
    private final TestPool test = TestPool.holdingWorker(1, "jcs-virtual-place",
            options -> options.virtualThreads(true), new Runs(2));
    private final AtomicInteger accepted = new AtomicInteger();

    private void execute() {
        accepted.addAndGet(Accepted.unless(RuntimeException.class, () -> test.pool.execute(test.runs)));
    }

    /** Lets the first task end (its place is given back), then executes. */
    @Actor
    public void first() {
        test.gate.open();
        execute();
    }

    /** Executes; the pool may be full, or its place may be given back meanwhile. */
    @Actor
    public void second() {
        execute();
    }

    /** Waits for the tasks, then shuts the pool down. */
    @Arbiter
    public void arbiter(II_Result r) {
        r.r1 = 2 - accepted.get();
        r.r2 = test.runsBeforeTermination();
    }
}
