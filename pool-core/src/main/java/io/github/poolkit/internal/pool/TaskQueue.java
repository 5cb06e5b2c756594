package io.github.poolkit.internal.pool;

import io.github.poolkit.internal.Spin;
import io.github.poolkit.internal.VarHandles;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The FIFO task queue of a queued pool: multi-producer and multi-consumer without a lock, optionally bounded, and able
 * to take a task back out ({@link #withdraw}) for an appender that finds the pool closed under it.
 *
 * <h2>Implementation overview</h2>
 *
 * <p>Every task gets an index: {@code tail} is the next index to fill and {@code head} the next to take, both only
 * ever growing, each in an {@link End} padded onto cache lines of its own. Indices map to slots of fixed-size array
 * segments linked in index order; the appender of an index makes and links its segment if nobody has yet, and a
 * segment is dropped (left to the collector) once both ends have moved past it, so no slot is ever reused and there
 * is no ABA. One cache-line transfer carries several tasks, and an append allocates nothing but one segment per
 * {@value #SEGMENT} tasks, where a linked queue allocates a node per task.
 *
 * <ul>
 *   <li><b>Append</b>, unbounded: take t with one atomic increment of {@code tail} (it never fails, so appenders on
 *       different cores never retry against each other), walk to t's segment from the tail's segment as read
 *       before the increment (whose base is at most t), making and linking segments on the way if missing, then
 *       store the task in slot t.</li>
 *   <li><b>Append</b>, bounded: read {@code tail} = t, make sure the segment for t exists, check the bound
 *       ({@code t - head < capacity}; {@code head} only grows, so a stale read can only under-fill), then CAS
 *       {@code tail} from t to t + 1; the index is then the appender's alone, and it stores the task in its slot.</li>
 *   <li>Either way the move of {@code tail} is the append's linearization point: a consumer that sees
 *       {@code tail > t} and an empty slot t, or t's segment not linked yet, waits the few instructions until the
 *       appender gets there (spinning, then yielding, should the appender be descheduled there; as in other array
 *       queues, this window is the one place a consumer depends on another thread's progress).</li>
 *   <li><b>Take</b>: read {@code head} = h and slot h. An empty slot below {@code tail} is being filled (wait); an
 *       empty slot at {@code tail} means the queue is empty. A task is claimed by CAS of {@code head} from h to h + 1,
 *       then the slot is CAS'ed from the task to {@link #TAKEN}. A slot already {@code TAKEN} or {@link #WITHDRAWN} is
 *       skipped by moving {@code head} on.</li>
 *   <li><b>Withdraw</b>: CAS the slot from the task to {@code WITHDRAWN}. Of a withdraw and a take of the same slot
 *       exactly one CAS succeeds, so a task is either taken (and runs) or withdrawn (and is rejected), never both and
 *       never neither.</li>
 * </ul>
 *
 * <p>Accept times (a pool with a {@code queueTimeout}, see {@link OverdueWatch}): each segment then has a parallel
 * array of accept stamps ({@link CoarseClock}, in {@link System#nanoTime()} terms), written with a plain store before
 * the task's release store, so a reader that sees the task sees its stamp; {@link #scanOverdue} walks from the head,
 * in FIFO order, to the first task that is not overdue. Without a timeout there are no stamps and an append reads no
 * clock.
 *
 * <p>Memory: {@code head} and {@code tail} are read, CAS'ed and incremented with volatile (sequentially consistent)
 * accesses, which the pool's wake-up protocol relies on ({@link PoolCore}, invariant 2): an appender's move of
 * {@code tail} and a consumer's later read of {@code tail} are ordered with the pool's own volatile counters. Slots are
 * written with release and read with acquire semantics, so whatever the appender did before {@code offer}
 * happens-before the taker uses the task.
 */
final class TaskQueue {

    /** Slots per segment; a power of two. */
    static final int SEGMENT = 1024;

    /** Left in a slot whose task was taken; holds no reference to the task. */
    private static final Object TAKEN = new Object();
    /** Left in a slot whose task was taken back by its appender. */
    private static final Object WITHDRAWN = new Object();

    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(Object[].class);

    /** An accept time meaning "read the clock now" ({@link #offer(Object, long)}). */
    static final long NOW = Long.MAX_VALUE;
    /** An accept time meaning "not watched": the task was already reported while its caller was blocked. */
    static final long UNWATCHED = Long.MIN_VALUE;

    /** Whether each task's accept time is kept. */
    private final boolean stamped;

    /** The most tasks held at once; {@code Long.MAX_VALUE} when unbounded. */
    private final long capacity;
    /** Whether there is a bound: an unbounded append need not read {@code head}, the consumers' hot cache line. */
    private final boolean bounded;

    /** {@code head} and its segment: written by consumers. */
    private final End head;
    /** {@code tail} and its segment: written by appenders. */
    private final End tail;

    /**
     * Makes an empty queue that keeps no accept times.
     *
     * @param capacity the most tasks held at once, or {@code < 0} for no bound
     */
    TaskQueue(int capacity) {
        this(capacity, false);
    }

    /**
     * Makes an empty queue.
     *
     * @param capacity the most tasks held at once, or {@code < 0} for no bound
     * @param stamped  whether to keep each task's accept time
     */
    TaskQueue(int capacity, boolean stamped) {
        this.bounded = capacity >= 0;
        this.capacity = bounded ? capacity : Long.MAX_VALUE;
        this.stamped = stamped;
        Segment first = new Segment(0, stamped);
        head = new End(first);
        tail = new End(first);
    }

    /**
     * Appends a task unless the queue is full.
     *
     * @param task the task, not null
     * @return the task's index, for {@link #withdraw}, or -1 when the queue is full
     */
    long offer(Object task) {
        return bounded ? offerBounded(task, NOW) : offerUnbounded(task, NOW); // no extra frame on the hot path
    }

    /**
     * Appends a task unless the queue is full, with the time it was accepted (kept only in a stamped queue).
     *
     * @param task       the task, not null
     * @param acceptedAt its accept time ({@link System#nanoTime()}), {@link #NOW} or {@link #UNWATCHED}
     * @return the task's index, for {@link #withdraw}, or -1 when the queue is full
     */
    long offer(Object task, long acceptedAt) {
        return bounded ? offerBounded(task, acceptedAt) : offerUnbounded(task, acceptedAt);
    }

    /** Stores a task in its slot, with its accept time first in a stamped queue. */
    private void store(Segment s, int i, Object task, long acceptedAt) {
        if (stamped) {
            s.stamps[i] = acceptedAt == NOW ? CoarseClock.now() : acceptedAt;
        }
        SLOT.setRelease(s.slots, i, task);
    }

    /**
     * Invariant: in an unbounded queue the tail's segment only ever moves to the segment of an index already taken
     * ({@link End#reach}), so the segment read before the increment starts at or before the index it returns.
     */
    private long offerUnbounded(Object task, long acceptedAt) {
        Segment s = tail.segment;
        long t = tail.take();
        s = tail.reach(s, t);
        store(s, (int) (t - s.base), task, acceptedAt);
        return t;
    }

    private long offerBounded(Object task, long acceptedAt) {
        for (;;) {
            long t = tail.index;
            Segment s = tail.segmentFor(t, true);
            if (s == null) {
                continue; // tail moved on meanwhile
            }
            if (t - head.index >= capacity) {
                return -1;
            }
            if (tail.advance(t)) {
                store(s, (int) (t - s.base), task, acceptedAt);
                return t;
            }
        }
    }

    /**
     * Takes the task at the head.
     *
     * @return the task, or null when the queue is empty
     */
    Object poll() {
        int waits = 0;
        for (;;) {
            long h = head.index;
            Segment s = head.segmentFor(h, false);
            if (s == null) {
                if (h >= tail.index) {
                    return null;
                }
                waits = Spin.awaitStore(waits); // head moved on, or index h is taken and its segment being linked
                continue;
            }
            int i = (int) (h - s.base);
            Object v = SLOT.getAcquire(s.slots, i);
            if (v == null) {
                if (h >= tail.index) {
                    return null;
                }
                waits = Spin.awaitStore(waits); // index h is handed out; its task is being stored
                continue;
            }
            if (!head.advance(h)) {
                continue;
            }
            if (v != TAKEN && v != WITHDRAWN && SLOT.compareAndSet(s.slots, i, v, TAKEN)) {
                return v;
            }
            // skipped: the slot was already taken or withdrawn, or was withdrawn just now
        }
    }

    /**
     * Takes a task back out, unless a consumer has taken it already. Called by the thread that appended it, after
     * {@link #offer} returned, so the task is in its slot.
     *
     * @param index the index {@link #offer} returned for it
     * @param task  the task
     * @return whether it was withdrawn: it will not be taken by anyone
     */
    boolean withdraw(long index, Object task) {
        Segment s = head.segment;
        if (index < s.base) {
            return false; // consumers are past its whole segment: taken
        }
        while (index >= s.base + SEGMENT) {
            s = s.next; // linked: the index was handed out
        }
        int i = (int) (index - s.base);
        if (!SLOT.compareAndSet(s.slots, i, task, WITHDRAWN)) {
            return false;
        }
        skipWithdrawnHead(); // so that size() drops at once, even in a pool where no worker polls any more
        return true;
    }

    /** Moves the head past withdrawn slots (a slot before the head is never withdrawn, so none is left behind it). */
    private void skipWithdrawnHead() {
        for (;;) {
            long h = head.index;
            Segment s = head.segmentFor(h, false);
            // Volatile, not acquire: two appenders withdrawing neighbouring slots each CAS their own slot, then read
            // the other's; only volatile reads make one of them see the other, so no withdrawn slot stays at the head
            // (a closed pool with no worker left terminates only with its queue empty).
            if (s == null || SLOT.getVolatile(s.slots, (int) (h - s.base)) != WITHDRAWN) {
                return;
            }
            head.advance(h); // or another thread moved it on: look again either way
        }
    }

    /** Told of each overdue task found by {@link #scanOverdue}. */
    interface OverdueSink {
        /** {@code task} (as carried) has waited {@code waitedNanos}. */
        void overdue(Object task, long waitedNanos);
    }

    /**
     * For the overdue checker of a stamped queue: walks from index {@code from} (or the head, if later) in FIFO
     * order, telling {@code sink} of each waiting task accepted at least {@code timeoutNanos} before {@code now}, and
     * stops at the first that is younger, or at a slot still being filled. Tasks taken meanwhile or withdrawn are
     * skipped. The cost is one step per task reported plus one.
     *
     * @return the index to start from next time: every task before it has been reported or has left the queue
     */
    long scanOverdue(long from, long now, long timeoutNanos, OverdueSink sink) {
        Segment s = head.segment;
        long i = Math.max(Math.max(from, head.index), s.base);
        while (i < tail.index) {
            while (i >= s.base + SEGMENT) {
                s = s.next;
                if (s == null) {
                    return i; // not linked yet
                }
            }
            int slot = (int) (i - s.base);
            Object v = SLOT.getAcquire(s.slots, slot);
            if (v == null) {
                return i; // being stored
            }
            if (v != TAKEN && v != WITHDRAWN) {
                long acceptedAt = s.stamps[slot];
                if (acceptedAt != UNWATCHED) {
                    if (now - acceptedAt < timeoutNanos) {
                        return i;
                    }
                    sink.overdue(v, now - acceptedAt);
                }
            }
            i++;
        }
        return i;
    }

    /** {@return whether no index is handed out beyond the head (a withdrawn or just-taken slot may still count)} */
    boolean isEmpty() {
        return head.index >= tail.index;
    }

    /** {@return how many tasks are queued (a racy snapshot; withdrawn tasks not yet skipped still count)} */
    int size() {
        long h = head.index;
        long n = tail.index - h;
        return n <= 0 ? 0 : (int) Math.min(n, Integer.MAX_VALUE);
    }

    /** {@return whether an {@link #offer} now would find room (a racy snapshot)} */
    boolean hasRoom() {
        return tail.index - head.index < capacity;
    }

    /**
     * One end of the queue: an index and the segment holding it (or an earlier one), written by one side only. The
     * padding on either side keeps each end on cache lines of its own, so appenders and consumers do not invalidate
     * each other's index on every task (the JVM lays out the longs, then the references, of a class).
     */
    @SuppressWarnings("unused")
    private static final class End {

        static final VarHandle INDEX = VarHandles.field(MethodHandles.lookup(), "index", long.class);
        static final VarHandle SEGMENT_REF = VarHandles.field(MethodHandles.lookup(), "segment", Segment.class);

        private long p1, p2, p3, p4, p5, p6, p7;
        volatile long index;
        volatile Segment segment;
        private Object r1, r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12, r13, r14, r15, r16;

        End(Segment first) {
            segment = first;
        }

        /**
         * The segment holding index {@code i}, moving this end's segment on to it.
         *
         * @param i      an index at or after this end's segment
         * @param extend whether to make and link missing segments (appenders do; consumers never need to, as an index
         *               below {@code tail} is always linked)
         * @return the segment, or null if {@code i} is stale (before this end's segment) or, without
         *         {@code extend}, not linked yet
         */
        Segment segmentFor(long i, boolean extend) {
            Segment s = segment;
            while (i >= s.base + SEGMENT) {
                Segment next = s.next;
                if (next == null) {
                    if (!extend) {
                        return null;
                    }
                    next = s.extend();
                }
                moveTo(s, next);
                s = next;
            }
            return i < s.base ? null : s;
        }

        /** {@return the index taken: the index before this atomic increment} */
        long take() {
            return (long) INDEX.getAndAdd(this, 1L);
        }

        /**
         * The segment holding index {@code i}, walked to from {@code s}, making and linking missing segments; moves
         * this end's segment on to it unless another thread has moved it that far or further.
         *
         * @param s a segment with {@code s.base <= i}
         * @param i an index taken by the caller
         * @return the segment holding {@code i}
         */
        Segment reach(Segment s, long i) {
            while (i >= s.base + SEGMENT) {
                Segment next = s.next;
                s = next != null ? next : s.extend();
            }
            Segment current = segment;
            if (current.base < s.base) {
                moveTo(current, s); // a failed CAS means another appender moved it on
            }
            return s;
        }

        /** Moves the index from {@code from} to {@code from + 1}; false if it was not at {@code from}. */
        boolean advance(long from) {
            return INDEX.compareAndSet(this, from, from + 1);
        }

        /** Moves the segment on from {@code from} to {@code to}, unless another thread did. */
        private void moveTo(Segment from, Segment to) {
            SEGMENT_REF.compareAndSet(this, from, to);
        }
    }

    /** A run of {@value #SEGMENT} slots, for indices {@code base} to {@code base + SEGMENT - 1}. */
    private static final class Segment {

        static final VarHandle NEXT = VarHandles.field(MethodHandles.lookup(), "next", Segment.class);

        final long base;
        final Object[] slots = new Object[SEGMENT];
        /** Each slot's accept time, or null in a queue that keeps none. */
        final long[] stamps;
        volatile Segment next;

        Segment(long base, boolean stamped) {
            this.base = base;
            this.stamps = stamped ? new long[SEGMENT] : null;
        }

        /** {@return the next segment, made and linked now if no other thread has done so} */
        Segment extend() {
            Segment made = new Segment(base + SEGMENT, stamps != null);
            return NEXT.compareAndSet(this, null, made) ? made : next;
        }
    }
}
