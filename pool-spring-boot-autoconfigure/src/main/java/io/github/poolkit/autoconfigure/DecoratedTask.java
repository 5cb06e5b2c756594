package io.github.poolkit.autoconfigure;

/**
 * A task as the application's task decorator returned it, which still knows the task it was given: it runs the
 * decorated one, and shows (and, through {@link #unwrap}, gives back) the original, so that logs name the task the
 * application submitted and the tasks a shutdown takes out of a pool are the application's own objects.
 *
 * <p>Immutable.
 */
final class DecoratedTask implements Runnable {

    private final Runnable task;
    private final Runnable decorated;

    /**
     * @param task      the task as submitted
     * @param decorated what the decorator made of it
     */
    DecoratedTask(Runnable task, Runnable decorated) {
        this.task = task;
        this.decorated = decorated;
    }

    /**
     * @param task a task taken out of a pool
     * @return the task the application submitted, when {@code task} is a {@link DecoratedTask}; else {@code task}
     */
    static Runnable unwrap(Runnable task) {
        return (task instanceof DecoratedTask decoratedTask) ? decoratedTask.task : task;
    }

    @Override
    public void run() {
        decorated.run();
    }

    @Override
    public String toString() {
        return task.toString();
    }
}
