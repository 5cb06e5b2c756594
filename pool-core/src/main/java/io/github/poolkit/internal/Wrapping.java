package io.github.poolkit.internal;

/**
 * A task that wraps another one for the pool's own purposes (a scheduled job, a future): overdue reports describe the
 * wrapped task, which is what the application submitted.
 */
public interface Wrapping {

    /** {@return the task this one wraps, as the application gave it} */
    Object wrapped();
}
