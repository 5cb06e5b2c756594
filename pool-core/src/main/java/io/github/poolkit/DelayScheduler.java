package io.github.poolkit;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.*;

/** STUB: delayed and repeating jobs on a bounded pool. Implementation in progress (issue 4). */
public class DelayScheduler extends AbstractExecutorService implements ScheduledExecutorService {
    public static DelayScheduler create(int workers) { return create(workers, PoolOptions.defaults()); }
    public static DelayScheduler create(int workers, PoolOptions options) { throw new UnsupportedOperationException("stub"); }
    public ScheduledFuture<?> scheduleOnce(Runnable job, Duration delay) { throw new UnsupportedOperationException("stub"); }
    public ScheduledFuture<?> scheduleRepeating(Runnable job, Duration period) { throw new UnsupportedOperationException("stub"); }
    public int pending() { throw new UnsupportedOperationException("stub"); }
    @Override public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) { throw new UnsupportedOperationException("stub"); }
    @Override public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) { throw new UnsupportedOperationException("stub"); }
    @Override public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) { throw new UnsupportedOperationException("stub"); }
    @Override public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) { throw new UnsupportedOperationException("stub"); }
    @Override public void execute(Runnable command) { throw new UnsupportedOperationException("stub"); }
    @Override public void shutdown() { throw new UnsupportedOperationException("stub"); }
    @Override public List<Runnable> shutdownNow() { throw new UnsupportedOperationException("stub"); }
    @Override public boolean isShutdown() { throw new UnsupportedOperationException("stub"); }
    @Override public boolean isTerminated() { throw new UnsupportedOperationException("stub"); }
    @Override public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException { throw new UnsupportedOperationException("stub"); }
}
