package io.github.poolkit.autoconfigure.actuate.executors;

import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

/**
 * Spring's {@link ThreadPoolTaskScheduler}: the figures of the {@code ScheduledThreadPoolExecutor} inside it (absent
 * until it is initialised), whose capacity is its pool size, changed through the scheduler's own
 * {@code setPoolSize}.
 */
final class ThreadPoolTaskSchedulerAdapter extends DescribedAdapter {

    ThreadPoolTaskSchedulerAdapter(ThreadPoolTaskScheduler scheduler) {
        super(scheduler, new Setting(() -> scheduler.getScheduledThreadPoolExecutor().getCorePoolSize(),
                scheduler::setPoolSize), null, LiveFigures.of(scheduler::getScheduledThreadPoolExecutor));
    }
}
