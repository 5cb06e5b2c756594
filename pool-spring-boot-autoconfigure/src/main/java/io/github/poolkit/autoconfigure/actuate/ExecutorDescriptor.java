package io.github.poolkit.autoconfigure.actuate;

import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import io.github.poolkit.autoconfigure.actuate.executors.ExecutorAdapter;

/**
 * An executor poolkit did not create, in the {@code pools} endpoint's answer: its type and the figures its kind can
 * tell. A figure the executor cannot tell, or whose getter throws (an executor not initialised, or failing), is
 * {@code null} and left out of the JSON: never invented.
 *
 * @param type           the executor's simple class name, such as {@code ThreadPoolTaskExecutor}
 * @param capacity       the most threads, or tasks running at once; -1 when unlimited
 * @param coreSize       the threads kept alive even when idle
 * @param running        threads alive, busy or idle
 * @param busy           threads running a task now
 * @param queued         tasks waiting in the queue
 * @param queueRemaining room left in the queue
 * @param completed      tasks finished since the executor started
 */
public record ExecutorDescriptor(String type, @Nullable Integer capacity, @Nullable Integer coreSize,
        @Nullable Integer running, @Nullable Integer busy, @Nullable Integer queued, @Nullable Integer queueRemaining,
        @Nullable Long completed) implements PoolsEndpoint.Entry {

    /**
     * Reads an executor; each figure on its own, so that one getter that throws costs only that figure. The figures
     * are read one after another, not in one snapshot, so threads that start between two reads could show more busy
     * threads than threads alive: busy is read first and shown at most as {@code running}.
     *
     * @param executor the executor's adapter
     * @return what it tells now
     */
    public static ExecutorDescriptor of(ExecutorAdapter executor) {
        String type = read(executor::type);
        Integer busy = read(executor::busy);
        Integer running = read(executor::running);
        if (busy != null && running != null && busy > running) {
            busy = running;
        }
        return new ExecutorDescriptor((type != null) ? type : "unknown", read(executor::capacity),
                read(executor::coreSize), running, busy, read(executor::queued), read(executor::queueRemaining),
                read(executor::completed));
    }

    /** @return the figure, or {@code null} when the getter cannot tell it or throws */
    static <T> @Nullable T read(Supplier<@Nullable T> getter) {
        try {
            return getter.get();
        }
        catch (RuntimeException | LinkageError ex) {
            return null;
        }
    }
}
