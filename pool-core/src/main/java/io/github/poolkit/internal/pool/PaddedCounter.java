package io.github.poolkit.internal.pool;

import io.github.poolkit.internal.VarHandles;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * An atomic int on cache lines of its own: for a counter that threads CAS often, so that its writes do not invalidate
 * the lines of unrelated hot fields allocated next to it (the pool's lock among them), and theirs do not invalidate
 * it.
 *
 * <p>The value is stored in a {@code long} on purpose. The JVM lays out the longs (in declaration order), then the
 * references of a class, but first fills the 4-byte gap after the object header with any int or reference field:
 * an {@code int} value landed there, right after the header, so the padding sat on one side only and the value
 * shared a cache line with the end of the object allocated before it (a queued pool's {@code QueuedPath}, whose
 * fields every append and poll reads). A long cannot fill that gap, so it sits after the seven padding longs, with
 * the padding references after it: at least 56 bytes on each side, whatever the neighbours.
 */
@SuppressWarnings("unused")
final class PaddedCounter {

    private static final VarHandle VALUE = VarHandles.field(MethodHandles.lookup(), "value", long.class);

    private long p1, p2, p3, p4, p5, p6, p7;
    private volatile long value;
    private Object r1, r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12, r13, r14, r15, r16;

    /** {@return the value (volatile read)} */
    int get() {
        return (int) value;
    }

    /** {@return whether the value was {@code expected} and is now {@code updated}} */
    boolean compareAndSet(int expected, int updated) {
        return VALUE.compareAndSet(this, (long) expected, (long) updated);
    }

    /** Adds one. */
    void increment() {
        VALUE.getAndAdd(this, 1L);
    }

    /** Subtracts one. */
    void decrement() {
        VALUE.getAndAdd(this, -1L);
    }
}
