package io.github.poolkit;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** STUB: the ants-style goroutine pool. Implementation in progress (issue 2). */
public class WorkerPool extends AbstractExecutorService implements AutoCloseable {
    public static WorkerPool create(int capacity) { return create(capacity, PoolOptions.defaults()); }
    public static WorkerPool create(int capacity, PoolOptions options) { throw new UnsupportedOperationException("stub"); }
    @Override public void execute(Runnable task) { throw new UnsupportedOperationException("stub"); }
    public int capacity() { throw new UnsupportedOperationException("stub"); }
    public int running() { throw new UnsupportedOperationException("stub"); }
    public int free() { throw new UnsupportedOperationException("stub"); }
    public int waiting() { throw new UnsupportedOperationException("stub"); }
    public void tune(int capacity) { throw new UnsupportedOperationException("stub"); }
    public boolean isClosed() { throw new UnsupportedOperationException("stub"); }
    public void release() { throw new UnsupportedOperationException("stub"); }
    public void releaseTimeout(Duration timeout) throws TimeoutException, InterruptedException { throw new UnsupportedOperationException("stub"); }
    public void reboot() { throw new UnsupportedOperationException("stub"); }
    public String name() { throw new UnsupportedOperationException("stub"); }
    @Override public void shutdown() { throw new UnsupportedOperationException("stub"); }
    @Override public List<Runnable> shutdownNow() { throw new UnsupportedOperationException("stub"); }
    @Override public boolean isShutdown() { throw new UnsupportedOperationException("stub"); }
    @Override public boolean isTerminated() { throw new UnsupportedOperationException("stub"); }
    @Override public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException { throw new UnsupportedOperationException("stub"); }
}
