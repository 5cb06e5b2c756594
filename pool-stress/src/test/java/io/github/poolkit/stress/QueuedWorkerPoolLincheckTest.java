package io.github.poolkit.stress;

import io.github.poolkit.PoolClosedException;
import io.github.poolkit.PoolOptions;
import io.github.poolkit.WorkerPool;
import org.jetbrains.lincheck.Lincheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Lincheck model checking of a queued {@link WorkerPool}'s lock-free paths, in every interleaving of the callers and
 * the pool's worker thread (see {@link WorkerPoolLincheckTest} for how Lincheck explores them).
 *
 * <p>Scenarios, on a pool of capacity 1 with an unbounded queue:
 * <ul>
 *   <li>two callers each {@code execute} a task: once the first is running, the second is appended to the queue
 *       without the lock while the worker finishes, looks at the queue and may go idle. Checked: both tasks run while
 *       the pool is open (none is stranded beside the idle worker), each exactly once, and {@code waiting()} is 0
 *       after termination;</li>
 *   <li>one caller {@code execute}s twice while another releases the pool: each task is either accepted and run
 *       exactly once, or rejected with {@link PoolClosedException} and never run.</li>
 * </ul>
 */
class QueuedWorkerPoolLincheckTest {

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void everyQueuedTaskRunsOnceAndNoneWaitsBesideAnIdleWorker() {
        Lincheck.runConcurrentTest(LincheckBudget.SCENARIO_INVOCATIONS, () -> {
            WorkerPool pool = queuedPool();
            AtomicInteger runs = new AtomicInteger();
            Runnable caller = () -> pool.execute(runs::incrementAndGet);
            ScenarioThreads.ScenarioThread first = ScenarioThreads.start(caller);
            ScenarioThreads.ScenarioThread second = ScenarioThreads.start(caller);
            ScenarioThreads.join(first);
            ScenarioThreads.join(second);
            // Both tasks must run with the pool still open: nothing else will push a stranded task along.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (runs.get() < 2 && System.nanoTime() < deadline) {
                Thread.yield();
            }
            Check.equal("runs while open", runs.get(), 2);
            pool.release();
            Check.that("the pool terminates", ScenarioThreads.awaitTermination(pool));
            Check.equal("runs", runs.get(), 2);
            Check.equal("waiting() after termination", pool.waiting(), 0);
        });
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aTaskRacingAReleaseIsRunOnceOrRejected() {
        Lincheck.runConcurrentTest(LincheckBudget.SCENARIO_INVOCATIONS, () -> {
            WorkerPool pool = queuedPool();
            AtomicInteger runs = new AtomicInteger();
            AtomicInteger accepted = new AtomicInteger();
            ScenarioThreads.ScenarioThread caller = ScenarioThreads.start(() -> {
                for (int i = 0; i < 2; i++) {
                    try {
                        pool.execute(runs::incrementAndGet);
                        accepted.incrementAndGet();
                    } catch (PoolClosedException closed) {
                        // released first: allowed
                    }
                }
            });
            ScenarioThreads.ScenarioThread releaser = ScenarioThreads.start(pool::release);
            ScenarioThreads.join(caller);
            ScenarioThreads.join(releaser);
            Check.that("the pool terminates", ScenarioThreads.awaitTermination(pool));
            Check.equal("runs", runs.get(), accepted.get());
            Check.equal("waiting() after termination", pool.waiting(), 0);
        });
    }

    private static WorkerPool queuedPool() {
        return WorkerPool.create(1,
                PoolOptions.builder().name("lincheck-queued").queueCapacity(-1).disablePurge(true).build());
    }
}
