package io.github.poolkit.internal.pool;

import io.github.poolkit.internal.NamedThreadFactory;
import io.github.poolkit.PoolOptions;

import java.util.concurrent.ThreadFactory;

/**
 * Where a pool's workers run, and whether they are kept between tasks.
 *
 * <ul>
 *   <li><b>Pooled</b> (the default): threads from the options' factory, or platform threads named
 *       {@code <name>-<n>}. A worker that finds no task goes idle and waits for the next one, until it expires.</li>
 *   <li><b>Unpooled virtual threads</b> ({@code virtualThreads}): every worker is a fresh virtual thread named
 *       {@code <name>-<n>}, started for an accepted task. It runs that task, then whatever it finds queued or a
 *       blocked caller brought, and ends when it finds nothing: virtual threads are cheap to start and should never
 *       be pooled (JEP 444), and a pooled one costs a park and an unpark more per task. The capacity still bounds the
 *       workers, so it bounds the tasks in flight.</li>
 * </ul>
 */
final class WorkerThreads {

    private final ThreadFactory factory;
    private final boolean pooled;

    private WorkerThreads(ThreadFactory factory, boolean pooled) {
        this.factory = factory;
        this.pooled = pooled;
    }

    /** @return the workers the options ask for */
    static WorkerThreads of(PoolOptions options) {
        if (options.virtualThreads()) {
            return new WorkerThreads(NamedThreadFactory.virtual(options.name()), false);
        }
        ThreadFactory factory = options.threadFactory();
        return new WorkerThreads(factory != null ? factory : NamedThreadFactory.platform(options.name()), true);
    }

    /** @return whether a worker that finds no task waits idle for the next one (else it ends) */
    boolean pooled() {
        return pooled;
    }

    /**
     * Starts the thread of a reserved worker.
     *
     * @throws RuntimeException whatever the factory or {@link Thread#start} threw, or if the factory returned null
     */
    void start(Worker w) {
        Thread t = factory.newThread(w);
        if (t == null) {
            throw new IllegalStateException("the thread factory returned null");
        }
        w.thread = t;
        t.start();
    }
}
