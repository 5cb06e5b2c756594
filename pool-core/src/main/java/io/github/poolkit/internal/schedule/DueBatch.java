package io.github.poolkit.internal.schedule;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;

/**
 * The due jobs a {@link JobTimer}'s thread has taken from the heap and not yet handed to the executor: at most
 * {@value #CAPACITY} of them.
 *
 * <p>Invariants: the batch is filled and emptied under the timer's lock, by the timer thread only, and is not empty
 * exactly while that thread is handing it over (its last jobs may have run, or been cancelled, already, and a pool's
 * worker that starts one empties its slot: {@link #nothingLeftToHandOver}). A job stays in its slot until the executor
 * has taken it: the timer thread reads it ({@link #get}), hands it over (or skips it, done meanwhile), and only then
 * empties the slot ({@link #claim}, an atomic swap to null), unless the thread that starts to run it, which the
 * executor took, emptied it first ({@link #started}, a CAS). Whoever stops the timer ({@code shutdownNow}, or a timer
 * thread that failed) takes, under the lock, every job still in a slot ({@link #claimAll}, the same swap): one not
 * handed over yet, which the timer thread then skips, or the one being handed over at that very moment (or just handed
 * over). {@code shutdownNow} returns such a job only if it can cancel it before it starts
 * ({@code ScheduledJob.cancelUnstarted}), which excludes its run; whether the executor then refuses it, or takes it and
 * skips it as cancelled, or ran it first, the job is run or returned, once.
 */
final class DueBatch {

    /** The most jobs in one batch. */
    static final int CAPACITY = 256;

    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(ScheduledJob[].class);

    private final ScheduledJob<?>[] slots = new ScheduledJob<?>[CAPACITY];
    /** Jobs put in since the batch was last emptied; lock held. */
    private int size;
    /** The slot the timer thread is handing over (or about to; the last one until the next batch), or -1. */
    private volatile int handing = -1;

    /** {@return whether no batch is being handed over} Lock held. */
    boolean isEmpty() {
        return size == 0;
    }

    /**
     * {@return whether the timer thread has nothing left to hand over: every job in the batch is claimed (started by a
     * pool's worker, or handed over), or done ({@code ScheduledJob.isDone}: run, refused or cancelled), although the
     * thread may not have claimed its slot yet} The timer thread skips a done job, unless it is the one being handed
     * over ({@link #handing}), which it may have found not done an instant before: only a settled one (run, or refused)
     * counts there. Each job's state is read before {@link #handing}, which the timer thread writes before it reads
     * that state (a Dekker pair: a job done before this read is skipped, or seen here as the one being handed over), so
     * the executor is never shut down under a hand-over that a cancel raced, which it would refuse. Lock held.
     */
    boolean nothingLeftToHandOver() {
        for (int i = 0; i < size; i++) {
            ScheduledJob<?> job = get(i);
            if (job != null && (!job.isDone() || (!job.isSettled() && handing == i))) {
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
        job.batchSlot = size;
        slots[size++] = job;
    }

    /**
     * Empties the slot of a job that a pool's worker starts to run (the executor took it, so a shutdown of the
     * executor refuses it no more), if it is still there: a job not in the batch, or in another slot (a stale
     * {@code batchSlot}), is left alone. A worker's thread; not a caller running the job itself, which proves nothing
     * about the hand-over.
     */
    void started(ScheduledJob<?> job) {
        int i = job.batchSlot;
        if (i >= 0) {
            SLOT.compareAndSet(slots, i, job, null);
        }
    }

    /** {@return how many jobs were put in} Timer thread. */
    int size() {
        return size;
    }

    /** Empties the batch, once every job in it is claimed. Lock held, timer thread. */
    void clear() {
        size = 0;
        handing = -1;
    }

    /**
     * The timer thread is about to read slot {@code i}'s job, skip it if done, or else hand it over: written before it
     * reads the job's state (see {@link #nothingLeftToHandOver}). Timer thread.
     */
    void handing(int i) {
        handing = i;
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
