package io.github.poolkit.internal.semaphore;

/**
 * The FIFO line of requests waiting in a {@code WeightedSemaphore}: an intrusive doubly linked list of
 * {@link SemaphoreWaiter}s, so that appending, removing the head and withdrawing any waiter are all O(1) and
 * allocate nothing. Internal; not part of poolkit's API.
 *
 * <p>Not thread-safe: every method but {@link #size()} must be called with the owning semaphore's lock held.
 */
final class SemaphoreWaitQueue {

    /*
     * Implementation overview.
     * Invariants (under the owner's lock): head == null <=> tail == null <=> size == 0; head.prev == null and
     * tail.next == null; following 'next' from head visits exactly 'size' waiters, all of them WAITING, and ends at
     * tail. A waiter is in at most one queue.
     * 'size' is volatile and written only under the lock, so that size() can serve monitoring without the lock;
     * a stale value there is a harmless snapshot.
     */

    private SemaphoreWaiter head;
    private SemaphoreWaiter tail;
    private volatile int size;

    /** Creates an empty queue. */
    public SemaphoreWaitQueue() {
    }

    /**
     * Returns whether nobody waits.
     *
     * @return {@code true} if the queue is empty
     */
    public boolean isEmpty() {
        return head == null;
    }

    /**
     * Returns the number of waiters. The only method that may be called without the lock (a snapshot then).
     *
     * @return how many requests are queued
     */
    public int size() {
        return size;
    }

    /**
     * Appends a waiter at the tail.
     *
     * @param waiter a waiting request that is in no queue
     */
    public void add(SemaphoreWaiter waiter) {
        waiter.prev = tail;
        waiter.next = null;
        if (tail == null) {
            head = waiter;
        } else {
            tail.next = waiter;
        }
        tail = waiter;
        size++;
    }

    /**
     * Removes a waiter from wherever it stands in the line.
     *
     * @param waiter a waiter currently in this queue
     * @return {@code true} if it was at the head (so the waiters behind it may now fit)
     */
    public boolean remove(SemaphoreWaiter waiter) {
        boolean wasHead = waiter == head;
        SemaphoreWaiter before = waiter.prev;
        SemaphoreWaiter after = waiter.next;
        if (before == null) {
            head = after;
        } else {
            before.next = after;
        }
        if (after == null) {
            tail = before;
        } else {
            after.prev = before;
        }
        waiter.prev = null;
        waiter.next = null;
        size--;
        return wasHead;
    }

    /**
     * Removes the longest run of waiters from the head whose requests fit, one after the other, into {@code free}
     * permits, and stops at the first that does not fit (strict FIFO: nobody overtakes it).
     *
     * @param free the permits available, {@code >= 0}
     * @return the first waiter removed, its followers linked by {@link SemaphoreWaiter#nextInBatch()}, or
     *     {@code null} if the head does not fit (or the queue is empty)
     */
    public SemaphoreWaiter takeFitting(long free) {
        SemaphoreWaiter first = head;
        SemaphoreWaiter last = null;
        SemaphoreWaiter w = head;
        int taken = 0;
        while (w != null && w.permits() <= free) {
            free -= w.permits();
            last = w;
            w = w.next;
            taken++;
        }
        if (last == null) {
            return null;
        }
        // Cut the batch [first .. last] off the queue; its 'next' links now chain the batch only.
        last.next = null;
        head = w;
        if (w == null) {
            tail = null;
        } else {
            w.prev = null;
        }
        size -= taken;
        return first;
    }

    /**
     * Removes every waiter whose request is larger than {@code limit} (after a shrink, such a request could never be
     * granted), keeping the others in their order.
     *
     * @param limit the largest request that may stay, {@code >= 0}
     * @return the first waiter removed, the others linked by {@link SemaphoreWaiter#nextInBatch()} in line order, or
     *     {@code null} if every request fits
     */
    public SemaphoreWaiter takeLargerThan(long limit) {
        SemaphoreWaiter first = null;
        SemaphoreWaiter last = null;
        for (SemaphoreWaiter w = head; w != null; ) {
            SemaphoreWaiter after = w.next;
            if (w.permits() > limit) {
                remove(w); // clears w's links; they now chain the batch instead
                if (last == null) {
                    first = w;
                } else {
                    last.next = w;
                }
                last = w;
            }
            w = after;
        }
        return first;
    }
}
