package io.github.poolkit.internal.schedule;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;

/**
 * The due jobs a {@link JobTimer}'s thread has taken from the heap and not yet handed to the executor: at most
 * {@value #CAPACITY} of them.
 *
 * <p>Invariants: the batch is filled and emptied under the timer's lock, by the timer thread only, and is not empty
 * exactly while that thread is handing it over. Each job in it is claimed once, by an atomic swap of its slot to
 * null: by the timer thread just before it hands the job over ({@link #claim}), or by whoever stops the timer
 * ({@code shutdownNow}, or a timer thread that failed), under the lock ({@link #claimAll}), which then returns or
 * cancels it. So a job the timer took but had not yet handed over when the timer was stopped is returned, and one it
 * handed over is not, never both. One window is left: the job the timer thread has claimed and is handing over at that
 * very moment; should the executor refuse it because {@code shutdownNow} closed it first, it is cancelled but not
 * returned (closing it would mean making {@code shutdownNow} wait for that {@code execute}, and so for the executor's
 * thread factory).
 */
final class DueBatch {

    /** The most jobs in one batch. */
    static final int CAPACITY = 256;

    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(ScheduledJob[].class);

    private final ScheduledJob<?>[] slots = new ScheduledJob<?>[CAPACITY];
    /** Jobs put in since the batch was last emptied; lock held. */
    private int size;

    /** {@return whether no batch is being handed over} Lock held. */
    boolean isEmpty() {
        return size == 0;
    }

    /** {@return whether the batch holds {@value #CAPACITY} jobs} Lock held. */
    boolean isFull() {
        return size == CAPACITY;
    }

    /** Puts a due job in, taken from the heap. Lock held, timer thread. */
    void add(ScheduledJob<?> job) {
        slots[size++] = job;
    }

    /** {@return how many jobs were put in} Timer thread. */
    int size() {
        return size;
    }

    /** Empties the batch, once every job in it is claimed. Lock held, timer thread. */
    void clear() {
        size = 0;
    }

    /** {@return the job in slot {@code i}, now the caller's to hand over, or null if it was claimed already} */
    ScheduledJob<?> claim(int i) {
        return (ScheduledJob<?>) SLOT.getAndSet(slots, i, null);
    }

    /** Claims every job not claimed yet into {@code into}. Lock held. */
    void claimAll(List<ScheduledJob<?>> into) {
        for (int i = 0; i < size; i++) {
            ScheduledJob<?> job = claim(i);
            if (job != null) {
                into.add(job);
            }
        }
    }
}
