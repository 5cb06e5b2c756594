package io.github.poolkit.internal.pool;

import io.github.poolkit.internal.Spin;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * One worker thread of a {@link PoolCore} and its hand-off slot (ants' {@code goWorker} and its task channel).
 *
 * <p>Hand-off protocol: a worker waiting for work sits in exactly one place, the pool's idle store. The one thread
 * that removes it from there (under the pool lock) owns it and writes the next task, or {@link #STOP}, into
 * {@link #handoff} with a volatile write ({@link #give}), then unparks it ({@link #wake}, which may wait until the lock
 * is released). The worker spins briefly (in a pool without a queue), then parks, until it reads a non-null slot
 * with a volatile read, so everything the submitter did before {@code execute} happens-before the task runs. The
 * worker clears the slot before it can be put back in the idle store (under the lock), so a slot is never written
 * twice for one wait. No allocation is made per hand-off.
 *
 * <p>Task counts: a worker counts the tasks it began, completed and saw fail in fields of its own, written only by its
 * own thread with release stores (a plain store on x86; no fence, no shared cache line), so counting costs the hot
 * path no shared write. Readers sum them with acquire loads; a reader that loads {@code completed} and {@code failed}
 * before {@code started} therefore never sees more tasks finished than begun.
 */
final class Worker implements Runnable {

    /** Hand-off value that tells a worker to leave the pool; it has already been retired by whoever sent it. */
    static final Object STOP = new Object();

    private static final VarHandle STARTED;
    private static final VarHandle COMPLETED;
    private static final VarHandle FAILED;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            STARTED = l.findVarHandle(Worker.class, "started", long.class);
            COMPLETED = l.findVarHandle(Worker.class, "completed", long.class);
            FAILED = l.findVarHandle(Worker.class, "failed", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final PoolCore pool;
    private final TaskRunner runner;

    /** Tasks this worker began, ran to the end, and saw throw; written only by its own thread (release stores). */
    private long started;
    private long completed;
    private long failed;

    /** The thread running this worker; written before it starts, read by other threads to unpark or interrupt it. */
    volatile Thread thread;

    /** The first task, set when the worker is reserved; read by its own thread after start. */
    Object firstTask;

    /** When the worker last became idle, in nanoTime; guarded by the pool lock. */
    long lastUsedNanos;

    /** Whether the pool no longer counts this worker; guarded by the pool lock. */
    boolean retired;

    /** Neighbours in the pool's {@link LiveWorkers}; guarded by the pool lock. */
    Worker previousLive;
    Worker nextLive;

    private volatile Object handoff;

    Worker(PoolCore pool, TaskRunner runner, Object firstTask) {
        this.pool = pool;
        this.runner = runner;
        this.firstTask = firstTask;
    }

    /** The worker's loop: run a task, then take the next, until the pool retires it. */
    @Override
    public void run() {
        Object task = firstTask;
        firstTask = null;
        try {
            if (task == null) {
                task = pool.nextTask(this); // started for the queue
            }
            while (task != null) {
                pool.beforeTask();
                runner.run(this, task);
                task = pool.nextTask(this);
            }
        } finally {
            pool.workerExited(this);
        }
    }

    /**
     * Gives this idle worker its next task and wakes it. Called only by the thread that removed it from the idle
     * store.
     *
     * @param task a task or {@link #STOP}
     */
    void handOff(Object task) {
        give(task);
        wake();
    }

    /**
     * Puts this idle worker's next task in its slot; {@link #wake} must follow. Called only by the thread that
     * removed it from the idle store.
     *
     * @param task a task or {@link #STOP}
     */
    void give(Object task) {
        handoff = task;
    }

    /** Unparks this worker after {@link #give}. */
    void wake() {
        LockSupport.unpark(thread);
    }

    /** On the worker's own thread: a task begins. */
    void countStarted() {
        STARTED.setRelease(this, started + 1);
    }

    /** On the worker's own thread: the task that began ended as {@code outcome} says. */
    void countFinished(Outcome outcome) {
        if (outcome == Outcome.COMPLETED) {
            COMPLETED.setRelease(this, completed + 1);
        } else {
            FAILED.setRelease(this, failed + 1);
        }
    }

    /** @return tasks this worker ran to the end (any thread) */
    long completedCount() {
        return (long) COMPLETED.getAcquire(this);
    }

    /** @return tasks this worker saw throw (any thread) */
    long failedCount() {
        return (long) FAILED.getAcquire(this);
    }

    /**
     * @return whether this worker is running a task now (any thread; reads the finished counts before the started
     *         one, so a task that ends meanwhile may still count as running, never the reverse)
     */
    boolean isBusy() {
        long finished = (long) COMPLETED.getAcquire(this) + (long) FAILED.getAcquire(this);
        return (long) STARTED.getAcquire(this) > finished;
    }

    /** How a task ended. */
    enum Outcome {
        /** It returned. */
        COMPLETED,
        /** It threw. */
        FAILED
    }

    /**
     * Waits, on this worker's own thread, until {@link #handOff} gives it something. Stray interrupts (meant for a task
     * that has already finished) are cleared so they cannot turn the wait into a busy loop.
     *
     * @param spins how many times to spin before parking ({@link Spin#budget}): worth it in a pool
     *              without a queue, where every task is a hand-off; in a queued pool one worker already spins on the
     *              queue, and idle workers that spun as well would take the cores from the threads that submit
     *              (measured: with 64 workers and one submitter they took 24% of the samples and made throughput
     *              bimodal)
     * @return the task, or {@link #STOP}
     */
    Object awaitHandoff(int spins) {
        Object p;
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
