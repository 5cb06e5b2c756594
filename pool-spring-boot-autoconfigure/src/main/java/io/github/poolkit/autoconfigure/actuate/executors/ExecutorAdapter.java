package io.github.poolkit.autoconfigure.actuate.executors;

import org.jspecify.annotations.Nullable;

/**
 * What poolkit can read from, and change in, one kind of {@link java.util.concurrent.Executor} that it did not create:
 * a {@code ThreadPoolExecutor}, one of Spring's task executors, a web server's request thread pool. The endpoint and
 * the meters read executors only through this interface, never through their concrete types.
 *
 * <p>An adapter observes the executor it was given and calls that executor's own getters and setters; it never
 * replaces, wraps or proxies it. Each getter returns {@code null} when this kind of executor cannot tell that figure
 * (a figure is never invented), and may throw when the executor fails or is not initialised: callers treat a getter
 * that throws like one that cannot tell.
 */
public interface ExecutorAdapter {

    /** The name of the setting {@link #setCapacity(int)} changes, as a write spells it. */
    String CAPACITY = "capacity";

    /** The name of the setting {@link #setCoreSize(int)} changes, as a write spells it. */
    String CORE_SIZE = "coreSize";

    /** {@return the executor's simple class name, such as {@code ThreadPoolTaskExecutor}} */
    String type();

    /** {@return the most threads (or tasks running at once) the executor allows, -1 when unlimited, or {@code null}} */
    default @Nullable Integer capacity() {
        return null;
    }

    /** {@return the threads the executor keeps alive even when idle, or {@code null}} */
    default @Nullable Integer coreSize() {
        return null;
    }

    /** {@return the threads alive now, busy or idle, or {@code null}} */
    default @Nullable Integer running() {
        return null;
    }

    /** {@return the threads running a task now, or {@code null}} */
    default @Nullable Integer busy() {
        return null;
    }

    /** {@return the tasks waiting in the executor's queue, or {@code null}} */
    default @Nullable Integer queued() {
        return null;
    }

    /** {@return the room left in the executor's queue, or {@code null}} */
    default @Nullable Integer queueRemaining() {
        return null;
    }

    /** {@return the tasks the executor has finished since it started, or {@code null}} */
    default @Nullable Long completed() {
        return null;
    }

    /** {@return whether the executor is shut down (it runs no more tasks), as far as it can tell} */
    default boolean isShutdown() {
        return false;
    }

    /** {@return whether {@link #setCapacity(int)} changes this executor while it runs} */
    default boolean canSetCapacity() {
        return false;
    }

    /**
     * Tells why the capacity cannot change, for the {@code 400} a write of it answers.
     *
     * @param type what {@link #type()} reads
     * @return why {@link #setCapacity(int)} is refused, when {@link #canSetCapacity()} is false
     */
    default String whyCapacityIsFixed(String type) {
        return "a " + type + " cannot change its capacity while it runs";
    }

    /** {@return whether {@link #setCoreSize(int)} changes this executor while it runs} */
    default boolean canSetCoreSize() {
        return false;
    }

    /**
     * Tells why the core size cannot change, for the {@code 400} a write of it answers.
     *
     * @param type what {@link #type()} reads
     * @return why {@link #setCoreSize(int)} is refused, when {@link #canSetCoreSize()} is false
     */
    default String whyCoreSizeIsFixed(String type) {
        return "a " + type + " cannot change its coreSize while it runs"
                + (canSetCapacity() ? "; change its capacity instead" : "");
    }

    /**
     * Tells whether the core size and the capacity are one size, as in a {@code ScheduledThreadPoolExecutor}, which
     * runs on its core threads only: both figures then read the same and a write of either changes both.
     *
     * @return whether {@link #coreSize()} is {@link #capacity()}
     */
    default boolean coreSizeIsCapacity() {
        return false;
    }

    /**
     * Changes the executor's capacity through its own setter.
     *
     * @param capacity the new capacity, positive
     * @throws UnsupportedOperationException when {@link #canSetCapacity()} is false
     * @throws RuntimeException              what the executor's setter throws, e.g. when the new capacity is below
     *                                       its core size
     */
    default void setCapacity(int capacity) {
        throw new UnsupportedOperationException(type() + " cannot change its capacity");
    }

    /**
     * Changes the executor's core size through its own setter.
     *
     * @param coreSize the new core size, {@code >= 0}
     * @throws UnsupportedOperationException when {@link #canSetCoreSize()} is false
     * @throws RuntimeException              what the executor's setter throws, e.g. when the new core size is above
     *                                       its capacity
     */
    default void setCoreSize(int coreSize) {
        throw new UnsupportedOperationException(type() + " cannot change its core size");
    }
}
