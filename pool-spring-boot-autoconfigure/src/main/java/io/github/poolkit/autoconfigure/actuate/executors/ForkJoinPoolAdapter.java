package io.github.poolkit.autoconfigure.actuate.executors;

import java.util.concurrent.ForkJoinPool;

/**
 * A {@link ForkJoinPool}: capacity is its parallelism (the threads it aims to keep running), changed through
 * {@code setParallelism} (which the common pool refuses). It counts no completed tasks and has no bounded queue, so
 * those figures are absent; {@code queued} adds the submissions not yet taken and the tasks in its workers' queues.
 */
record ForkJoinPoolAdapter(ForkJoinPool pool) implements ExecutorAdapter {

    @Override
    public String type() {
        return pool.getClass().getSimpleName();
    }

    @Override
    public Integer capacity() {
        return pool.getParallelism();
    }

    @Override
    public Integer running() {
        return pool.getPoolSize();
    }

    @Override
    public Integer busy() {
        return pool.getActiveThreadCount();
    }

    @Override
    public Integer queued() {
        return (int) Math.min(Integer.MAX_VALUE, pool.getQueuedSubmissionCount() + pool.getQueuedTaskCount());
    }

    @Override
    public boolean canSetCapacity() {
        return true;
    }

    @Override
    public void setCapacity(int capacity) {
        pool.setParallelism(capacity);
    }
}
