package io.github.poolkit.autoconfigure.actuate.executors;

import java.util.concurrent.ScheduledThreadPoolExecutor;

/**
 * A JDK {@link ScheduledThreadPoolExecutor}. It runs on its core threads only (its maximum pool size has no effect), so
 * its core pool size is both its coreSize and its capacity, changed through {@code setCorePoolSize} by a write of
 * either.
 */
final class ScheduledThreadPoolAdapter extends DescribedAdapter {

    ScheduledThreadPoolAdapter(ScheduledThreadPoolExecutor executor) {
        super(executor, new Setting(executor::getCorePoolSize, executor::setCorePoolSize),
                LiveFigures.of(() -> executor));
    }
}
