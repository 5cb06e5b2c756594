package io.github.poolkit.stress;

import java.util.concurrent.atomic.AtomicLong;

/** Counts of a whole soak run, summed over its rounds, printed at the end for docs/reliability.md. */
final class SoakTotals {

    long rounds;
    long submitted;
    long accepted;
    long ran;
    long handedBack;
    final AtomicLong closedRejections = new AtomicLong();
    final AtomicLong overloadRejections = new AtomicLong();
    final AtomicLong interruptedSubmits = new AtomicLong();
    final AtomicLong panics = new AtomicLong();
    final AtomicLong thrown = new AtomicLong();
    final AtomicLong tunes = new AtomicLong();
    final AtomicLong reboots = new AtomicLong();
    final AtomicLong reconfigures = new AtomicLong();
    final AtomicLong shutdownNows = new AtomicLong();
    final AtomicLong interruptedTasks = new AtomicLong();

    /** Adds one task's books (called from the verifying thread only). */
    void add(boolean wasAccepted, int runs, int handedBackTimes) {
        submitted++;
        if (wasAccepted) {
            accepted++;
        }
        ran += runs;
        handedBack += handedBackTimes;
    }

    @Override
    public String toString() {
        return "rounds=" + rounds + " submitted=" + submitted + " accepted=" + accepted + " ran=" + ran
                + " handedBack=" + handedBack + " rejected(closed)=" + closedRejections
                + " rejected(overload)=" + overloadRejections + " rejected(interrupted)=" + interruptedSubmits
                + " thrown=" + thrown + " panics=" + panics + " interruptedTasks=" + interruptedTasks
                + " tunes=" + tunes + " reconfigures=" + reconfigures + " releaseReboots=" + reboots
                + " shutdownNows=" + shutdownNows;
    }
}
