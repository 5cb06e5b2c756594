package io.github.poolkit.internal.pool;

/**
 * A task queue that holds one task, and the probes that tell where that task went: taken by a poll, withdrawn by its
 * appender, or still in the queue.
 *
 * <p>Guarantees: the task is a fresh object, so nothing else in the queue is mistaken for it; each probe returns 1 or
 * 0, ready to be an outcome value; {@link #left()} is meant for the arbiter, once the actors are done.
 */
final class OneQueuedTask {

    private final TaskQueue queue;
    private final Object task = new Object();
    private final long index;

    /**
     * Appends the task to {@code queue}.
     *
     * @param queue an empty queue, e.g. {@link #atSegmentEnd()}
     */
    OneQueuedTask(TaskQueue queue) {
        this.queue = queue;
        this.index = queue.offer(task);
    }

    /** @return an unbounded queue, empty, whose next index is the last of its first segment */
    static TaskQueue atSegmentEnd() {
        TaskQueue q = new TaskQueue(-1);
        for (int i = 0; i < TaskQueue.SEGMENT - 1; i++) {
            q.offer(i);
            q.poll();
        }
        return q;
    }

    /** @return 1 if a poll (a worker taking the head) got the task, else 0 */
    int poll() {
        return queue.poll() == task ? 1 : 0;
    }

    /** @return 1 if the appender's withdrawal of the task succeeded, else 0 */
    int withdraw() {
        return queue.withdraw(index, task) ? 1 : 0;
    }

    /** @return 1 if anything was still in the queue, else 0 */
    int left() {
        return queue.poll() != null ? 1 : 0;
    }
}
