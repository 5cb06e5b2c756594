package io.github.poolkit.internal;

import java.util.concurrent.locks.LockSupport;

/**
 * One worker thread of a {@link PoolEngine} and its hand-off slot (ants' {@code goWorker} and its task channel).
 *
 * <p>Hand-off protocol: a worker waiting for work sits in exactly one place, the pool's idle store. The one thread
 * that removes it from there (under the pool lock) owns it and writes the next payload, or {@link #STOP}, into
 * {@link #handoff} with a volatile write ({@link #give}), then unparks it ({@link #wake}, which may wait until the lock
 * is released). The worker spins briefly (in a pool without a queue), then parks, until it reads a non-null slot
 * with a volatile read, so everything the submitter did before {@code execute} happens-before the task runs. The
 * worker clears the slot before it can be put back in the idle store (under the lock), so a slot is never written
 * twice for one wait. No allocation is made per hand-off.
 */
final class Worker implements Runnable {

    /** Hand-off value that tells a worker to leave the pool; it has already been retired by whoever sent it. */
    static final Object STOP = new Object();

    /** Spins before parking; only worth it when another core can hand off meanwhile. */
    private static final int SPINS = Runtime.getRuntime().availableProcessors() > 1 ? 128 : 0;

    private final PoolEngine pool;

    /** The thread running this worker; written before it starts, read by other threads to unpark or interrupt it. */
    volatile Thread thread;

    /** The first payload, set when the worker is reserved; read by its own thread after start. */
    Object firstTask;

    /** When the worker last became idle, in nanoTime; guarded by the pool lock. */
    long lastUsedNanos;

    /** Whether the pool no longer counts this worker; guarded by the pool lock. */
    boolean retired;

    private volatile Object handoff;

    Worker(PoolEngine pool, Object firstTask) {
        this.pool = pool;
        this.firstTask = firstTask;
    }

    @Override
    public void run() {
        pool.runWorker(this);
    }

    /**
     * Gives this idle worker its next payload and wakes it. Called only by the thread that removed it from the idle
     * store.
     *
     * @param payload a task payload or {@link #STOP}
     */
    void handOff(Object payload) {
        give(payload);
        wake();
    }

    /**
     * Puts this idle worker's next payload in its slot; {@link #wake} must follow. Called only by the thread that
     * removed it from the idle store.
     *
     * @param payload a task payload or {@link #STOP}
     */
    void give(Object payload) {
        handoff = payload;
    }

    /** Unparks this worker after {@link #give}. */
    void wake() {
        LockSupport.unpark(thread);
    }

    /**
     * @return how many times the current thread may spin waiting for work before it parks: none on one core, or on a
     *         virtual thread, which would hold one of the few carrier threads
     */
    static int spins() {
        return Thread.currentThread().isVirtual() ? 0 : SPINS;
    }

    /**
     * Waits, on this worker's own thread, until {@link #handOff} gives it something. Stray interrupts (meant for a task
     * that has already finished) are cleared so they cannot turn the wait into a busy loop.
     *
     * @param spin whether to spin briefly before parking ({@link #spins()}): worth it in a pool without a queue,
     *             where every task is a hand-off; in a queued pool one worker already spins on the queue, and idle
     *             workers that spun as well would take the cores from the threads that submit (measured: with 64
     *             workers and one submitter they took 24% of the samples and made throughput bimodal)
     * @return the payload, or {@link #STOP}
     */
    Object awaitHandoff(boolean spin) {
        Object p;
        int spins = spin ? spins() : 0;
        while ((p = handoff) == null) {
            if (spins > 0) {
                spins--;
                Thread.onSpinWait();
            } else {
                LockSupport.park(this);
                Thread.interrupted();
            }
        }
        handoff = null;
        return p;
    }
}
