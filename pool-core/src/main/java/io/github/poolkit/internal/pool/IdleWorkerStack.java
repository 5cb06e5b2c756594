package io.github.poolkit.internal.pool;

import java.util.Arrays;

/**
 * A LIFO stack of idle workers in a growable array (ants' {@code workerStack}). The top is the most recently used
 * worker, so hot workers are reused first and cold ones sink to the bottom, where expiry removes them in one slice.
 *
 * <p>Invariant: {@code items[0..size)} are ordered by {@code lastUsedNanos}, oldest at index 0; slots at and above
 * {@code size} are null so that stopped workers can be collected.
 */
final class IdleWorkerStack implements IdleWorkers {

    private static final Worker[] NONE = new Worker[0];

    private Worker[] items = new Worker[16];
    private int size;

    @Override
    public int size() {
        return size;
    }

    @Override
    public void push(Worker worker) {
        if (size == items.length) {
            items = Arrays.copyOf(items, size * 2);
        }
        items[size++] = worker;
    }

    @Override
    public Worker pop() {
        if (size == 0) {
            return null;
        }
        Worker w = items[--size];
        items[size] = null;
        return w;
    }

    @Override
    public Worker[] removeExpired(long deadlineNanos) {
        int n = IdleWorkers.countExpired(size, deadlineNanos, i -> items[i]);
        if (n == 0) {
            return NONE;
        }
        Worker[] expired = Arrays.copyOf(items, n);
        System.arraycopy(items, n, items, 0, size - n);
        Arrays.fill(items, size - n, size, null);
        size -= n;
        return expired;
    }

    @Override
    public Worker[] removeAll() {
        Worker[] all = Arrays.copyOf(items, size);
        Arrays.fill(items, 0, size, null);
        size = 0;
        return all;
    }
}
