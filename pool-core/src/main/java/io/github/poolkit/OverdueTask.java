package io.github.poolkit;

import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;

/**
 * A task that took longer than its pool's {@link PoolOptions#runTimeout() runTimeout} to run or
 * {@link PoolOptions#queueTimeout() queueTimeout} to start, as reported once to {@link PoolListener#taskOverdue}.
 *
 * @param pool    the name of the pool
 * @param kind    whether the task runs too long ({@link Kind#RUN}) or waits too long ({@link Kind#QUEUE})
 * @param task    the submitted task's {@code toString()} (the pool's own wrappers removed), truncated to
 *                {@value #MAX_TASK_LENGTH} characters; a description of the failure if it threw
 * @param thread  the name of the worker thread running it ({@code RUN}), or {@code null} ({@code QUEUE})
 * @param elapsed how long it had run ({@code RUN}) or waited ({@code QUEUE}) when it was found overdue
 * @param stack   the worker's stack when the task was found overdue ({@code RUN}); empty for {@code QUEUE}
 */
public record OverdueTask(String pool, Kind kind, String task, String thread, Duration elapsed,
                          StackTraceElement[] stack) {

    /** The longest {@link #task()} description kept; a longer one is cut and ends with an ellipsis. */
    public static final int MAX_TASK_LENGTH = 500;

    /**
     * Checks the components and keeps a copy of the stack.
     *
     * @throws NullPointerException if a component other than {@code thread} is null
     */
    public OverdueTask {
        Objects.requireNonNull(pool, "pool");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(task, "task");
        Objects.requireNonNull(elapsed, "elapsed");
        stack = stack == null ? new StackTraceElement[0] : stack.clone();
    }

    /** {@return a copy of the worker's stack when the task was found overdue, empty for {@code QUEUE}} */
    @Override
    public StackTraceElement[] stack() {
        return stack.clone();
    }

    /** {@return a one-line summary: pool, kind, task, thread and elapsed time} */
    @Override
    public String toString() {
        return "OverdueTask[pool=" + pool + ", kind=" + kind + ", task=" + task + ", thread=" + thread
                + ", elapsed=" + elapsed + ", stack=" + stack.length + " frames]";
    }

    /** {@return whether {@code o} is an overdue task with equal components (stacks compared element by element)} */
    @Override
    public boolean equals(Object o) {
        return o instanceof OverdueTask t && pool.equals(t.pool) && kind == t.kind && task.equals(t.task)
                && Objects.equals(thread, t.thread) && elapsed.equals(t.elapsed) && Arrays.equals(stack, t.stack);
    }

    /** {@return a hash code consistent with {@link #equals}} */
    @Override
    public int hashCode() {
        return Objects.hash(pool, kind, task, thread, elapsed, Arrays.hashCode(stack));
    }

    /** What took too long. */
    public enum Kind {
        /** The task is still running after {@code runTimeout}. */
        RUN,
        /** The task has not started {@code queueTimeout} after it was accepted. */
        QUEUE
    }
}
