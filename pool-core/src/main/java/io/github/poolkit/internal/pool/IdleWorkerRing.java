package io.github.poolkit.internal.pool;

/**
 * Idle workers in a ring allocated once for the pool's capacity (ants' {@code loopQueue}, used with {@code preAlloc}).
 * Unlike ants' ring, which hands out its oldest worker, this one is used as a deque: workers are put back and taken at
 * the tail (LIFO, so hot workers are reused first, as with the stack) and expire from the head.
 *
 * <p>Invariant: the {@code size} workers from {@code head} (modulo the length) are ordered by {@code lastUsedNanos},
 * oldest at the head; every other slot is null. {@code size <= items.length} holds because a pre-allocated pool never
 * changes its capacity and never has more idle workers than running ones.
 */
final class IdleWorkerRing implements IdleWorkers {

    private static final Worker[] NONE = new Worker[0];

    private final Worker[] items;
    private int head;
    private int size;

    IdleWorkerRing(int capacity) {
        this.items = new Worker[capacity];
    }

    private int slot(int i) {
        int s = head + i;
        return s >= items.length ? s - items.length : s;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public void push(Worker worker) {
        if (size == items.length) {
            throw new IllegalStateException("idle-worker ring overflow: more idle workers than the capacity");
        }
        items[slot(size++)] = worker;
    }

    @Override
    public Worker pop() {
        if (size == 0) {
            return null;
        }
        int s = slot(--size);
        Worker w = items[s];
        items[s] = null;
        return w;
    }

    @Override
    public Worker[] removeExpired(long deadlineNanos) {
        int n = IdleWorkers.countExpired(size, deadlineNanos, i -> items[slot(i)]);
        return n == 0 ? NONE : removeFromHead(n);
    }

    @Override
    public Worker[] removeAll() {
        return removeFromHead(size);
    }

    private Worker[] removeFromHead(int n) {
        Worker[] removed = new Worker[n];
        for (int i = 0; i < n; i++) {
            int s = slot(i);
            removed[i] = items[s];
            items[s] = null;
        }
        head = slot(n);
        size -= n;
        return removed;
    }
}
