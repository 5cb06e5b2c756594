package io.github.poolkit.autoconfigure.actuate;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import io.github.poolkit.Permit;
import io.github.poolkit.PermitSemaphore;
import io.github.poolkit.WeightedSemaphore;

/**
 * A semaphore of scope {@code "cluster"}, backed by a real {@link WeightedSemaphore} standing in for the shared store,
 * whose store can be cut off: after {@link #disconnect()} every call that reads or changes the permits fails as a
 * cluster semaphore's does when its Redis is down. Its {@code stats()} is the interface's default.
 */
class FlakySemaphore implements PermitSemaphore {

    private final WeightedSemaphore store;
    private volatile boolean connected = true;

    FlakySemaphore(long size) {
        this.store = new WeightedSemaphore(size);
    }

    void disconnect() {
        connected = false;
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
