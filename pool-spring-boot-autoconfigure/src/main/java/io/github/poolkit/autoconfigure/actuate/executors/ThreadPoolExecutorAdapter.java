package io.github.poolkit.autoconfigure.actuate.executors;

import java.util.concurrent.ThreadPoolExecutor;

/**
 * A JDK {@link ThreadPoolExecutor} (not a scheduled one): capacity is its maximum pool size, coreSize its core pool
 * size, both changed through its own setters, which refuse a core size above the maximum.
 */
record ThreadPoolExecutorAdapter(ThreadPoolExecutor executor) implements ExecutorAdapter {

    @Override
    public String type() {
        return executor.getClass().getSimpleName();
    }

    @Override
    public Integer capacity() {
        return executor.getMaximumPoolSize();
    }

    @Override
    public Integer coreSize() {
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
    public boolean canSetCoreSize() {
        return true;
    }

    @Override
    public void setCapacity(int capacity) {
        executor.setMaximumPoolSize(capacity);
    }

    @Override
    public void setCoreSize(int coreSize) {
        executor.setCorePoolSize(coreSize);
    }
}
