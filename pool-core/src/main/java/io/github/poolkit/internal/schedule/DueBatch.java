package io.github.poolkit.internal.schedule;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;

/**
 * The due jobs a {@link JobTimer}'s thread has taken from the heap and not yet handed to the executor: at most
 * {@value #CAPACITY} of them.
 *
 * <p>Invariants: the batch is filled and emptied under the timer's lock, by the timer thread only, and is not empty
 * exactly while that thread is handing it over (its last jobs may have run, or been cancelled, already:
 * {@link #nothingLeftToHandOver}). A job stays in its slot until the executor has taken it: the timer thread reads it
 * ({@link #get}), hands it over, and only then empties the slot ({@link #claim}, an atomic swap to null). Whoever stops
 * the timer ({@code shutdownNow}, or a timer thread that failed) takes, under the lock, every job still in a slot
 * ({@link #claimAll}, the same swap): one not handed over yet, which the timer thread then skips, or the one being
 * handed over at that very moment (or just handed over). {@code shutdownNow} returns such a job only if it can cancel
 * it before it starts ({@code ScheduledJob.cancelUnstarted}), which excludes its run; whether the executor then refuses
 * it, or takes it and skips it as cancelled, or ran it first, the job is run or returned, once.
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

    /**
     * {@return whether the timer thread has nothing left to hand over: every job in the batch is claimed or done
     * ({@code ScheduledJob.isDone}: run by a worker, refused, or cancelled), although the thread may not have claimed
     * its slot yet} A job a caller saw complete was run (by a worker, so the executor took it; or by its holder) or
     * refused; a cancelled one has nothing left to run. The timer thread skips a done job, and ignores a refusal of
     * one it handed over as it was cancelled (the executor being shut down meanwhile). Lock held.
     */
    boolean nothingLeftToHandOver() {
        for (int i = 0; i < size; i++) {
            ScheduledJob<?> job = get(i);
            if (job != null && !job.isDone()) {
                return false;
            }
        }
        return true;
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

    /** {@return the job in slot {@code i}, to hand over, or null if it was claimed already} Timer thread. */
    ScheduledJob<?> get(int i) {
        return (ScheduledJob<?>) SLOT.getVolatile(slots, i);
    }

    /**
     * Empties slot {@code i}.
     *
     * @param i the slot
     * @return the job it held, now the caller's, or null if it was claimed already
     */
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
