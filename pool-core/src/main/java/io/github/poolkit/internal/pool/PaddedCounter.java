package io.github.poolkit.internal.pool;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * An atomic int on cache lines of its own: for a counter that threads CAS often, so that its writes do not invalidate
 * the lines of unrelated hot fields allocated next to it (the pool's lock among them), and theirs do not invalidate
 * it. The JVM lays out the longs, then the int, then the references of a class, so the padding sits on both sides.
 */
@SuppressWarnings("unused")
final class PaddedCounter {

    private static final VarHandle VALUE;

    static {
        try {
            VALUE = MethodHandles.lookup().findVarHandle(PaddedCounter.class, "value", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private long p1, p2, p3, p4, p5, p6, p7;
    private volatile int value;
    private Object r1, r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12, r13, r14, r15, r16;

    /** @return the value (volatile read) */
    int get() {
        return value;
    }

    /** @return whether the value was {@code expected} and is now {@code updated} */
    boolean compareAndSet(int expected, int updated) {
        return VALUE.compareAndSet(this, expected, updated);
    }

    /** Adds one. */
    void increment() {
        VALUE.getAndAdd(this, 1);
    }

    /** Subtracts one. */
    void decrement() {
        VALUE.getAndAdd(this, -1);
    }
}
