package io.github.poolkit.stress;

import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The books of one soak round: for every task id, whether {@code execute} accepted it, how often it ran, and whether
 * {@code shutdownNow} handed it back. Ids are dense, from 0; a round takes at most {@link #CAPACITY} of them.
 *
 * <p>Each slot is written by one thread per event (the submitter marks "accepted" after {@code execute} returns, the
 * worker counts a run, the stopper marks "handed back") and read only by {@link #verify} after every thread involved
 * has been joined or the pool has terminated, so the final values are visible there. The run counter is atomic so that
 * a task run twice is seen as 2, never lost in a race.
 */
final class SoakLedger {

    /** The most task ids one round may hand out. */
    static final int CAPACITY = 1 << 21;

    private final AtomicLong nextId = new AtomicLong();
    private final AtomicIntegerArray accepted = new AtomicIntegerArray(CAPACITY);
    private final AtomicIntegerArray runs = new AtomicIntegerArray(CAPACITY);
    private final AtomicIntegerArray handedBack = new AtomicIntegerArray(CAPACITY);

    /** @return a fresh id, or -1 when the round has used up its ids */
    int newId() {
        long id = nextId.getAndIncrement();
        return id < CAPACITY ? (int) id : -1;
    }

    void accepted(int id) {
        accepted.set(id, 1);
    }

    void ran(int id) {
        runs.incrementAndGet(id);
    }

    void handedBack(int id) {
        handedBack.incrementAndGet(id);
    }

    /**
     * Checks that every accepted task ran exactly once or was handed back exactly once (not both), and that no refused
     * task ran or was handed back.
     *
     * @param totals where to add this round's counts
     * @return the runs of the round's tasks, all together
     * @throws AssertionError naming the first task whose books do not balance
     */
    long verify(SoakTotals totals) {
        int issued = (int) Math.min(nextId.get(), CAPACITY);
        long ran = 0;
        for (int id = 0; id < issued; id++) {
            int a = accepted.get(id);
            int r = runs.get(id);
            int h = handedBack.get(id);
            if (a == 1 ? r + h != 1 : r + h != 0) {
                throw new AssertionError("task " + id + ": accepted=" + (a == 1) + ", runs=" + r + ", handedBack=" + h
                        + " (an accepted task must run once or be handed back once; a refused one must do neither)");
            }
            totals.add(a == 1, r, h);
            ran += r;
        }
        return ran;
    }
}
