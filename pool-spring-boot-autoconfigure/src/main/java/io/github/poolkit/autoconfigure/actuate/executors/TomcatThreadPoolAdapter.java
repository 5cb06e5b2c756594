package io.github.poolkit.autoconfigure.actuate.executors;

import org.apache.tomcat.util.threads.ThreadPoolExecutor;

/**
 * Tomcat's request thread pool, its own {@link ThreadPoolExecutor} (not the JDK's, though it has the same getters and
 * setters): capacity and coreSize are its maximum and core pool sizes (the connector's {@code maxThreads} and
 * {@code minSpareThreads}), changed through its own setters.
 */
final class TomcatThreadPoolAdapter extends DescribedAdapter {

    TomcatThreadPoolAdapter(ThreadPoolExecutor executor) {
        super(executor, new Setting(executor::getMaximumPoolSize, executor::setMaximumPoolSize),
                new Setting(executor::getCorePoolSize, executor::setCorePoolSize),
                LiveFigures.ofQueue(executor::getPoolSize, executor::getActiveCount, executor::getQueue,
                        executor::getCompletedTaskCount));
    }
}
