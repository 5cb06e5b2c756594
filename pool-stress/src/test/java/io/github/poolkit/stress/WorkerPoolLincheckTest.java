package io.github.poolkit.stress;

import io.github.poolkit.PoolOptions;
import io.github.poolkit.PoolOverloadException;
import io.github.poolkit.WorkerPool;
import org.jetbrains.lincheck.Lincheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Lincheck model checking of a {@link WorkerPool}'s counters: Lincheck runs the scenario below many times, each time
 * with a different interleaving of every thread involved (the two callers <em>and</em> the pool's worker threads),
 * chosen systematically at each shared-memory access and lock operation, and reports the interleaving that breaks an
 * assertion, throws, or deadlocks.
 *
 * <p>Scenario: a nonblocking pool of capacity 1; two callers each {@code execute} a trivial task and then read
 * {@code running()}, {@code free()} and {@code waiting()}. Checked in every interleaving:
 * <ul>
 *   <li>each {@code execute} either returns or throws {@link PoolOverloadException}, and at least one of the two is
 *       accepted (a caller is refused only while the other one's task holds the only worker);</li>
 *   <li>each read of {@code running()} and {@code free()} is within {@code [0, 1]} and {@code waiting()} is 0
 *       (nonblocking, no queue); the two reads are separate racy snapshots, so no relation between them is
 *       asserted;</li>
 *   <li>after {@code release()} and {@code awaitTermination}: every accepted task ran exactly once, and
 *       {@code running()} and {@code waiting()} are 0.</li>
 * </ul>
 */
class WorkerPoolLincheckTest {

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void countersStayWithinBoundsAndEveryAcceptedTaskRunsOnce() {
        Lincheck.runConcurrentTest(LincheckBudget.SCENARIO_INVOCATIONS, () -> {
            WorkerPool pool = WorkerPool.create(1,
                    PoolOptions.builder().name("lincheck-pool").nonblocking(true).disablePurge(true).build());
            AtomicInteger runs = new AtomicInteger();
            AtomicInteger accepted = new AtomicInteger();
            Runnable caller = () -> {
                try {
                    pool.execute(runs::incrementAndGet);
                    accepted.incrementAndGet();
                } catch (PoolOverloadException overloaded) {
                    // the only worker was busy: allowed for a nonblocking pool
                }
                Check.between("running()", pool.running(), 0, 1);
                Check.between("free()", pool.free(), 0, 1);
                Check.equal("waiting()", pool.waiting(), 0);
            };
            ScenarioThreads.ScenarioThread first = ScenarioThreads.start(caller);
            ScenarioThreads.ScenarioThread second = ScenarioThreads.start(caller);
            ScenarioThreads.join(first);
            ScenarioThreads.join(second);
            Check.between("accepted tasks", accepted.get(), 1, 2);
            pool.release();
            Check.that("the pool terminates", ScenarioThreads.awaitTermination(pool));
            Check.equal("runs", runs.get(), accepted.get());
            Check.equal("running() after termination", pool.running(), 0);
            Check.equal("waiting() after termination", pool.waiting(), 0);
        });
    }
}
