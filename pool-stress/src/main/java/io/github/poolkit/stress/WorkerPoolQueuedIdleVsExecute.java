package io.github.poolkit.stress;

import io.github.poolkit.PoolOptions;
import io.github.poolkit.WorkerPool;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Guarantee: a queued task never waits beside an idle worker. The pool's only worker finishes its task and goes idle
 * while another thread submits: the submitter appends to the queue without the lock (it saw the worker busy), the
 * worker looks at the queue without the lock before it parks, and at least one of them must see the other, so the
 * task runs while the pool is open, without any later submission or shutdown to push it along.
 *
 * <p>r1: 1 if the task ran within {@link Quiesce#TIMEOUT_SECONDS} while the pool was open, else 0.
 */
@JCStressTest
@Outcome(id = "1", expect = ACCEPTABLE, desc = "the task ran")
@Outcome(expect = FORBIDDEN, desc = "the task was stranded in the queue beside the idle worker")
@State
public class WorkerPoolQueuedIdleVsExecute {

    private final WorkerPool pool = WorkerPool.create(1,
            PoolOptions.builder().name("jcs-queued-idle").queueCapacity(-1).disablePurge(true).build());
    private final CountDownLatch gate = new CountDownLatch(1);
    private final CountDownLatch ran = new CountDownLatch(1);

    /** Occupies the only worker until the first actor opens the gate. */
    public WorkerPoolQueuedIdleVsExecute() {
        pool.execute(() -> Quiesce.hold(gate));
    }

    /** Lets the worker finish, so that it goes idle (unless it finds the task queued first). */
    @Actor
    public void finish() {
        gate.countDown();
    }

    /** Submits the task. */
    @Actor
    public void execute() {
        pool.execute(ran::countDown);
    }

    /** Waits for the task while the pool is still open, then shuts the pool down. */
    @Arbiter
    public void arbiter(I_Result r) {
        try {
            r.r1 = ran.await(Quiesce.TIMEOUT_SECONDS, TimeUnit.SECONDS) ? 1 : 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Quiesce.terminate(pool);
    }
}
