package io.github.poolkit.stress;

import io.github.poolkit.PoolClosedException;
import io.github.poolkit.WorkerPool;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import java.time.Duration;
import java.util.concurrent.TimeoutException;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Guarantee: a {@code releaseTimeout} on a pool that is already closed never makes a concurrent {@code reboot} fail.
 * A reboot is refused only while a caller waits for the pool it closed (a pool reopened under it would never
 * terminate); a call that finds the pool already closed closes nothing and waits for nothing, so it is no such
 * caller, not even for an instant.
 *
 * <p>r1: 1 if {@code releaseTimeout} returned (it came after the reboot, closed the pool and saw it terminated), 0 if
 * it threw {@link PoolClosedException} (it came first). r2: 1 if {@code reboot} returned, 0 if it was refused. r3: 1 if
 * the pool ended closed.
 */
@JCStressTest
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "rebooted first, then closed by releaseTimeout")
@Outcome(id = "0, 1, 0", expect = ACCEPTABLE, desc = "releaseTimeout found it closed, then it was rebooted")
@Outcome(expect = FORBIDDEN, desc = "the reboot was refused although nobody waited for a pool they had closed")
@State
public class WorkerPoolReleaseTimeoutVsReboot {

    private final WorkerPool pool = Pools.create(1, "jcs-release-timeout-reboot", options -> options);

    {
        pool.release(); // closed and, with no worker, terminated
    }

    /** Closes the pool and waits for it, or is told that it is closed already. */
    @Actor
    public void releaseTimeout(III_Result r) {
        try {
            pool.releaseTimeout(Duration.ofSeconds(10));
            r.r1 = 1;
        } catch (PoolClosedException e) {
            r.r1 = 0;
        } catch (TimeoutException | InterruptedException e) {
            throw new IllegalStateException("a pool without a task did not terminate", e);
        }
    }

    /** Reopens the pool. */
    @Actor
    public void reboot(III_Result r) {
        r.r2 = Accepted.unless(IllegalStateException.class, pool::reboot);
    }

    /** Reads whether the pool ended closed, then closes it for good. */
    @Arbiter
    public void arbiter(III_Result r) {
        r.r3 = pool.isClosed() ? 1 : 0;
        pool.close();
    }
}
