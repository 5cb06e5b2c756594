package io.github.poolkit;

import java.time.Duration;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/** STUB: ants PoolWithFunc. Implementation in progress (issue 2). */
public class FuncPool<T> implements AutoCloseable {
    public static <T> FuncPool<T> create(int capacity, Consumer<? super T> function) { return create(capacity, function, PoolOptions.defaults()); }
    public static <T> FuncPool<T> create(int capacity, Consumer<? super T> function, PoolOptions options) { throw new UnsupportedOperationException("stub"); }
    public void invoke(T argument) { throw new UnsupportedOperationException("stub"); }
    public int capacity() { throw new UnsupportedOperationException("stub"); }
    public int running() { throw new UnsupportedOperationException("stub"); }
    public int free() { throw new UnsupportedOperationException("stub"); }
    public int waiting() { throw new UnsupportedOperationException("stub"); }
    public void tune(int capacity) { throw new UnsupportedOperationException("stub"); }
    public boolean isClosed() { throw new UnsupportedOperationException("stub"); }
    public void release() { throw new UnsupportedOperationException("stub"); }
    public void releaseTimeout(Duration timeout) throws TimeoutException, InterruptedException { throw new UnsupportedOperationException("stub"); }
    public void reboot() { throw new UnsupportedOperationException("stub"); }
    @Override public void close() { throw new UnsupportedOperationException("stub"); }
}
