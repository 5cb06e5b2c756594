package io.github.poolkit.stress;

import io.github.poolkit.WorkerPool;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Guarantee: a pool is never seen terminated while it is seen open ({@code ExecutorService}: terminated means shut
 * down and every task done), not even while a {@code reboot} reopens a terminated pool. The reboot clears the
 * terminated latch before it marks the pool open; a reader that sees it open, then reads the latch, sees it cleared.
 *
 * <p>r1: 1 if {@code isShutdown()} was true. r2: 1 if {@code isTerminated()}, read after it, was true.
 */
@JCStressTest
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "read before the reboot: shut down and terminated")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "read during the reboot: still shut down, no longer terminated")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "read after the reboot: open")
@Outcome(id = "0, 1", expect = FORBIDDEN, desc = "seen open and terminated at once")
@State
public class WorkerPoolRebootVsIsTerminated {

    private final WorkerPool pool = Pools.create(1, "jcs-reboot-is-terminated", options -> options);

    {
        pool.release(); // closed and, with no worker, terminated
    }

    /** Reopens the pool. */
    @Actor
    public void reboot() {
        pool.reboot();
    }

    /** Reads whether the pool is shut down, then whether it is terminated. */
    @Actor
    public void read(II_Result r) {
        r.r1 = pool.isShutdown() ? 1 : 0;
        r.r2 = pool.isTerminated() ? 1 : 0;
    }

    /** Closes the pool for good. */
    @Arbiter
    public void arbiter(II_Result r) {
        pool.close();
    }
}
