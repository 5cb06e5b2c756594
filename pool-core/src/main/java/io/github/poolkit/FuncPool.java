package io.github.poolkit;

import io.github.poolkit.internal.DecoratedTask;
import io.github.poolkit.internal.pool.PoolEngine;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * A pool of workers that all run one function, each invocation with its own argument: the Java counterpart of ants'
 * {@code PoolWithFunc} / {@code PoolWithFuncGeneric}. Invoking passes only the argument, so no task object is
 * allocated per call (unless a listener or a task decorator needs one).
 *
 * <pre>{@code
 * try (FuncPool<Path> thumbnails = FuncPool.create(4, this::renderThumbnail)) {
 *     for (Path image : images) {
 *         thumbnails.invoke(image);      // blocks while all 4 workers are busy
 *     }
 * }
 * }</pre>
 *
 * <p>{@link #invoke} has {@link WorkerPool#execute}'s semantics, blocking behaviour and errors; the capacity, the
 * metrics, {@link #tune}, {@link #release}, {@link #releaseTimeout} and {@link #reboot} behave as in
 * {@link WorkerPool}. An exception thrown by the function goes to the panic handler.
 *
 * <p>Memory consistency effects: actions in a thread before {@code invoke(a)} happen-before
 * {@code function.accept(a)} begins on a worker.
 *
 * @param <T> the type of the function's argument
 */
public final class FuncPool<T> implements Pool {

    private final PoolEngine engine;
    private final Consumer<? super T> function;
    /** With a decorator, the engine runs decorated Runnables; without, it passes the bare argument (no allocation). */
    private final UnaryOperator<Runnable> decorator;

    private FuncPool(int capacity, Consumer<? super T> function, PoolOptions options) {
        this.function = Objects.requireNonNull(function, "function");
        Objects.requireNonNull(options, "options").validate(capacity);
        this.decorator = options.taskDecorator();
        this.engine = new PoolEngine(capacity, options,
                decorator != null ? task -> ((Runnable) task).run() : argument -> {
                    @SuppressWarnings("unchecked")
                    T t = (T) argument;
                    function.accept(t);
                });
    }

    /**
     * Creates a pool with the default options.
     *
     * @param capacity the most workers; {@code <= 0} means unlimited
     * @param function what every invocation runs
     * @param <T>      the argument type
     * @return an open pool with no workers started yet
     */
    public static <T> FuncPool<T> create(int capacity, Consumer<? super T> function) {
        return create(capacity, function, PoolOptions.defaults());
    }

    /**
     * Creates a pool.
     *
     * @param capacity the most workers; {@code <= 0} means unlimited
     * @param function what every invocation runs
     * @param options  the options, checked together here ({@link PoolOptions#validate(int)})
     * @param <T>      the argument type
     * @return an open pool with no workers started yet
     * @throws InvalidOptionException if an option is invalid (it names the option, the value and the fix)
     */
    public static <T> FuncPool<T> create(int capacity, Consumer<? super T> function, PoolOptions options) {
        return new FuncPool<>(capacity, function, options);
    }

    /**
     * Runs {@code function.accept(argument)} on a worker; a {@code null} argument is passed as is. May block like
     * {@link WorkerPool#execute}.
     *
     * @param argument the argument
     * @throws PoolClosedException        if the pool is closed, or is released while the caller is blocked
     * @throws PoolOverloadException      if the pool cannot take the call now and may not block
     * @throws RejectedExecutionException if the caller is interrupted while blocked (interrupt status set), or no
     *                                    worker thread could be started
     */
    public void invoke(T argument) {
        if (decorator == null) {
            engine.execute(argument);
        } else {
            engine.execute(new DecoratedTask(decorator.apply(() -> function.accept(argument)), argument));
        }
    }

    @Override
    public int capacity() {
        return engine.capacity();
    }

    @Override
    public int running() {
        return engine.running();
    }

    @Override
    public int free() {
        return engine.free();
    }

    @Override
    public int waiting() {
        return engine.waiting();
    }

    @Override
    public void tune(int capacity) {
        engine.tune(capacity);
    }

    @Override
    public void addListener(PoolListener listener) {
        engine.addListener(listener);
    }

    @Override
    public boolean isClosed() {
        return engine.isClosed();
    }

    @Override
    public void release() {
        engine.release();
    }

    @Override
    public void releaseTimeout(Duration timeout) throws TimeoutException, InterruptedException {
        engine.releaseTimeout(Objects.requireNonNull(timeout, "timeout"));
    }

    @Override
    public void reboot() {
        engine.reboot();
    }

    @Override
    public String name() {
        return engine.name();
    }

    @Override
    public PoolStats stats() {
        return engine.stats();
    }

    @Override
    public PoolOptions options() {
        return engine.options();
    }

    @Override
    public void reconfigure(PoolOptions options) {
        engine.reconfigure(Objects.requireNonNull(options, "options"));
    }

    /**
     * {@inheritDoc} As {@link java.util.concurrent.ExecutorService#close()}: if interrupted meanwhile, running
     * invocations are interrupted and queued ones dropped, and the interrupt status is kept.
     */
    @Override
    public void close() {
        engine.closeAndAwait();
    }

    @Override
    public String toString() {
        return engine.toString();
    }
}
