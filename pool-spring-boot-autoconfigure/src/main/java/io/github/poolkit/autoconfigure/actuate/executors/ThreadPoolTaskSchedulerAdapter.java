package io.github.poolkit.autoconfigure.actuate.executors;

import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

/**
 * Spring's {@link ThreadPoolTaskScheduler}: the figures of the {@code ScheduledThreadPoolExecutor} inside it (absent
 * until it is initialised), whose pool size is both its coreSize and its capacity (it runs on its core threads only),
 * changed through the scheduler's own {@code setPoolSize} by a write of either.
 */
final class ThreadPoolTaskSchedulerAdapter extends DescribedAdapter {

    ThreadPoolTaskSchedulerAdapter(ThreadPoolTaskScheduler scheduler) {
        super(scheduler, new Setting(() -> scheduler.getScheduledThreadPoolExecutor().getCorePoolSize(),
                scheduler::setPoolSize), LiveFigures.of(scheduler::getScheduledThreadPoolExecutor));
    }
}
