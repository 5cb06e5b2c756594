package io.github.poolkit;

import java.time.Duration;

/** STUB: golang.org/x/sync/semaphore for Java. Implementation in progress (issue 3). */
public class WeightedSemaphore {
    public WeightedSemaphore(long size) { throw new UnsupportedOperationException("stub"); }
    public void acquire(long n) throws InterruptedException { throw new UnsupportedOperationException("stub"); }
    public boolean tryAcquire(long n) { throw new UnsupportedOperationException("stub"); }
    public boolean tryAcquire(long n, Duration timeout) throws InterruptedException { throw new UnsupportedOperationException("stub"); }
    public void release(long n) { throw new UnsupportedOperationException("stub"); }
    public long size() { throw new UnsupportedOperationException("stub"); }
    public long used() { throw new UnsupportedOperationException("stub"); }
    public long available() { throw new UnsupportedOperationException("stub"); }
    public int waiting() { throw new UnsupportedOperationException("stub"); }
}
