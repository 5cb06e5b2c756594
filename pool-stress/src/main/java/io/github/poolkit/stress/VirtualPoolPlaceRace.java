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

    private final WorkerPool pool = WorkerPool.create(1,
            PoolOptions.builder().name("jcs-virtual-place").virtualThreads(true).build());
    private final CountDownLatch gate = new CountDownLatch(1);
    private final CountDownLatch ran = new CountDownLatch(2);
    private final AtomicInteger failed = new AtomicInteger();

    /** Occupies the only place until the first actor opens the gate. */
    public VirtualPoolPlaceRace() {
        pool.execute(() -> Quiesce.hold(gate));
    }

    private void execute() {
        try {
            pool.execute(ran::countDown);
        } catch (RuntimeException e) {
            failed.incrementAndGet();
        }
    }

    /** Lets the first task end (its place is given back), then executes. */
    @Actor
    public void first() {
        gate.countDown();
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
        try {
            ran.await(Quiesce.TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        r.r1 = failed.get();
        r.r2 = (int) (2 - ran.getCount());
        Quiesce.terminate(pool);
    }
}
