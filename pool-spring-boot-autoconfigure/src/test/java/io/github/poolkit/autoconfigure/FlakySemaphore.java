package io.github.poolkit.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;

import io.github.poolkit.Permit;
import io.github.poolkit.PermitSemaphore;
import io.github.poolkit.WeightedSemaphore;

/**
 * A semaphore of scope {@code "cluster"}, backed by a real {@link WeightedSemaphore} standing in for the shared store,
 * whose store can be cut off: after {@link #disconnect()} every call that reads or changes the permits fails as a
 * cluster semaphore's does when its Redis is down. Its {@code stats()} is the interface's default.
 */
public class FlakySemaphore implements PermitSemaphore {

    private final WeightedSemaphore store;
    private volatile boolean connected = true;

    /** The threads that gave permits back (or tried to), in order. */
    public final List<String> releasesOn = new CopyOnWriteArrayList<>();

    /** When set, a release waits for it first, as for a slow round trip to the store. */
    public volatile CountDownLatch slowRelease;

    /** @param size the store's size */
    public FlakySemaphore(long size) {
        this.store = new WeightedSemaphore(size);
    }

    /** From now on every call that reads or changes the permits fails, as with a store that is down. */
    public void disconnect() {
        connected = false;
    }

    /** The store answers again. */
    public void reconnect() {
        connected = true;
    }

    private WeightedSemaphore store() {
        if (!connected) {
            throw new IllegalStateException("store unreachable: connection refused");
        }
        return store;
    }

    @Override
    public void acquire(long n) throws InterruptedException {
        store().acquire(n);
    }

    @Override
    public Permit acquirePermit(long n) throws InterruptedException {
        return store().acquirePermit(n);
    }

    @Override
    public CompletableFuture<Permit> acquireAsync(long n) {
        return store().acquireAsync(n);
    }

    @Override
    public boolean tryAcquire(long n) {
        return store().tryAcquire(n);
    }

    @Override
    public boolean tryAcquire(long n, Duration timeout) throws InterruptedException {
        return store().tryAcquire(n, timeout);
    }

    @Override
    public void release(long n) {
        CountDownLatch slow = slowRelease;
        if (slow != null) {
            try {
                slow.await();
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }
        releasesOn.add(Thread.currentThread().getName());
        store().release(n);
    }

    @Override
    public void resize(long size) {
        store().resize(size);
    }

    @Override
    public long size() {
        return store().size();
    }

    @Override
    public long used() {
        return store().used();
    }

    @Override
    public long available() {
        return store().available();
    }

    @Override
    public int waiting() {
        return store().waiting();
    }

    @Override
    public String scope() {
        return "cluster";
    }
}
