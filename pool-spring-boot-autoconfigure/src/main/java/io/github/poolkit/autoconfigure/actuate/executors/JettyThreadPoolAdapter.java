package io.github.poolkit.autoconfigure.actuate.executors;

import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * Jetty's {@link QueuedThreadPool}: capacity and coreSize are its max and min threads, changed through its own
 * setters. It counts no completed tasks and does not tell the room left in its queue, so those figures are absent.
 */
record JettyThreadPoolAdapter(QueuedThreadPool pool) implements ExecutorAdapter {

    @Override
    public String type() {
        return pool.getClass().getSimpleName();
    }

    @Override
    public Integer capacity() {
        return pool.getMaxThreads();
    }

    @Override
    public Integer coreSize() {
        return pool.getMinThreads();
    }

    @Override
    public Integer running() {
        return pool.getThreads();
    }

    @Override
    public Integer busy() {
        return pool.getBusyThreads();
    }

    @Override
    public Integer queued() {
        return pool.getQueueSize();
    }

    @Override
    public boolean canSetCapacity() {
        return true;
    }

    @Override
    public boolean canSetCoreSize() {
        return true;
    }

    @Override
    public void setCapacity(int capacity) {
        pool.setMaxThreads(capacity);
    }

    @Override
    public void setCoreSize(int coreSize) {
        pool.setMinThreads(coreSize);
    }
}
