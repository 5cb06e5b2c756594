package io.github.poolkit.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * An atomic long on cache lines of its own: for a word that threads CAS often (a pool's count of workers, a
 * semaphore's permits in use), so that its writes do not invalidate the lines of unrelated hot fields allocated next
 * to it (a pool's lock, the fields every caller reads), and theirs do not invalidate it. Without the padding, a
 * thread that only reads a neighbouring field misses its cache on every write by another processor: a cost that
 * grows with the processors, and that two processors hardly show.
 *
 * <p>Layout. The JVM lays out the longs of a class (in declaration order), then its references, but first fills the
 * 4-byte gap after the object header with any int or reference field: an {@code int} value would land there, right
 * after the header, with the padding on one side only, sharing a cache line with the end of the object allocated
 * before it (measured so, when the value was an int). A long cannot fill that gap, so the value sits after the seven
 * padding longs, with the padding references after it: at least 56 bytes on each side, whatever the neighbours.
 */
@SuppressWarnings("unused")
public final class PaddedLong {

    private static final VarHandle VALUE = VarHandles.field(MethodHandles.lookup(), "value", long.class);

    private long p1, p2, p3, p4, p5, p6, p7;
    private volatile long value;
    private Object r1, r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12, r13, r14, r15, r16;

    /** {@return the value (volatile read)} */
    public long get() {
        return value;
    }

    /**
     * Sets the value (volatile write).
     *
     * @param next the new value
     */
    public void set(long next) {
        value = next;
    }

    /**
     * Sets the value to {@code updated} if it is {@code expected}, atomically.
     *
     * @param expected the value expected
     * @param updated  the new value
     * @return whether the value was {@code expected} and is now {@code updated}
     */
    public boolean compareAndSet(long expected, long updated) {
        return VALUE.compareAndSet(this, expected, updated);
    }

    /** Adds one, atomically. */
    public void increment() {
        VALUE.getAndAdd(this, 1L);
    }

    /** Subtracts one, atomically. */
    public void decrement() {
        VALUE.getAndAdd(this, -1L);
    }

    /**
     * Adds one and returns the value before, atomically.
     *
     * @return the value before the increment
     */
    public long getAndIncrement() {
        return (long) VALUE.getAndAdd(this, 1L);
    }
}
