package io.github.poolkit.internal.pool;

import io.github.poolkit.internal.Spin;

/**
 * The lock-free side of a pooled pool without a queue, where every task is a hand-off: a caller claims an idle worker
 * with one CAS ({@link IdleStack}) and unparks it, and an idle worker waits for its claim, both spinning briefly
 * first where a processor is free for that.
 *
 * <p>Spinning: a tiny task's worker is back within a microsecond, while parking and waking a thread costs several,
 * so a caller that finds every worker busy spins for one to come back before it blocks (as {@code SynchronousQueue}'s
 * callers do), and an idle worker spins for its next task before it parks. At most
 * {@link Spin#MAX_HANDOFF_SPINNERS} threads of a pool spin at once (half the processors), so that the threads with work
 * to do keep the rest; none spins on a single processor or on a virtual thread ({@link Spin#budget}).
 *
 * <p>What keeps this safe beside the locked path is the pool's protocol ({@link PoolCore}, invariant 4): a caller
 * stands aside while others are in line, and a worker that goes idle reads {@code blocked} after it pushed itself.
 */
final class HandOffPath {

    private final PoolCore pool;
    private final IdleStack idle;
    /** Threads of the pool spinning for a hand-off: idle workers, and callers waiting for one. */
    private final PaddedCounter spinners = new PaddedCounter();

    HandOffPath(PoolCore pool, IdleStack idle) {
        this.pool = pool;
        this.idle = idle;
    }

    /**
     * Hands the task to an idle worker, unless callers are in line (they come first); with every worker busy and
     * none to start, spins briefly for one to come back.
     *
     * @return whether a worker took the task; false when the locked path must decide
     */
    boolean tryHandOff(Object task) {
        if (tryClaimFor(task)) {
            return true;
        }
        if (pool.hasRoom() || !startSpinning()) {
            return false;
        }
        try {
            for (int spins = Spin.HANDOFF_SPINS; spins > 0 && pool.blockedCallers() == 0; spins--) {
                Thread.onSpinWait();
                if (tryClaimFor(task)) {
                    return true;
                }
            }
            return false;
        } finally {
            spinners.decrement();
        }
    }

    private boolean tryClaimFor(Object task) {
        Worker w;
        if (idle.size() > 0 && pool.blockedCallers() == 0 && pool.isOpen() && (w = idle.claim(task)) != null) {
            w.wake();
            return true;
        }
        return false;
    }

    /**
     * Waits, on an idle worker's own thread, for its claim: spins briefly if it may, then parks.
     *
     * @return the token: a task, or {@link Worker#STOP}
     */
    Object awaitToken(Worker w) {
        if (startSpinning()) {
            Object token = w.spinForHandoff(Spin.HANDOFF_SPINS);
            spinners.decrement();
            if (token != null) {
                return token;
            }
        }
        return w.awaitHandoff();
    }

    /** Counts the current thread as spinning if it may spin and fewer than the most already do (then decrement). */
    private boolean startSpinning() {
        if (Spin.budget(1) == 0) {
            return false;
        }
        for (int n; (n = spinners.get()) < Spin.MAX_HANDOFF_SPINNERS; ) {
            if (spinners.compareAndSet(n, n + 1)) {
                return true;
            }
        }
        return false;
    }
}
