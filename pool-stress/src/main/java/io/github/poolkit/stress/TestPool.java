package io.github.poolkit.stress;

import io.github.poolkit.PoolOptions;
import io.github.poolkit.PoolOverloadException;
import io.github.poolkit.WorkerPool;

import java.util.function.UnaryOperator;

/**
 * The pool of one test state, with a {@link Gate} that the test's tasks can wait at and the {@link Runs} of the test's
 * task, and the two ways such a test ends. Actors use the fields directly ({@code test.pool.execute(test.runs)}).
 *
 * <p>Guarantees: each instance has a new pool (made by {@link Pools#create}), gate and count; both endings open the
 * gate before they terminate the pool, so a task held at the gate never keeps the pool from terminating, and neither
 * waits longer than {@link Quiesce#TIMEOUT_SECONDS} for anything.
 */
final class TestPool {

    final WorkerPool pool;
    final Gate gate = new Gate();
    final Runs runs;

    /**
     * @param capacity the pool's capacity (workers)
     * @param name the pool's name, {@code jcs-<test>}
     * @param options what the test sets beyond the name, e.g. {@code options -> options.queueCapacity(-1)}
     * @param runs the runs of the test's task, e.g. {@code new Runs(2)} for a task expected to run twice
     */
    TestPool(int capacity, String name, UnaryOperator<PoolOptions.Builder> options, Runs runs) {
        this.pool = Pools.create(capacity, name, options);
        this.runs = runs;
    }

    /**
     * A test pool with one worker held: it runs a task that waits at the gate. It returns once the pool has taken that
     * task, which may not have started yet.
     *
     * @param capacity the pool's capacity (workers)
     * @param name the pool's name, {@code jcs-<test>}
     * @param options what the test sets beyond the name
     * @param runs the runs of the test's task
     * @return a new test pool, one of its workers held
     */
    static TestPool holdingWorker(int capacity, String name, UnaryOperator<PoolOptions.Builder> options, Runs runs) {
        TestPool test = new TestPool(capacity, name, options, runs);
        test.pool.execute(test.gate::hold);
        return test;
    }

    /**
     * Submits the test's task, held at the gate, to a pool that refuses rather than blocks ({@code nonblocking}).
     *
     * @return 1 if the task was accepted, 0 if it was refused with {@link PoolOverloadException}
     */
    int submitHeld() {
        return Accepted.unless(PoolOverloadException.class, () -> pool.execute(gate.holdAfter(runs)));
    }

    /**
     * Changes the pool's capacity, then reads how many workers it counts.
     *
     * @param capacity the new capacity
     * @return {@code running()} right after {@code tune} returned
     */
    int tuneThenRunning(int capacity) {
        pool.tune(capacity);
        return pool.running();
    }

    /**
     * Ends a test whose tasks may be held, queued or refused: opens the gate, terminates the pool, then counts the
     * runs, which are final by then.
     *
     * @return the runs, or {@link Quiesce#STUCK} if the pool did not terminate in time
     */
    int runsAfterTermination() {
        gate.open();
        return Quiesce.runsAfterTermination(pool, runs);
    }

    /**
     * Ends a test that checks that its tasks run while the pool is still open, with no shutdown to push them along:
     * waits for the expected runs, then opens the gate and terminates the pool.
     *
     * @return the runs counted before the gate opened (fewer than expected if a task was stranded)
     */
    int runsBeforeTermination() {
        int ran = runs.awaitExpected();
        gate.open();
        Quiesce.terminate(pool);
        return ran;
    }
}
