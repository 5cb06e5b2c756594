package io.github.poolkit.autoconfigure.actuate.executors;

import java.util.concurrent.ExecutorService;
import java.util.function.IntConsumer;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

import org.jspecify.annotations.Nullable;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

/**
 * An adapter described by functions that reach one executor's own getters and setters: each kind's subclass says
 * only which getter or setter gives each figure and size, and this class turns them into an {@link ExecutorAdapter}.
 *
 * <p>Invariants:
 * <ul>
 *   <li>The functions are called at each read or write, never once and kept, so a figure is the executor's at that
 *       moment, and what a getter or setter throws reaches the caller unchanged.</li>
 *   <li>A capacity of {@code Integer.MAX_VALUE} (a cached thread pool, Spring's default maximum) is unlimited and
 *       reads -1; the meters turn -1 back into {@code Integer.MAX_VALUE}, Micrometer's convention.</li>
 *   <li>The capacity can always be read and changed; the core size can be read and changed together, or not at all
 *       (no {@link Setting} for it: its figure is absent and {@link #setCoreSize(int)} refuses). An executor that
 *       runs on its core threads only has one {@link Setting} for both ({@link #coreSizeIsCapacity()}).</li>
 *   <li>Each setter changes one size only. The order of the two when both change, so that the core size is never
 *       above the capacity at any moment, is the caller's (the endpoint's change of an executor).</li>
 * </ul>
 */
abstract class DescribedAdapter implements ExecutorAdapter {

    /**
     * One size of an executor, read and changed through the executor's own getter and setter.
     *
     * @param get the getter
     * @param set the setter
     */
    record Setting(IntSupplier get, IntConsumer set) {
    }

    private final Object executor;

    private final String type;

    private final Setting capacity;

    private final @Nullable Setting coreSize;

    private final LiveFigures figures;

    /**
     * @param executor the executor, whose simple class name is the type
     * @param capacity its capacity
     * @param coreSize its core size, or {@code null} when it has none apart from its capacity
     * @param figures  its live figures
     */
    DescribedAdapter(Object executor, Setting capacity, @Nullable Setting coreSize, LiveFigures figures) {
        this.executor = executor;
        this.type = ExecutorAdapters.typeOf(executor);
        this.capacity = capacity;
        this.coreSize = coreSize;
        this.figures = figures;
    }

    /**
     * An executor whose core size is its capacity (it runs on its core threads only): both read and change it.
     *
     * @param executor the executor, whose simple class name is the type
     * @param coreSize its core size, which is its capacity
     * @param figures  its live figures
     */
    DescribedAdapter(Object executor, Setting coreSize, LiveFigures figures) {
        this(executor, coreSize, coreSize, figures);
    }

    @Override
    public boolean coreSizeIsCapacity() {
        return capacity == coreSize;
    }

    @Override
    public String type() {
        return type;
    }

    /** {@return the capacity; -1 when the getter says {@code Integer.MAX_VALUE}, these executors' "unlimited"} */
    @Override
    public Integer capacity() {
        int value = capacity.get().getAsInt();
        return (value == Integer.MAX_VALUE) ? -1 : value;
    }

    @Override
    public @Nullable Integer coreSize() {
        return (coreSize != null) ? coreSize.get().getAsInt() : null;
    }

    @Override
    public Integer running() {
        return figures.running().getAsInt();
    }

    @Override
    public Integer busy() {
        return figures.busy().getAsInt();
    }

    @Override
    public Integer queued() {
        return figures.queued().getAsInt();
    }

    @Override
    public @Nullable Integer queueRemaining() {
        IntSupplier remaining = figures.queueRemaining();
        return (remaining != null) ? remaining.getAsInt() : null;
    }

    @Override
    public @Nullable Long completed() {
        LongSupplier completed = figures.completed();
        return (completed != null) ? completed.getAsLong() : null;
    }

    /** {@return whether the JDK pool it is, or the one inside Spring's executor, is shut down} */
    @Override
    public boolean isShutdown() {
        Object pool = executor;
        try {
            if (pool instanceof ThreadPoolTaskExecutor spring) {
                pool = spring.getThreadPoolExecutor();
            }
            else if (pool instanceof ThreadPoolTaskScheduler spring) {
                pool = spring.getScheduledThreadPoolExecutor();
            }
        }
        catch (IllegalStateException notInitialized) {
            return false; // its sizes are still settings, read when it starts
        }
        return pool instanceof ExecutorService service && service.isShutdown();
    }

    @Override
    public boolean canSetCapacity() {
        return true;
    }

    @Override
    public boolean canSetCoreSize() {
        return coreSize != null;
    }

    @Override
    public void setCapacity(int capacity) {
        this.capacity.set().accept(capacity);
    }

    @Override
    public void setCoreSize(int coreSize) {
        Setting setting = this.coreSize;
        if (setting == null) {
            ExecutorAdapter.super.setCoreSize(coreSize);
            return;
        }
        setting.set().accept(coreSize);
    }
}
