package io.github.poolkit.autoconfigure.actuate.executors;

import java.util.concurrent.ScheduledThreadPoolExecutor;

/**
 * A JDK {@link ScheduledThreadPoolExecutor}. It runs on its core threads only (its maximum pool size has no effect), so
 * its capacity is its core pool size, changed through {@code setCorePoolSize}; it has no separate core size.
 */
record ScheduledThreadPoolAdapter(ScheduledThreadPoolExecutor executor) implements ExecutorAdapter {

    @Override
    public String type() {
        return executor.getClass().getSimpleName();
    }

    @Override
    public Integer capacity() {
        return executor.getCorePoolSize();
    }

    @Override
    public Integer running() {
        return executor.getPoolSize();
    }

    @Override
    public Integer busy() {
        return executor.getActiveCount();
    }

    @Override
    public Integer queued() {
        return executor.getQueue().size();
    }

    @Override
    public Integer queueRemaining() {
        return executor.getQueue().remainingCapacity();
    }

    @Override
    public Long completed() {
        return executor.getCompletedTaskCount();
    }

    @Override
    public boolean canSetCapacity() {
        return true;
    }

    @Override
    public void setCapacity(int capacity) {
        executor.setCorePoolSize(capacity);
    }
}
