package io.github.poolkit.autoconfigure.actuate.executors;

import org.apache.tomcat.util.threads.ThreadPoolExecutor;

/**
 * Tomcat's request thread pool, its own {@link ThreadPoolExecutor} (not the JDK's): capacity and coreSize are its
 * maximum and core pool sizes (the connector's {@code maxThreads} and {@code minSpareThreads}), changed through its
 * own setters.
 */
record TomcatThreadPoolAdapter(ThreadPoolExecutor executor) implements ExecutorAdapter {

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
