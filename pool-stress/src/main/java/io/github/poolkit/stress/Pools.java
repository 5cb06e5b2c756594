package io.github.poolkit.stress;

import io.github.poolkit.PoolOptions;
import io.github.poolkit.WorkerPool;

import java.util.function.UnaryOperator;

/**
 * Creates the pool of one test state. A state lives for microseconds and jcstress makes millions of them, so the pool
 * has no purge chore (it would start a timer per state and measure that instead of the race; a virtual-thread pool has
 * none anyway, as it keeps no idle workers).
 *
 * <p>Guarantee: the pool is exactly what the test's {@code options} ask for, named {@code name}, with
 * {@code disablePurge(true)}; its workers are the pool's own threads, started on demand.
 */
final class Pools {

    private Pools() {
    }

    /**
     * @param capacity the pool's capacity (workers)
     * @param name the pool's name, {@code jcs-<test>}, which names its threads in a thread dump of a hung run
     * @param options what the test sets beyond the name, e.g. {@code options -> options.queueCapacity(-1)}
     * @return a new pool
     */
    static WorkerPool create(int capacity, String name, UnaryOperator<PoolOptions.Builder> options) {
        return WorkerPool.create(capacity, options.apply(PoolOptions.builder().name(name).disablePurge(true)).build());
    }
}
