package io.github.poolkit.autoconfigure;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.UnaryOperator;

/**
 * Pauses and resumes the jobs of a {@code DelayScheduler} that cannot be shut down and started again: the scheduler's
 * task decorator wraps each job in a gate, and while paused, a job whose time comes waits at the gate (on its worker)
 * until {@link #resume()}, so no job is lost; but a run of a repeating job that has run before is skipped instead, so
 * that a long pause (a checkpoint restored days later) does not leave a fixed-rate job a backlog of missed runs to
 * catch up one after another. (The gate cannot tell a repeating job before its second run: one whose first run falls
 * due while paused waits like a one-shot job, then catches up.) {@link PoolkitLifecycle} pauses the scheduler on
 * {@code stop()} and resumes it on {@code start()}; on a context close while stopped it shuts the scheduler down and
 * then resumes it, so held jobs run (or are taken back) like any other.
 *
 * <p>Invariants, all guarded by {@code lock}: a job body runs only while not paused at the moment it passed the gate
 * (a skipped run never enters the body); {@code interrupted} holds the threads of {@code running} that
 * {@link #interruptRunning()} interrupted, whose interrupt status is cleared when their job ends, so that it never
 * reaches the worker's next job;
 * {@code running} holds exactly the threads that passed the gate and have not finished their job's body, so when
 * {@link #awaitIdle} returns {@code true} after {@link #pause()}, no job runs until {@link #resume()}.
 *
 * <p>A job whose worker is interrupted while it waits at the gate runs anyway, with its interrupt status set: skipping
 * it would complete its future as if it had run.
 */
final class SchedulerPause implements UnaryOperator<Runnable> {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition resumed = lock.newCondition();
    private final Condition idle = lock.newCondition();
    private final Set<Thread> running = new HashSet<>();
    private final Set<Thread> interrupted = new HashSet<>();
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
            while (paused) {
                try {
                    resumed.await();
                }
                catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            running.add(Thread.currentThread());
            return true;
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
