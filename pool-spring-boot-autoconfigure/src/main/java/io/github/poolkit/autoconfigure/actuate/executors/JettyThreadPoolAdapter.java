package io.github.poolkit.autoconfigure.actuate.executors;

import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * Jetty's {@link QueuedThreadPool}: capacity and coreSize are its max and min threads, changed through its own
 * setters. It counts no completed tasks and does not tell the room left in its queue, so those figures are absent.
 */
final class JettyThreadPoolAdapter extends DescribedAdapter {

    private final QueuedThreadPool pool;

    JettyThreadPoolAdapter(QueuedThreadPool pool) {
        super(pool, new Setting(pool::getMaxThreads, pool::setMaxThreads),
                new Setting(pool::getMinThreads, pool::setMinThreads),
                new LiveFigures(pool::getThreads, pool::getBusyThreads, pool::getQueueSize, null, null));
        this.pool = pool;
    }

    /** {@return whether the pool is stopping or stopped: it is no {@code ExecutorService}, so Jetty's own state} */
    @Override
    public boolean isShutdown() {
        return pool.isStopping() || pool.isStopped();
    }
}
