package io.github.poolkit.autoconfigure.actuate.executors;

import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

/**
 * Spring's {@link ThreadPoolTaskScheduler}: the figures of the {@code ScheduledThreadPoolExecutor} inside it (absent
 * until it is initialised), whose capacity is its pool size, changed through the scheduler's own
 * {@code setPoolSize}.
 */
record ThreadPoolTaskSchedulerAdapter(ThreadPoolTaskScheduler scheduler) implements ExecutorAdapter {

    @Override
    public String type() {
        return scheduler.getClass().getSimpleName();
    }

    private ScheduledThreadPoolAdapter pool() {
        return new ScheduledThreadPoolAdapter(scheduler.getScheduledThreadPoolExecutor());
    }

    @Override
    public Integer capacity() {
        return pool().capacity();
    }

    @Override
    public Integer running() {
        return pool().running();
    }

    @Override
    public Integer busy() {
        return pool().busy();
    }

    @Override
    public Integer queued() {
        return pool().queued();
    }

    @Override
    public Integer queueRemaining() {
        return pool().queueRemaining();
    }

    @Override
    public Long completed() {
        return pool().completed();
    }

    @Override
    public boolean canSetCapacity() {
        return true;
    }

    @Override
    public void setCapacity(int capacity) {
        scheduler.setPoolSize(capacity);
    }
}
