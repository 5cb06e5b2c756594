package io.github.poolkit;

import io.github.poolkit.internal.pool.PoolEngine;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeoutException;

/**
 * The {@link Pool} methods of the pool kinds that run on one {@link PoolEngine} ({@link WorkerPool} and
 * {@link FuncPool}), written once: each is a call on the pool's engine. The two kinds cannot share a superclass
 * ({@code WorkerPool} is an {@code AbstractExecutorService}, {@code FuncPool} is not an executor), so they share this
 * interface, and the engine is found with a switch over the permitted kinds instead of a public accessor: adding a
 * kind without adding it to {@link #engine()} does not compile.
 */
sealed interface EnginePool extends Pool permits WorkerPool, FuncPool {

    private PoolEngine engine() {
        return switch (this) {
            case WorkerPool pool -> pool.engine;
            case FuncPool<?> pool -> pool.engine;
        };
    }

    @Override
    default String name() {
        return engine().name();
    }

    @Override
    default int capacity() {
        return engine().capacity();
    }

    @Override
    default int running() {
        return engine().running();
    }

    @Override
    default int free() {
        return engine().free();
    }

    @Override
    default int waiting() {
        return engine().waiting();
    }

    @Override
    default PoolStats stats() {
        return engine().stats();
    }

    @Override
    default PoolOptions options() {
        return engine().options();
    }

    @Override
    default void reconfigure(PoolOptions options) {
        engine().reconfigure(Objects.requireNonNull(options, "options"));
    }

    @Override
    default void tune(int capacity) {
        engine().tune(capacity);
    }

    @Override
    default boolean isClosed() {
        return engine().isClosed();
    }

    @Override
    default void release() {
        engine().release();
    }

    @Override
    default void releaseTimeout(Duration timeout) throws TimeoutException, InterruptedException {
        engine().releaseTimeout(Objects.requireNonNull(timeout, "timeout"));
    }

    @Override
    default void reboot() {
        engine().reboot();
    }

    /**
     * {@inheritDoc} As {@link java.util.concurrent.ExecutorService#close()}: releases the pool and waits until its
     * running and queued tasks have finished; if interrupted while waiting, running tasks are interrupted and queued
     * ones dropped, the wait goes on, and the interrupt status is kept.
     */
    @Override
    default void close() {
        engine().closeAndAwait();
    }
}
