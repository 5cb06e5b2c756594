package io.github.poolkit.autoconfigure;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.UnaryOperator;

import io.github.poolkit.OverdueTask;
import io.github.poolkit.PoolListener;

/**
 * Pauses and resumes the jobs of a {@code DelayScheduler} that cannot be shut down and started again: the scheduler's
 * task decorator wraps each job in a gate, and while paused, a job whose time comes waits at the gate (on its worker)
 * until {@link #resume()}, so no job is lost; but a run of a repeating job that has run before is skipped instead, so
 * that a long pause (a checkpoint restored days later) does not leave a fixed-rate job a backlog of missed runs to
 * catch up one after another. (The gate cannot tell a repeating job before its second run: one whose first run falls
 * due while paused waits like a one-shot job, then catches up.) {@link PoolkitLifecycle} pauses the
 * scheduler on {@code stop()} and resumes it on {@code start()}; on context close it resumes it before shutting it
 * down, so held jobs run (or are taken back) like any other.
 *
 * <p>Invariants, all guarded by {@code lock}: a job body runs only while not paused at the moment it passed the gate
 * (a skipped run never enters the body); {@code interrupted} holds the threads of {@code running} that
 * {@link #interruptRunning()} interrupted, whose interrupt status is cleared when their job ends, so that it never
 * reaches the worker's next job;
 * {@code running} holds exactly the threads that passed the gate and have not finished their job's body, so when
 * {@link #awaitIdle} returns {@code true} after {@link #pause()}, no job runs until {@link #resume()}.
 *
 * <p>A job held at the gate has not started, though its worker has (the scheduler watches the worker's run for
 * overdue tasks): an interrupt of its worker while it waits (the overdue watch's, with {@code interrupt-overdue}) is
 * not for the job, which keeps waiting and runs after {@link #resume()} without it; and a report that such a job is
 * overdue is dropped ({@link #reportingRunsOnly}). {@code held} holds exactly the threads waiting at the gate. The
 * close of a context resumes the gate before it shuts the scheduler down, so no held job waits through a close.
 */
final class SchedulerPause implements UnaryOperator<Runnable> {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition resumed = lock.newCondition();
    private final Condition idle = lock.newCondition();
    private final Set<Thread> running = new HashSet<>();
    private final Set<Thread> interrupted = new HashSet<>();
    private final Set<Thread> held = new HashSet<>();
    private boolean paused;

    /** Wraps a job in the gate; the wrapper's {@code toString} is the job's. */
    @Override
    public Runnable apply(Runnable job) {
        return new Gated(job);
    }

    /** Holds every job that has not yet passed the gate; the ones running go on. */
    void pause() {
        lock.lock();
        try {
            paused = true;
        }
        finally {
            lock.unlock();
        }
    }

    /** Lets held and future jobs run. */
    void resume() {
        lock.lock();
        try {
            paused = false;
            resumed.signalAll();
        }
        finally {
            lock.unlock();
        }
    }

    /**
     * @param deadline a {@link System#nanoTime()} value
     * @return whether no job was running before {@code deadline}; {@code false} when interrupted (status kept)
     */
    boolean awaitIdle(long deadline) {
        lock.lock();
        try {
            while (!running.isEmpty()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                idle.awaitNanos(left);
            }
            return true;
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return false;
        }
        finally {
            lock.unlock();
        }
    }

    /** @return how many jobs are running now */
    int running() {
        lock.lock();
        try {
            return running.size();
        }
        finally {
            lock.unlock();
        }
    }

    /** @return how many running jobs were interrupted */
    int interruptRunning() {
        lock.lock();
        try {
            running.forEach(Thread::interrupt);
            interrupted.addAll(running);
            return running.size();
        }
        finally {
            lock.unlock();
        }
    }

    /**
     * Waits at the gate while paused.
     *
     * @param ranBefore whether this job has run before, so repeats
     * @return {@code false} to skip this run: a repeating job that came while paused
     */
    private boolean enter(boolean ranBefore) {
        lock.lock();
        try {
            if (paused && ranBefore) {
                return false;
            }
            Thread self = Thread.currentThread();
            while (paused) {
                held.add(self);
                try {
                    resumed.await();
                }
                catch (InterruptedException ex) {
                    // not for the job, which has not started (see the class description): it keeps waiting
                }
                finally {
                    held.remove(self);
                }
            }
            running.add(Thread.currentThread());
            return true;
        }
        finally {
            lock.unlock();
        }
    }

    /**
     * @param listener the scheduler's listener
     * @return a listener that tells {@code listener} everything but the reports of jobs held at this gate, which are
     *         waiting, not running
     */
    PoolListener reportingRunsOnly(PoolListener listener) {
        return new PoolListener() {
            @Override
            public void taskFinished(long waitedNanos, long ranNanos, Throwable failure) {
                listener.taskFinished(waitedNanos, ranNanos, failure);
            }

            @Override
            public void taskRejected(RuntimeException reason) {
                listener.taskRejected(reason);
            }

            @Override
            public void taskOverdue(OverdueTask task) {
                if (!holds(task.thread())) {
                    listener.taskOverdue(task);
                }
            }
        };
    }

    /** @return whether a thread of that name waits at the gate (the scheduler's workers have names of their own) */
    private boolean holds(String threadName) {
        lock.lock();
        try {
            return held.stream().anyMatch(thread -> thread.getName().equals(threadName));
        }
        finally {
            lock.unlock();
        }
    }

    private void exit() {
        lock.lock();
        try {
            running.remove(Thread.currentThread());
            if (interrupted.remove(Thread.currentThread())) {
                // The interrupt was for the job that just ended; the worker's next job must not see it.
                Thread.interrupted();
            }
            if (running.isEmpty()) {
                idle.signalAll();
            }
        }
        finally {
            lock.unlock();
        }
    }

    /** A job behind the gate. */
    private final class Gated implements Runnable {

        private final Runnable job;

        /** Set once the job has passed the gate: a later run is a repeat. Runs of one job never overlap. */
        private volatile boolean ranBefore;

        Gated(Runnable job) {
            this.job = job;
        }

        @Override
        public void run() {
            if (!enter(ranBefore)) {
                return;
            }
            ranBefore = true;
            try {
                job.run();
            }
            finally {
                exit();
            }
        }

        @Override
        public String toString() {
            return job.toString();
        }
    }
}
