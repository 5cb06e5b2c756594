package io.github.poolkit.internal.pool;

import io.github.poolkit.internal.NamedThreadFactory;
import io.github.poolkit.internal.PaddedLong;
import io.github.poolkit.PoolOptions;

import java.util.concurrent.ThreadFactory;

/**
 * Where a pool's workers run, and whether they are kept between tasks.
 *
 * <ul>
 *   <li><b>Pooled</b> (the default): threads from the options' factory, or platform threads named
 *       {@code <name>-<n>}. A worker that finds no task goes idle and waits for the next one, until it expires.</li>
 *   <li><b>Unpooled virtual threads</b> ({@code virtualThreads}): every worker is a fresh virtual thread named
 *       {@code <name>-<n>}, started for one accepted task; when that task ends, the next queued task or blocked
 *       caller's task starts on a fresh virtual thread of its own, so that ThreadLocals, MDC entries and interrupt
 *       status never pass from one task to the next (virtual threads should never be pooled, JEP 444); nor do
 *       InheritableThreadLocals or a context class loader a task set, since the fresh thread inherits neither. The
 *       capacity still bounds the workers, so it bounds the tasks in flight. The thread is named by itself as it starts
 *       ({@link #name}), so that the caller starting it does not pay for the name.</li>
 * </ul>
 */
final class WorkerThreads {

    private final ThreadFactory factory;
    private final boolean pooled;
    /** Unpooled: the name's prefix. */
    private final String prefix;
    /**
     * Unpooled: the numbers given so far. Each starting worker counts here, from whatever processor its carrier is,
     * so the count has cache lines of its own: next to {@link #factory}, which every submitting caller reads, each
     * count would cost the caller a cache miss.
     */
    private final PaddedLong named = new PaddedLong();

    private WorkerThreads(ThreadFactory factory, boolean pooled, String prefix) {
        this.factory = factory;
        this.pooled = pooled;
        this.prefix = prefix;
    }

    /**
     * {@return the workers the options ask for} Unpooled virtual threads are started by whichever thread frees a slot
     * (often the one whose task just ended), so they inherit none of its InheritableThreadLocals and take the context
     * class loader of the thread that creates the pool now, never one a task set.
     */
    static WorkerThreads of(PoolOptions options) {
        if (options.virtualThreads()) {
            ThreadFactory fresh = Thread.ofVirtual().inheritInheritableThreadLocals(false).factory();
            ClassLoader loader = Thread.currentThread().getContextClassLoader();
            return unpooled(task -> {
                Thread t = fresh.newThread(task);
                t.setContextClassLoader(loader);
                return t;
            }, options.name());
        }
        ThreadFactory factory = options.threadFactory();
        return new WorkerThreads(factory != null ? factory : NamedThreadFactory.platform(options.name()), true, null);
    }

    /** {@return unpooled workers, one fresh thread from {@code factory} per task, named {@code <name>-<n>}} */
    static WorkerThreads unpooled(ThreadFactory factory, String name) {
        return new WorkerThreads(factory, false, name + "-");
    }

    /** {@return whether a worker that finds no task waits idle for the next one (else it ends)} */
    boolean pooled() {
        return pooled;
    }

    /** Unpooled: names the current thread, a worker's as it starts, {@code <name>-<n>}. */
    void name(Thread t) {
        t.setName(prefix + (named.getAndIncrement() + 1));
    }

    /**
     * Starts the thread of a reserved worker.
     *
     * @throws RuntimeException whatever the factory or {@link Thread#start} threw, or if the factory returned null or a
     *     thread it had started itself
     */
    void start(Worker w) {
        Thread t = factory.newThread(w);
        if (t == null) {
            throw new IllegalStateException("the thread factory returned null");
        }
        if (t.getState() != Thread.State.NEW) {
            // It runs the worker already, outside the books: refused before w.thread is set, so it returns at once
            // (Worker#run); the worker is retired as for any failed start.
            throw new IllegalStateException("the thread factory returned a thread it had already started; it must"
                    + " return an unstarted thread, as Thread.ofVirtual().factory() does"
                    + " (not Thread::startVirtualThread)");
        }
        w.thread = t;
        t.start();
    }
}
