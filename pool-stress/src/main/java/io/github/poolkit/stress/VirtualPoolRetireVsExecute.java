package io.github.poolkit.stress;

import io.github.poolkit.PoolOptions;
import io.github.poolkit.WorkerPool;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
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

    private final WorkerPool pool = WorkerPool.create(1,
            PoolOptions.builder().name("jcs-virtual-retire").virtualThreads(true).build());
    private final CountDownLatch gate = new CountDownLatch(1);
    private final CountDownLatch ran = new CountDownLatch(1);
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger maxInFlight = new AtomicInteger();

    /** Occupies the only place until the first actor opens the gate. */
    public VirtualPoolRetireVsExecute() {
        pool.execute(() -> {
            enter();
            Quiesce.hold(gate);
            inFlight.decrementAndGet();
        });
    }

    private void enter() {
        maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
    }

    /** Lets the first task end, so that its worker retires. */
    @Actor
    public void finish() {
        gate.countDown();
    }

    /** Executes the task; it may block until the place is free. */
    @Actor
    public void execute() {
        pool.execute(() -> {
            enter();
            inFlight.decrementAndGet();
            ran.countDown();
        });
    }

    /** Waits for the task, then shuts the pool down. */
    @Arbiter
    public void arbiter(II_Result r) {
        try {
            r.r1 = ran.await(Quiesce.TIMEOUT_SECONDS, TimeUnit.SECONDS) ? 1 : 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        r.r2 = maxInFlight.get();
        Quiesce.terminate(pool);
    }
}
