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
 * Guarantee: with {@code virtualThreads(true)}, a worker that retires without the lock and a caller that reserves
 * without it never exceed the capacity and never strand the caller. A pool of capacity 1 runs a task until the first
 * actor opens the gate; the second actor executes: it reserves the freed place, or joins the line and is served (the
 * retiring worker drops the count, then reads whether callers are blocked; the caller joins, then reads the count).
 *
 * <p>r1: 1 if the caller's task ran within {@link Quiesce#TIMEOUT_SECONDS}, else 0. r2: the most tasks seen running
 * at once.
 */
@JCStressTest
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the task ran, never beside the first")
@Outcome(expect = FORBIDDEN, desc = "the caller was stranded, or the capacity was exceeded")
@State
public class VirtualPoolRetireVsExecute {

    private final TestPool test = new TestPool(1, "jcs-virtual-retire",
            options -> options.virtualThreads(true), new Runs());
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger maxInFlight = new AtomicInteger();

    /** Occupies the only place until the first actor opens the gate. */
    public VirtualPoolRetireVsExecute() {
        test.pool.execute(() -> {
            enter();
            test.gate.hold();
            inFlight.decrementAndGet();
        });
    }

    private void enter() {
        maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
    }

    /** Lets the first task end, so that its worker retires. */
    @Actor
    public void finish() {
        test.gate.open();
    }

    /** Executes the task; it may block until the place is free. */
    @Actor
    public void execute() {
        test.pool.execute(() -> {
            enter();
            inFlight.decrementAndGet();
            test.runs.run();
        });
    }

    /** Waits for the task, then shuts the pool down. */
    @Arbiter
    public void arbiter(II_Result r) {
        r.r1 = test.runsBeforeTermination();
        r.r2 = maxInFlight.get();
    }
}
