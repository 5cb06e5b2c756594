package io.github.poolkit.autoconfigure.actuate.executors;

import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

/**
 * Spring's {@link ThreadPoolTaskExecutor}: capacity and coreSize are its max and core pool sizes, changed through its
 * own setters (which reach the running pool). The live figures come from the {@code ThreadPoolExecutor} inside it,
 * which throws until the executor is initialised: those figures are then absent, not Spring's assumed defaults.
 */
record ThreadPoolTaskExecutorAdapter(ThreadPoolTaskExecutor executor) implements ExecutorAdapter {

    @Override
    public String type() {
        return executor.getClass().getSimpleName();
    }

    @Override
    public Integer capacity() {
        return executor.getMaxPoolSize();
    }

    @Override
    public Integer coreSize() {
        return executor.getCorePoolSize();
    }

    @Override
    public Integer running() {
        return executor.getThreadPoolExecutor().getPoolSize();
    }

    @Override
    public Integer busy() {
        return executor.getThreadPoolExecutor().getActiveCount();
    }

    @Override
    public Integer queued() {
        return executor.getThreadPoolExecutor().getQueue().size();
    }

    @Override
    public Integer queueRemaining() {
        return executor.getThreadPoolExecutor().getQueue().remainingCapacity();
    }

    @Override
    public Long completed() {
        return executor.getThreadPoolExecutor().getCompletedTaskCount();
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
        executor.setMaxPoolSize(capacity);
    }

    @Override
    public void setCoreSize(int coreSize) {
        executor.setCorePoolSize(coreSize);
    }
}
