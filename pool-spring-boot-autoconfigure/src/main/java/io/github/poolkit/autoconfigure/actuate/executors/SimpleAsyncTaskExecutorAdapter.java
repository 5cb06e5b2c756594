package io.github.poolkit.autoconfigure.actuate.executors;

import org.springframework.core.task.SimpleAsyncTaskExecutor;

/**
 * Spring's {@link SimpleAsyncTaskExecutor}, a thread per task (Boot's {@code applicationTaskExecutor} with virtual
 * threads): capacity is its concurrency limit (-1 when unlimited), changed through {@code setConcurrencyLimit}, but
 * only from one limit to another: an unlimited one does not count the tasks it runs, so a limit given while they run
 * would be miscounted (Spring's own warning: the count then goes below zero as they end, and more tasks run at once
 * than the limit). It keeps no pool, no queue and no counts, so it tells nothing else. A raised limit admits new
 * callers at once, but callers already blocked at the old limit are woken by Spring one per task that ends.
 */
record SimpleAsyncTaskExecutorAdapter(SimpleAsyncTaskExecutor executor) implements ExecutorAdapter {

    @Override
    public String type() {
        return ExecutorAdapters.typeOf(executor);
    }

    @Override
    public Integer capacity() {
        int limit = executor.getConcurrencyLimit();
        return (limit < 0) ? -1 : limit;
    }

    /** {@return whether it was closed: it then takes no more tasks} */
    @Override
    public boolean isShutdown() {
        return !executor.isActive();
    }

    @Override
    public boolean canSetCapacity() {
        return executor.getConcurrencyLimit() >= 0;
    }

    @Override
    public String whyCapacityIsFixed(String type) {
        return "an unlimited " + type + " cannot be given a limit while it runs: it does not count the tasks it"
                + " runs, so they would be miscounted; set its limit when it is made"
                + " (spring.task.execution.simple.concurrency-limit for Boot's) and restart";
    }

    @Override
    public void setCapacity(int capacity) {
        executor.setConcurrencyLimit(capacity);
    }
}
