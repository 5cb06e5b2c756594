package io.github.poolkit.autoconfigure.actuate.executors;

import java.util.concurrent.ThreadPoolExecutor;

/**
 * A JDK {@link ThreadPoolExecutor} (not a scheduled one): capacity is its maximum pool size, coreSize its core pool
 * size, both changed through its own setters, which refuse a core size above the maximum.
 */
final class ThreadPoolExecutorAdapter extends DescribedAdapter {

    ThreadPoolExecutorAdapter(ThreadPoolExecutor executor) {
        super(executor, new Setting(executor::getMaximumPoolSize, executor::setMaximumPoolSize),
                new Setting(executor::getCorePoolSize, executor::setCorePoolSize), LiveFigures.of(() -> executor));
    }
}
