package io.github.poolkit.autoconfigure.actuate.executors;

import java.util.concurrent.ScheduledThreadPoolExecutor;

/**
 * A JDK {@link ScheduledThreadPoolExecutor}. It runs on its core threads only (its maximum pool size has no effect), so
 * its capacity is its core pool size, changed through {@code setCorePoolSize}; it has no separate core size.
 */
final class ScheduledThreadPoolAdapter extends DescribedAdapter {

    ScheduledThreadPoolAdapter(ScheduledThreadPoolExecutor executor) {
        super(executor, new Setting(executor::getCorePoolSize, executor::setCorePoolSize), null,
                LiveFigures.of(() -> executor));
    }
}
