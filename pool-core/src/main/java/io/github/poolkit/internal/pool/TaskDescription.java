package io.github.poolkit.internal.pool;

import io.github.poolkit.OverdueTask;
import io.github.poolkit.internal.Wrapping;

/**
 * Describes a task for an overdue report: its {@code toString()}, seen through the pool's own wrappers
 * ({@link Wrapping}), guarded (a {@code toString()} that throws gives a description of the failure) and truncated to
 * {@link OverdueTask#MAX_TASK_LENGTH} characters. Runs on the pool's reporting thread, so a slow {@code toString()}
 * delays only that pool's later reports, never the detection of overdue tasks.
 */
final class TaskDescription {

    /** Wrappers seen through at most: a wrapper that wraps itself must not loop. */
    private static final int MAX_DEPTH = 8;

    private TaskDescription() {
    }

    /** {@return the description of {@code task} (never null)} */
    static String of(Object task) {
        for (int depth = 0; task instanceof Wrapping w && depth < MAX_DEPTH; depth++) {
            try {
                task = w.wrapped();
            } catch (Throwable e) {
                break;
            }
        }
        if (task == null) {
            return "null";
        }
        String text;
        try {
            text = String.valueOf(task.toString());
        } catch (Throwable e) {
            text = task.getClass().getName() + " (its toString() threw " + e.getClass().getName() + ")";
        }
        int max = OverdueTask.MAX_TASK_LENGTH;
        return text.length() <= max ? text : text.substring(0, max - 1) + "\u2026";
    }
}
