package io.github.poolkit.internal.schedule;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;

/**
 * An indexed binary min-heap of timer entries, ordered by deadline and then by sequence number (first scheduled,
 * first out among equal deadlines).
 *
 * <p>Implementation overview. The entries live in an array, the smallest at index 0, the children of slot {@code i}
 * at {@code 2i + 1} and {@code 2i + 2}. Every entry records its own slot in {@link Entry#heapIndex}, so removing an
 * arbitrary entry (a cancelled timer) needs no search: it is swapped with the last entry, which is then sifted up or
 * down, in O(log n). Invariants, true whenever no method of this class is executing:
 * <ul>
 *   <li>heap order: no entry is {@linkplain #before before} its parent;</li>
 *   <li>{@code queue[i].heapIndex == i} for every {@code i < size}; an entry in no heap has
 *       {@code heapIndex == NOT_IN_HEAP}; slots at and beyond {@code size} are {@code null} (nothing is retained).</li>
 * </ul>
 * Deadlines are {@link System#nanoTime()} values and are compared by subtraction, which is correct as long as the
 * deadlines held at one time lie within 2<sup>63</sup>-1 ns of one another (the callers cap delays accordingly).
 *
 * <p>Not thread-safe: the owner guards every call, and every read or write of an entry's deadline, sequence and
 * index while the entry may be in a heap, with one lock. One heap slot (a reference) is the only per-entry cost
 * besides the entry's own three fields.
 *
 * @param <E> the entry type
 */
public final class TimerHeap<E extends TimerHeap.Entry> {

    /** The {@link Entry#heapIndex} of an entry that is in no heap. */
    public static final int NOT_IN_HEAP = -1;

    private static final int INITIAL_CAPACITY = 16;

    private Entry[] queue = new Entry[INITIAL_CAPACITY];
    private int size;

    /**
     * Creates an empty heap with room for a few entries; it grows by half when full, and halves while at most a quarter
     * full, so that a burst of timers does not keep its storage once it has drained.
     */
    public TimerHeap() {
    }

    /**
     * What a {@link TimerHeap} orders: a deadline, a tie-breaking sequence number, and the entry's own slot in the
     * heap. Subclassed by the objects that are timed, so that a pending timer costs no extra allocation.
     */
    public abstract static class Entry {

        /** When the entry is due, in {@link System#nanoTime()} units. */
        long deadline;

        /** Breaks ties between equal deadlines: the smaller sequence comes first. */
        long sequence;

        /** The entry's slot in its heap, or {@link #NOT_IN_HEAP}. */
        int heapIndex = NOT_IN_HEAP;

        /** Creates an entry that is in no heap. */
        protected Entry() {
        }
    }

    /**
     * Whether {@code a} is due strictly before {@code b}: an earlier deadline, or the same deadline and a smaller
     * sequence number.
     *
     * @param a an entry
     * @param b another entry
     * @return whether {@code a} orders first
     */
    static boolean before(Entry a, Entry b) {
        long d = a.deadline - b.deadline;
        return d < 0 || (d == 0 && a.sequence < b.sequence);
    }

    /** {@return the number of entries} */
    public int size() {
        return size;
    }

    /** {@return whether the heap holds no entry} */
    public boolean isEmpty() {
        return size == 0;
    }

    /**
     * Adds an entry, in O(log n). Its deadline and sequence must be set already and must not change while it is in
     * the heap.
     *
     * @param e an entry that is in no heap
     * @throws IllegalStateException if the entry is in a heap already
     */
    public void add(E e) {
        if (e.heapIndex != NOT_IN_HEAP) {
            throw new IllegalStateException("entry is already in a timer heap, at index " + e.heapIndex);
        }
        if (size == queue.length) {
            queue = Arrays.copyOf(queue, grownCapacity(queue.length));
        }
        siftUp(size++, e);
    }

    /** {@return the entry that is due first, or {@code null} when empty} */
    @SuppressWarnings("unchecked")
    public E peek() {
        return (E) queue[0];
    }

    /** {@return the entry that was due first, now removed, or {@code null} when empty} */
    public E poll() {
        E head = peek();
        if (head != null) {
            removeAt(0);
        }
        return head;
    }

    /**
     * Removes an entry, in O(log n), if it is in this heap.
     *
     * @param e the entry
     * @return whether it was in this heap
     */
    public boolean remove(E e) {
        int i = e.heapIndex;
        if (i < 0 || i >= size || queue[i] != e) {
            return false;
        }
        removeAt(i);
        return true;
    }

    /**
     * Removes every entry that matches, in O(n) however many match (the survivors are re-heapified at once rather
     * than removed one by one).
     *
     * @param filter which entries to remove
     * @return the removed entries, in no particular order
     */
    @SuppressWarnings("unchecked")
    public List<E> removeIf(Predicate<? super E> filter) {
        Entry[] q = queue;
        int n = size;
        int kept = 0;
        List<E> removed = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Entry e = q[i];
            if (filter.test((E) e)) {
                e.heapIndex = NOT_IN_HEAP;
                removed.add((E) e);
            } else {
                q[kept] = e;
                e.heapIndex = kept++;
            }
        }
        Arrays.fill(q, kept, n, null);
        size = kept;
        for (int i = (kept >>> 1) - 1; i >= 0; i--) {
            siftDown(i, q[i]);
        }
        shrinkIfSparse();
        return removed;
    }

    /**
     * Removes every entry and shrinks the storage back to its initial size.
     *
     * @return the removed entries, in no particular order
     */
    @SuppressWarnings("unchecked")
    public List<E> clear() {
        List<E> removed = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            Entry e = queue[i];
            e.heapIndex = NOT_IN_HEAP;
            removed.add((E) e);
        }
        queue = new Entry[INITIAL_CAPACITY];
        size = 0;
        return removed;
    }

    /** {@return the slots the storage has now, for tests of its growing and shrinking} */
    int capacity() {
        return queue.length;
    }

    /**
     * The entry in slot {@code i}, for tests that check the heap's invariants.
     *
     * @param i a slot below {@link #size()}
     * @return the entry there
     */
    @SuppressWarnings("unchecked")
    E entryAt(int i) {
        if (i < 0 || i >= size) {
            throw new IndexOutOfBoundsException("slot " + i + " of a heap of " + size);
        }
        return (E) queue[i];
    }

    private void removeAt(int i) {
        Entry[] q = queue;
        q[i].heapIndex = NOT_IN_HEAP;
        int last = --size;
        Entry moved = q[last];
        q[last] = null;
        if (i != last) {
            siftDown(i, moved);
            if (q[i] == moved) {
                siftUp(i, moved);
            }
        }
        shrinkIfSparse();
    }

    /**
     * Halves the storage while at most a quarter of it is used, never below the initial size. Growing by half when
     * full and halving at a quarter leave the heap half full after either, so adding and removing one entry at the
     * boundary cannot copy the array back and forth.
     */
    private void shrinkIfSparse() {
        int length = queue.length;
        while (length > INITIAL_CAPACITY && size <= length >>> 2) {
            length = Math.max(INITIAL_CAPACITY, length >>> 1);
        }
        if (length != queue.length) {
            queue = Arrays.copyOf(queue, length);
        }
    }

    /** Moves {@code e} from the hole at {@code i} towards the root until its parent is not after it. */
    private void siftUp(int i, Entry e) {
        Entry[] q = queue;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            Entry p = q[parent];
            if (!before(e, p)) {
                break;
            }
            place(q, i, p);
            i = parent;
        }
        place(q, i, e);
    }

    /** Moves {@code e} from the hole at {@code i} towards the leaves until no child is before it. */
    private void siftDown(int i, Entry e) {
        Entry[] q = queue;
        int half = size >>> 1; // slots below half have at least one child
        while (i < half) {
            int child = 2 * i + 1;
            Entry c = q[child];
            int right = child + 1;
            if (right < size && before(q[right], c)) {
                child = right;
                c = q[right];
            }
            if (!before(c, e)) {
                break;
            }
            place(q, i, c);
            i = child;
        }
        place(q, i, e);
    }

    /** Puts {@code e} in slot {@code i}, keeping the invariant that an entry knows its own slot. */
    private static void place(Entry[] q, int i, Entry e) {
        q[i] = e;
        e.heapIndex = i;
    }

    private static int grownCapacity(int capacity) {
        int grown = capacity + (capacity >>> 1);
        if (grown < 0 || grown > Integer.MAX_VALUE - 8) {
            if (capacity == Integer.MAX_VALUE - 8) {
                throw new IllegalStateException("timer heap is full: " + capacity + " entries");
            }
            return Integer.MAX_VALUE - 8;
        }
        return grown;
    }
}
