package io.github.poolkit.autoconfigure.actuate.executors;

import java.util.function.IntConsumer;

import org.apache.tomcat.util.threads.ThreadPoolExecutor;

/**
 * Tomcat's request thread pool, its own {@link ThreadPoolExecutor} (not the JDK's, though it has the same getters and
 * setters): capacity and coreSize are its maximum and core pool sizes (the connector's {@code maxThreads} and
 * {@code minSpareThreads}). A pool of Tomcat's own is changed through its own setters; the web server's request pool
 * through its connector's protocol handler, which sets the pool and keeps the values for the pool the connector makes
 * when it starts again (a stop and start of the server, around a context's stop and start).
 */
final class TomcatThreadPoolAdapter extends DescribedAdapter {

    TomcatThreadPoolAdapter(ThreadPoolExecutor executor) {
        this(executor, executor::setMaximumPoolSize, executor::setCorePoolSize);
    }

    /**
     * @param setMaxThreads       sets the maximum pool size (and where it is kept)
     * @param setMinSpareThreads  sets the core pool size (and where it is kept)
     */
    TomcatThreadPoolAdapter(ThreadPoolExecutor executor, IntConsumer setMaxThreads, IntConsumer setMinSpareThreads) {
        super(executor, new Setting(executor::getMaximumPoolSize, setMaxThreads),
                new Setting(executor::getCorePoolSize, setMinSpareThreads),
                LiveFigures.ofQueue(executor::getPoolSize, executor::getActiveCount, executor::getQueue,
                        executor::getCompletedTaskCount));
    }
}
