package io.github.poolkit.autoconfigure.actuate.executors;

import java.util.concurrent.ForkJoinPool;

/**
 * A {@link ForkJoinPool}: capacity is its parallelism (the threads it aims to keep running), changed through
 * {@code setParallelism}, except for the common pool: its parallelism serves every parallel stream and
 * {@code CompletableFuture.*Async} call of the JVM (and the JDK lets it be changed unless a system property fixed it),
 * so it is read only. It counts no completed tasks and has no bounded queue, so those figures are absent;
 * {@code queued} adds the submissions not yet taken and the tasks in its workers' queues.
 */
final class ForkJoinPoolAdapter extends DescribedAdapter {

    private final boolean common;

    ForkJoinPoolAdapter(ForkJoinPool pool) {
        super(pool, new Setting(pool::getParallelism, pool::setParallelism), null,
                new LiveFigures(pool::getPoolSize, pool::getActiveThreadCount, () -> queued(pool), null, null));
        this.common = pool == ForkJoinPool.commonPool();
    }

    @Override
    public boolean canSetCapacity() {
        return !common;
    }

    /** {@return for the common pool, what it serves and where its parallelism is set instead} */
    @Override
    public String whyCapacityIsFixed(String type) {
        return common ? "this is the JVM's common ForkJoinPool, which every parallel stream and CompletableFuture's"
                + " async stages share; set its parallelism when the JVM starts, with"
                + " -Djava.util.concurrent.ForkJoinPool.common.parallelism" : super.whyCapacityIsFixed(type);
    }

    private static int queued(ForkJoinPool pool) {
        return (int) Math.min(Integer.MAX_VALUE, pool.getQueuedSubmissionCount() + pool.getQueuedTaskCount());
    }
}
