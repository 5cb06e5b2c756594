package io.github.poolkit.internal.pool;

import java.util.function.Consumer;
import java.util.function.IntSupplier;

/**
 * The workers a pool counts (reserved and not yet retired), for interrupting them, and the task counts of all its
 * workers, live or retired. Two kinds: {@link LinkedWorkers} for pooled workers, which come and go rarely (guarded by
 * the pool's lock), and {@link ConcurrentWorkers} for unpooled ones, one per task (no lock).
 */
interface WorkerSet {

    /**
     * The task counts of a pool's workers.
     *
     * @param completed tasks that returned
     * @param failed    tasks that threw
     * @param busy      workers running a task now
     */
    record Tally(long completed, long failed, int busy) {
    }

    /** Adds a worker that is in no set. */
    void add(Worker w);

    /** Removes a worker that is in this set, keeping its task counts. */
    void remove(Worker w);

    /**
     * Removes a worker as {@link #remove(Worker)} does, running {@code whileListed} once its task counts are kept and
     * before it leaves the set, so that a scan of the set still finds it meanwhile. By default: the counts of a listed
     * worker are read live, so {@code whileListed}, then the removal.
     */
    default void remove(Worker w, Runnable whileListed) {
        whileListed.run();
        remove(w);
    }

    /**
     * Counts, on worker {@code w}'s own thread, its task as ended so that {@link #tally} sees it at once: for a
     * submitted future, whose count must be final before the future completes. By default on the worker itself.
     *
     * @param w      a worker in this set, on its own thread
     * @param failed whether the task threw
     */
    default void countEnded(Worker w, boolean failed) {
        w.countFinished(failed ? Worker.Outcome.FAILED : Worker.Outcome.COMPLETED);
    }

    /** Calls {@code action} for every worker in the set. */
    void forEach(Consumer<Worker> action);

    /** {@return the counts of every worker so far, retired or live} */
    Tally tally();

    /**
     * @param pooled   whether the pool keeps its workers between tasks
     * @param capacity the pool's capacity, {@code <= 0} for none
     * @param busy     an unpooled pool's count of reserved places (each is a busy worker)
     * @return the set for the pool's kind of workers
     */
    static WorkerSet of(boolean pooled, int capacity, IntSupplier busy) {
        return pooled ? new LinkedWorkers() : new ConcurrentWorkers(capacity, busy);
    }
}
