package io.github.poolkit.internal;

import java.util.Objects;

/**
 * A task as the pool's task decorator wrapped it, which still knows what the application submitted (a runnable, or
 * a function pool's argument), so that an overdue report names that rather than the decorator's wrapper
 * ({@link Wrapping}). Running it runs the decorated task. Immutable.
 */
public final class DecoratedTask implements Runnable, Wrapping {

    private final Runnable decorated;
    private final Object submitted;

    /**
     * Keeps a decorated task with what it was made from.
     *
     * @param decorated what the decorator returned
     * @param submitted what the application submitted (may be null: a function pool's argument)
     * @throws NullPointerException if {@code decorated} is null (the decorator returned null)
     */
    public DecoratedTask(Runnable decorated, Object submitted) {
        this.decorated = Objects.requireNonNull(decorated, "the task decorator returned null; return a Runnable");
        this.submitted = submitted;
    }

    /**
     * Gives back what the application submitted, for a task taken out of a pool's queue.
     *
     * @param task a task of the queue
     * @return the runnable submitted, when {@code task} is a decorated runnable; else {@code task} itself
     */
    public static Runnable submitted(Object task) {
        return task instanceof DecoratedTask d && d.submitted instanceof Runnable r ? r : (Runnable) task;
    }

    /** Runs the decorated task. */
    @Override
    public void run() {
        decorated.run();
    }

    /** {@return what the application submitted} */
    @Override
    public Object wrapped() {
        return submitted;
    }

    /** {@return the decorated task's description} */
    @Override
    public String toString() {
        return decorated.toString();
    }
}
