package io.github.poolkit;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** STUB: ants MultiPool. Implementation in progress (issue 2). */
public class MultiPool extends AbstractExecutorService implements AutoCloseable {
    public enum LoadBalancing { ROUND_ROBIN, LEAST_TASKS }
    public static MultiPool create(int pools, int capacityPerPool, LoadBalancing strategy) { return create(pools, capacityPerPool, strategy, PoolOptions.defaults()); }
    public static MultiPool create(int pools, int capacityPerPool, LoadBalancing strategy, PoolOptions options) { throw new UnsupportedOperationException("stub"); }
    @Override public void execute(Runnable task) { throw new UnsupportedOperationException("stub"); }
    public int capacity() { throw new UnsupportedOperationException("stub"); }
    public int running() { throw new UnsupportedOperationException("stub"); }
    public int free() { throw new UnsupportedOperationException("stub"); }
    public int waiting() { throw new UnsupportedOperationException("stub"); }
    public int running(int index) { throw new UnsupportedOperationException("stub"); }
    public int free(int index) { throw new UnsupportedOperationException("stub"); }
    public int waiting(int index) { throw new UnsupportedOperationException("stub"); }
    public void tune(int capacityPerPool) { throw new UnsupportedOperationException("stub"); }
    public boolean isClosed() { throw new UnsupportedOperationException("stub"); }
    public void release() { throw new UnsupportedOperationException("stub"); }
    public void releaseTimeout(Duration timeout) throws TimeoutException, InterruptedException { throw new UnsupportedOperationException("stub"); }
    public void reboot() { throw new UnsupportedOperationException("stub"); }
    @Override public void shutdown() { throw new UnsupportedOperationException("stub"); }
    @Override public List<Runnable> shutdownNow() { throw new UnsupportedOperationException("stub"); }
    @Override public boolean isShutdown() { throw new UnsupportedOperationException("stub"); }
    @Override public boolean isTerminated() { throw new UnsupportedOperationException("stub"); }
    @Override public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException { throw new UnsupportedOperationException("stub"); }
}
