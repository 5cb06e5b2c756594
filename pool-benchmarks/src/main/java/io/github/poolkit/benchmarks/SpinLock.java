package io.github.poolkit.benchmarks;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The lock ants guards its pool with ({@code internal/sync/spinlock.go}), in Java, for {@link IdleStackLock}: a
 * compare-and-set on one word, and on failure a growing number of {@link Thread#yield()}s (Go's
 * {@code runtime.Gosched()}), doubling up to {@value #MAX_BACKOFF}, before the next try. Not reentrant, not fair,
 * no conditions: enough for a pool's O(1) critical sections, nothing more.
 *
 * <p>Implementation overview: the lock is its one word, as ants' {@code type spinLock uint32} is: it extends
 * {@link AtomicInteger} (whose value sits in the object itself, no field points elsewhere), 0 when free and 1 when
 * held; nothing but {@link #lock} and {@link #unlock} may touch the value. {@link #lock} moves it 0 to 1 with a
 * volatile CAS (acquire semantics), {@link #unlock} back to 0 with a release store, so the critical sections are
 * totally ordered and each happens-before the next. A waiter only reads and CASes the word; it never parks, so an
 * owner descheduled in its critical section makes every waiter burn its time slice yielding.
 */
final class SpinLock extends AtomicInteger implements IdleStackLock.BareLock {

    private static final int MAX_BACKOFF = 16;

    /** Takes the lock, yielding with exponential backoff while another thread holds it. */
    @Override
    public void lock() {
        int backoff = 1;
        while (!compareAndSet(0, 1)) {
            for (int i = 0; i < backoff; i++) {
                Thread.yield();
            }
            if (backoff < MAX_BACKOFF) {
                backoff <<= 1;
            }
        }
    }

    /** Releases the lock; only its holder may call this. */
    @Override
    public void unlock() {
        setRelease(0);
    }
}
