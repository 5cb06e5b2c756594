package io.github.poolkit.internal.pool;

import io.github.poolkit.internal.PaddedLong;
import io.github.poolkit.internal.Spin;

/**
 * The lock-free side of a pooled pool without a queue, where every task is a hand-off: a caller claims an idle worker
 * with one CAS ({@link IdleStack}) and unparks it, and an idle worker waits for its claim, both spinning briefly
 * first where a processor is free for that.
 *
 * <p>Spinning: a tiny task's worker is back within a microsecond, while parking and waking a thread costs several.
 * So an idle worker spins for its next task before it parks, and a caller that finds every worker busy spins for one
 * to come back before it blocks (as {@code SynchronousQueue}'s callers do). Each side has a budget of its own, so that
 * callers never take the workers' turn:
 * <ul>
 *   <li>at most {@link Spin#MAX_IDLE_SPINNERS} idle workers spin at once (one per processor);</li>
 *   <li>callers spin only on machines of at least {@link Spin#CALLER_SPIN_MIN_PROCESSORS} processors, at most
 *       {@link Spin#MAX_HANDOFF_SPINNERS} at once (half the processors). On 2 processors the caller's spin only takes
 *       the processor that a busy worker needs to finish: measured, it halved the hand-off rate there.</li>
 * </ul>
 * And a caller that finds only parked workers idle, while a worker busy on a free processor is about to come back,
 * spins briefly for that one ({@link #preferSpinningWorker}): one spinning worker then serves a stream of tiny
 * tasks, where waking a parked one per task would cost a park and unpark each (measured on 2 processors, JMH
 * hand-off with 16 workers: 0.5 M/s without the preference, 3.3 M/s with it).
 * None spins on a virtual thread ({@link Spin#budget}).
 *
 * <p>What keeps this safe beside the locked path is the pool's protocol ({@link PoolCore}, invariant 4): a caller
 * stands aside while others are in line, and a worker that goes idle reads {@code blocked} after it pushed itself.
 */
final class HandOffPath {

    /** Hand-offs that skip the preference after a wait in vain. */
    private static final int SKIPS_AFTER_MISS = 64;

    private final PoolCore pool;
    private final IdleStack idle;
    /** Idle workers spinning for a hand-off. */
    private final PaddedLong spinningWorkers = new PaddedLong();
    /** Callers spinning for an idle worker. */
    private final PaddedLong spinningCallers = new PaddedLong();
    /** Hand-offs left that skip {@link #preferSpinningWorker}, after a wait in which no worker came back. */
    private final PaddedLong preferenceSkips = new PaddedLong();

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
        preferSpinningWorker();
        if (tryClaimFor(task)) {
            return true;
        }
        if (pool.hasRoom() || !Spin.CALLERS_SPIN || !startSpinning(spinningCallers, Spin.MAX_HANDOFF_SPINNERS)) {
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
            spinningCallers.decrement();
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
     * Before a caller claims an idle worker: if the most recently idle one is parked while some workers are busy on
     * fewer than all processors, spins briefly for one of those to come back. It pushes itself on top of the stack
     * and spins for its next task, so the caller then hands the task over without waking anybody (a park and unpark
     * cost several microseconds; a tiny task's worker is back within one). Only a hint: whatever is on top when the
     * spin ends is claimed. The caller does not wait:
     * <ul>
     *   <li>with every processor busy: it would take the processor a worker needs to finish;</li>
     *   <li>when the workers are virtual threads (from a {@code threadFactory}): they never spin, so none would come
     *       back spinning;</li>
     *   <li>for the next {@value #SKIPS_AFTER_MISS} hand-offs after a wait in which no worker came back (busy workers
     *       that block, on I/O for instance, are not about to);</li>
     *   <li>beyond the spinning callers' budget: at most half the processors' worth at once.</li>
     * </ul>
     */
    private void preferSpinningWorker() {
        Worker top = idle.peek();
        if (top == null || !top.isParked() || !pool.isOpen() || pool.blockedCallers() != 0) {
            return;
        }
        Thread t = top.thread;
        if (t == null || t.isVirtual()) {
            return;
        }
        long skips = preferenceSkips.get();
        if (skips > 0) {
            preferenceSkips.compareAndSet(skips, skips - 1);
            return;
        }
        int busy = pool.running() - idle.size();
        if (busy <= 0 || busy >= Spin.PROCESSORS || !startSpinning(spinningCallers, Spin.MAX_HANDOFF_SPINNERS)) {
            return;
        }
        try {
            for (int spins = Spin.HANDOFF_SPINS; spins > 0; spins--) {
                Thread.onSpinWait();
                Worker now = idle.peek();
                if (now != null && !now.isParked()) {
                    return; // a worker is back, spinning (maybe the one seen parked: claimed, done and back)
                }
            }
            preferenceSkips.compareAndSet(0, SKIPS_AFTER_MISS);
        } finally {
            spinningCallers.decrement();
        }
    }

    /**
     * Waits, on an idle worker's own thread, for its claim: spins briefly if it may, then parks.
     *
     * @return the token: a task, or {@link Worker#STOP}
     */
    Object awaitToken(Worker w) {
        if (startSpinning(spinningWorkers, Spin.MAX_IDLE_SPINNERS)) {
            Object token = w.spinForHandoff(Spin.HANDOFF_SPINS);
            spinningWorkers.decrement();
            if (token != null) {
                return token;
            }
        }
        return w.awaitHandoff();
    }

    /** Counts this thread in {@code spinners} if it may spin and fewer than the most already do (then decrement). */
    private static boolean startSpinning(PaddedLong spinners, int most) {
        if (Spin.budget(1) == 0) {
            return false;
        }
        for (long n; (n = spinners.get()) < most; ) {
            if (spinners.compareAndSet(n, n + 1)) {
                return true;
            }
        }
        return false;
    }
}
