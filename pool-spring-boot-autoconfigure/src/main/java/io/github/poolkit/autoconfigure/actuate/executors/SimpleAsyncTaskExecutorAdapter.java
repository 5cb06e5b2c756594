package io.github.poolkit.autoconfigure.actuate.executors;

import org.springframework.core.task.SimpleAsyncTaskExecutor;

/**
 * Spring's {@link SimpleAsyncTaskExecutor}, a thread per task (Boot's {@code applicationTaskExecutor} with virtual
 * threads): capacity is its concurrency limit (-1 when unlimited), changed through {@code setConcurrencyLimit}. It
 * keeps no pool, no queue and no counts, so it tells nothing else.
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

    @Override
    public boolean canSetCapacity() {
        return true;
    }

    @Override
    public void setCapacity(int capacity) {
        executor.setConcurrencyLimit(capacity);
    }
}
