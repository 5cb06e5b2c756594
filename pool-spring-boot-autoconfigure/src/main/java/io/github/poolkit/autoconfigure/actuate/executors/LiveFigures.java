package io.github.poolkit.autoconfigure.actuate.executors;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

/**
 * How to read an executor's live figures, each through one of the executor's own getters.
 *
 * <p>Invariants: a getter is called at each read, never once and kept, so a figure is the executor's at that moment,
 * and a getter that throws (a Spring executor not initialised yet) throws to the reader; a figure whose getter is
 * {@code null} is one this kind of executor cannot tell, and is absent.
 *
 * @param running        the threads alive now, busy or idle
 * @param busy           the threads running a task now
 * @param queued         the tasks waiting in the queue
 * @param queueRemaining the room left in the queue, or {@code null}
 * @param completed      the tasks finished since the start, or {@code null}
 */
record LiveFigures(IntSupplier running, IntSupplier busy, IntSupplier queued, @Nullable IntSupplier queueRemaining,
        @Nullable LongSupplier completed) {

    /**
     * The figures of a JDK {@link ThreadPoolExecutor}, reached anew at each read (the pool inside a Spring executor
     * exists only once the executor is initialised).
     */
    static LiveFigures of(Supplier<? extends ThreadPoolExecutor> pool) {
        return ofQueue(() -> pool.get().getPoolSize(), () -> pool.get().getActiveCount(), () -> pool.get().getQueue(),
                () -> pool.get().getCompletedTaskCount());
    }

    /** The figures of a pool with the JDK's API whose queued tasks and room left are its queue's. */
    static LiveFigures ofQueue(IntSupplier running, IntSupplier busy, Supplier<? extends BlockingQueue<?>> queue,
            LongSupplier completed) {
        return new LiveFigures(running, busy, () -> queue.get().size(), () -> queue.get().remainingCapacity(),
                completed);
    }
}
