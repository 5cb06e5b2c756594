package io.github.poolkit.internal.schedule;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.UnaryOperator;

import io.github.poolkit.internal.NamedThreadFactory;

/**
 * The engine of a delay scheduler: the pending jobs, ordered by deadline in a {@link TimerHeap}, and one timer thread
 * that waits for the first deadline and hands each due job to an executor (the scheduler's worker pool). The executor
 * must never block in {@code execute} (an unbounded queue), so a slow or busy pool delays jobs but never stalls the
 * timer thread or the threads that schedule.
 *
 * <p>Implementation overview.
 * <ul>
 *   <li>{@code lock} guards the heap (and so every pending job's deadline, sequence and heap index),
 *       {@code handedOver}, {@code due}, {@code nextSequence} and {@code runState} writes. It is held only for
 *       O(log n) heap operations and O(1) bookkeeping, never while calling the executor or a job (shutdown's O(n)
 *       sweeps excepted).</li>
 *   <li>Invariant: a job is in the heap exactly when it is pending (scheduled with a positive delay, or with none
 *       but behind jobs due earlier, or periodic between runs, and not yet due-and-taken, cancelled or swept by a
 *       shutdown); {@link #pending()} is the heap's size read under the lock, so it is exact at the moment it is
 *       read.</li>
 *   <li>{@code available} is signalled when a new job becomes the head of the heap (the timer may have to wake up
 *       earlier) and when the run state changes; the timer thread waits on it with a timeout equal to the head's
 *       delay. Adding a job that is not the new head signals nothing, so most schedules touch no other thread.</li>
 *   <li>Due jobs are taken in batches ({@link DueBatch}) under the lock and handed to the executor after it is
 *       released. A job is due when {@code nanoTime() - deadline >= 0}, checked after every wake-up (timed waits may
 *       return early), so no job ever starts before its deadline.</li>
 *   <li>Due jobs reach the executor in deadline order (ties in scheduling order). A job with a delay &lt;= 0
 *       bypasses the heap and the timer thread (the scheduling thread hands it to the executor itself) only when no
 *       job that fell due before it still waits for the timer: the heap's head is not due and {@code due} is empty,
 *       checked under the lock. Otherwise it is put in the heap, due at once, behind those jobs.</li>
 *   <li>Invariant: a periodic job that is not done is either in the heap or in {@code handedOver} (handed to the
 *       executor: waiting in its queue, running, or between its run and its rescheduling; or refused by it, then
 *       rescheduled or cancelled by the thread that handed it over, see {@link RefusedRun}), never both. It moves
 *       between the two under the lock: into {@code handedOver} when the timer takes it from the heap (or when it is
 *       scheduled with no delay), back into the heap in {@link #reschedule}, out of both in {@link #remove} when it
 *       is done. So {@link #shutdown()} finds every live periodic job under the lock and cancels it at once, including
 *       one that is due and waits in the executor's queue for a busy worker.</li>
 *   <li>{@code due} holds the batch of due jobs the timer thread has taken from the heap and not yet handed to the
 *       executor, each job until the executor has taken it (or it was skipped, done meanwhile); {@link #shutdownNow()}
 *       takes the jobs still there and returns those it can cancel before they start ({@link DueBatch}).</li>
 *   <li>{@code runState}: RUNNING, SHUTDOWN, STOP, in that order; it only ever increases. In SHUTDOWN no job is
 *       accepted (refused with {@link ShutDown}), every periodic job that was not done has been cancelled
 *       (a running one finishes its run), and the one-shot jobs left in the heap still run; the timer thread exits
 *       once the heap is empty (it never grows again). In STOP the heap has been emptied and its jobs cancelled; the
 *       timer thread exits at once. The timer is finished ({@link TimerEnd#finish()}: the executor shut down, queued
 *       jobs still run unless shutdownNow took them, then the timer marked done) by the timer thread when it exits,
 *       or at once by {@code shutdown} or {@code shutdownNow} when the heap is empty and the timer thread has nothing
 *       left to hand over (every job of its batch started, run, refused or cancelled, but the one being handed over
 *       only once started or settled: {@link DueBatch#nothingLeftToHandOver}): then nothing can reach the executor
 *       through the timer any more, and a scheduler with nothing pending and nothing running is terminated when
 *       {@code shutdown} returns, also right after its last job's {@code get()}. The timer is terminated when it is
 *       done and the executor has terminated. {@code runState} is volatile: racy readers ({@link #isShutdown()}, which
 *       periodic runs read) see either side of a transition, which each tolerates. A job with no delay, accepted under
 *       the lock, reaches the executor after the lock is released: if a shutdown finished the timer meanwhile, the
 *       executor rejects it and the caller hears of it. A refusal seen while RUNNING means no worker thread could be
 *       started: a periodic job's run is then skipped as the timer's would be ({@link RefusedRun}), and a one-shot
 *       job's caller hears of it.</li>
 *   <li>The timer thread ignores interrupts: only the run state stops it. If it ever dies of an unexpected
 *       exception, it moves to STOP and cancels what is left, so no future waits forever and no job is accepted that
 *       would never run.</li>
 * </ul>
 */
public final class JobTimer {

    /** The longest delay or period honoured, about 146 years; longer ones are capped to it (see {@link TimerHeap}). */
    public static final long MAX_DELAY_NANOS = Long.MAX_VALUE >>> 1;

    private static final System.Logger LOG = System.getLogger("io.github.poolkit");
    private static final int RUNNING = 0;
    private static final int SHUTDOWN = 1;
    private static final int STOP = 2;

    private final String name;
    private final ExecutorService executor;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition available = lock.newCondition();
    private final TimerHeap<ScheduledJob<?>> heap = new TimerHeap<>();
    private final Set<ScheduledJob<?>> handedOver = new HashSet<>();
    private final UnaryOperator<Runnable> decorator;
    private final Thread thread;
    final DueBatch due = new DueBatch(); // a pool's worker that starts a job takes it out too (ScheduledJob#run)
    private final TimerEnd end;

    private long nextSequence;
    private volatile int runState = RUNNING;

    private JobTimer(String name, ExecutorService executor, UnaryOperator<Runnable> decorator) {
        this.name = Objects.requireNonNull(name, "name");
        this.executor = Objects.requireNonNull(executor, "executor");
        this.decorator = decorator;
        this.end = new TimerEnd(executor);
        this.thread = NamedThreadFactory.applicationDaemon(name + "-timer", this::timerLoop);
    }

    /**
     * Creates a timer and starts its thread, a platform daemon thread named {@code <name>-timer} (daemon, so that a
     * forgotten scheduler does not keep the JVM alive; its jobs run on the executor's threads, which it may start).
     *
     * @param name     the scheduler's name, used in the thread's name and in messages
     * @param executor where due jobs run; its {@code execute} must never block; the timer owns it and shuts it down
     * @param decorator wraps each job once, when it is scheduled, on the scheduling thread; {@code null} for none
     * @return the running timer
     */
    public static JobTimer start(String name, ExecutorService executor, UnaryOperator<Runnable> decorator) {
        JobTimer timer = new JobTimer(name, executor, decorator);
        timer.thread.start();
        return timer;
    }

    /**
     * Schedules a one-shot or periodic job running {@code task}.
     *
     * @param task       what to run
     * @param delayNanos the delay before the first run; {@code <= 0} hands the job to the executor at once
     * @param period     0 for one run, {@code p > 0} for fixed rate p, {@code -p < 0} for fixed delay p (nanoseconds,
     *                   {@code p <= MAX_DELAY_NANOS})
     * @return the job
     * @throws RejectedExecutionException if the timer is shut down, or refused a one-shot job with no delay (no thread)
     */
    public ScheduledJob<Void> schedule(Runnable task, long delayNanos, long period) {
        return enqueue(new ScheduledJob<>(this, task, period), delayNanos);
    }

    /**
     * Schedules a one-shot job calling {@code task}.
     *
     * @param task       what to call
     * @param delayNanos the delay; {@code <= 0} hands the job to the executor at once
     * @param <V>        the result type
     * @return the job
     * @throws RejectedExecutionException if the timer is shut down, or refused the job with no delay (no thread)
     */
    public <V> ScheduledJob<V> schedule(Callable<V> task, long delayNanos) {
        return enqueue(new ScheduledJob<>(this, task), delayNanos);
    }

    /** {@return the number of pending jobs (see the class comment), exact when read} */
    public int pending() {
        lock.lock();
        try {
            return heap.size();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Stops accepting jobs and cancels every periodic job that is not done: pending or due ones at once, a running one
     * when its run ends (not before). Pending one-shot jobs still run; with none, the timer finishes before this
     * returns, without waiting for any job. A later call changes no job; it finishes the timer if nothing is left to
     * hand over by then, or, finished already, shuts the executor down again (see {@link TimerEnd#finish()}).
     */
    public void shutdown() {
        boolean finishNow;
        lock.lock();
        try {
            if (runState == RUNNING) {
                runState = SHUTDOWN;
                List<ScheduledJob<?>> periodic = heap.removeIf(ScheduledJob::isPeriodic);
                periodic.addAll(handedOver);
                // under the lock: the timer thread, which exits on an empty heap and so lets the executor terminate,
                // must not see the heap empty before they are done (a cancel runs none of the caller's code)
                periodic.forEach(ScheduledJob::cancelForShutdown); // a running one is done when its run ends
                available.signal();
            }
            // after the cancels (a periodic job of the batch is done now); also on a later call (see TimerEnd)
            finishNow = heap.isEmpty() && due.nothingLeftToHandOver();
        } finally {
            lock.unlock();
        }
        if (finishNow) {
            end.finish();
        }
    }

    /**
     * Stops accepting jobs, cancels every pending job and every job waiting in the executor's queue, and interrupts
     * running ones (the executor's {@code shutdownNow}).
     *
     * @return the cancelled jobs, each once: the pending ones (with the due ones the timer thread had taken, and was
     *         handing over, that had not started), then those taken from the executor's queue
     */
    public List<Runnable> shutdownNow() {
        List<ScheduledJob<?>> drained;
        List<ScheduledJob<?>> taken = new ArrayList<>();
        boolean finishNow;
        lock.lock();
        try {
            runState = STOP;
            drained = heap.clear();
            finishNow = due.nothingLeftToHandOver();
            due.claimAll(taken); // taken from the heap by the timer thread, not (or only just) handed over
            available.signal();
        } finally {
            lock.unlock();
        }
        // Invariant: every accepted job runs or is returned, once. The heap's jobs and the executor's queued ones
        // never started; a job of the batch (perhaps being handed over right now, or just handed over) is returned
        // only if it is cancelled here before it starts, which excludes its run (ScheduledJob#cancelUnstarted); a job
        // found twice (handed over and queued, or run and rescheduled) is returned once.
        Set<Runnable> cancelled = new LinkedHashSet<>(drained);
        for (ScheduledJob<?> job : taken) {
            if (job.cancelUnstarted()) {
                cancelled.add(job);
            }
        }
        cancelled.addAll(executor.shutdownNow());
        for (Runnable job : cancelled) {
            if (job instanceof ScheduledJob<?> scheduled) {
                scheduled.cancelWithTask();
            }
        }
        if (finishNow) {
            end.finish();
        }
        return new ArrayList<>(cancelled);
    }

    /** {@return whether {@link #shutdown()} or {@link #shutdownNow()} was called: periodic jobs then run no more} */
    public boolean isShutdown() {
        return runState != RUNNING;
    }

    /** {@return whether the timer thread has exited and the executor has terminated} */
    public boolean isTerminated() {
        return end.isTerminated();
    }

    /**
     * Waits until {@link #isTerminated()}, or the timeout elapses.
     *
     * @param timeout the longest wait
     * @param unit    its unit
     * @return whether terminated
     * @throws InterruptedException if interrupted while waiting
     */
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        return end.awaitTermination(timeout, unit);
    }

    @Override
    public String toString() {
        String state = (runState == RUNNING) ? "running" : (runState == SHUTDOWN) ? "shutting down" : "stopped";
        return "JobTimer[" + name + ", " + (isTerminated() ? "terminated" : state) + ", pending=" + pending() + "]";
    }

    /**
     * Puts a periodic job that has just run back into the heap, due one period after its last deadline (fixed rate)
     * or after now (fixed delay). A fixed-rate job that has fallen behind is due at once. Called by the job, on the
     * thread that ran it.
     *
     * @param job the job
     * @return false if the job must be cancelled because the timer takes no more periodic runs
     */
    boolean reschedule(ScheduledJob<?> job) {
        long period = job.period();
        long now = System.nanoTime();
        lock.lock();
        try {
            if (runState != RUNNING) {
                return false;
            }
            // skip a job cancelled meanwhile, or already re-added by a concurrent run() of the same job
            if (!job.isDone() && job.heapIndex == TimerHeap.NOT_IN_HEAP) {
                handedOver.remove(job);
                job.deadline = period > 0 ? job.deadline + period : now - period;
                insert(job);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Forgets a job that is done (cancelled, or a periodic job that failed): removes it from the heap in O(log n), or
     * from the periodic jobs handed to the executor.
     *
     * @param job the job
     */
    void remove(ScheduledJob<?> job) {
        lock.lock();
        try {
            if (job.isPeriodic()) {
                handedOver.remove(job);
            }
            if (heap.remove(job) && runState != RUNNING && heap.isEmpty()) {
                available.signal(); // shutting down: the timer waits for nothing now and may finish
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Wraps a job's body in the decorator, if there is one. Called on the scheduling thread, once per job, once the
     * timer is seen accepting jobs (a job refused then is not decorated; {@code enqueue} checks again, under the lock).
     *
     * @param body what the job runs
     * @return the decorated body
     * @throws ShutDown if the timer is shut down
     */
    Runnable decorate(Runnable body) {
        if (runState != RUNNING) {
            throw new ShutDown(name);
        }
        return decorator == null ? body
                : Objects.requireNonNull(decorator.apply(body), "the task decorator returned null; return a Runnable");
    }

    private <V> ScheduledJob<V> enqueue(ScheduledJob<V> job, long delayNanos) {
        long now = System.nanoTime();
        boolean direct = delayNanos <= 0L;
        job.deadline = direct ? now : now + Math.min(delayNanos, MAX_DELAY_NANOS);
        lock.lock();
        try {
            if (runState != RUNNING) {
                throw new ShutDown(name);
            }
            // Invariant: jobs reach the executor in deadline order. A job with no delay goes straight to it only if no
            // job that fell due before it still waits for the timer (due in the heap, or in the batch being handed
            // over); else it joins the heap, due now, behind them (see the class comment).
            direct = direct && due.isEmpty() && (heap.peek() == null || heap.peek().deadline - now > 0L);
            if (!direct) {
                insert(job);
            } else {
                job.sequence = nextSequence++; // its own number too, as insert gives: no two jobs compare equal
                if (job.isPeriodic()) {
                    handedOver.add(job); // before execute: shutdown must find it (see the class comment)
                }
            }
        } finally {
            lock.unlock();
        }
        if (direct) {
            try {
                executor.execute(job); // unbounded queue: never blocks
            } catch (RejectedExecutionException e) { // the timer finished, or no worker thread could be started
                // runState is RUNNING until the timer can finish, so a refusal seen then is for want of a thread.
                RefusedRun.direct(this, name, job, e, runState == RUNNING);
            }
        }
        return job;
    }

    /** Adds a job whose deadline is set; wakes the timer if the job is the new head. Lock held. */
    private void insert(ScheduledJob<?> job) {
        job.sequence = nextSequence++;
        heap.add(job);
        if (job.heapIndex == 0) {
            available.signal();
        }
    }

    private void timerLoop() {
        boolean normalExit = false;
        ScheduledJob<?> current = null; // being handed over: should dispatch throw, exit() cancels it
        try {
            int n;
            while ((n = awaitDueJobs()) > 0) {
                for (int i = 0; i < n; i++) {
                    due.handing(i); // before the job's state is read: a shutdown then leaves its hand-over alone
                    current = due.get(i); // stays in the batch while handed over: shutdownNow may take it (DueBatch)
                    if (current != null) { // else shutdownNow took it
                        if (!current.isDone()) { // cancelled or run meanwhile: nothing to hand over
                            dispatch(current);
                        }
                        due.claim(i); // handed over: no longer the batch's (a no-op if shutdownNow took it meanwhile)
                    }
                    current = null;
                }
            }
            normalExit = true;
        } catch (Throwable t) {
            LOG.log(System.Logger.Level.ERROR, "the timer thread of scheduler '" + name + "' failed; the scheduler"
                    + " stops and cancels its pending jobs", t);
        } finally {
            exit(normalExit, current);
        }
    }

    /**
     * Waits until the head of the heap is due, then moves due jobs (at most a full batch) into {@code due}.
     *
     * @return how many jobs were taken, or 0 when the timer thread must exit
     */
    private int awaitDueJobs() {
        lock.lock();
        try {
            due.clear(); // the previous batch, if any, has been handed over
            for (;;) {
                if (runState == STOP) {
                    return 0;
                }
                ScheduledJob<?> head = heap.peek();
                if (head == null) {
                    if (runState == SHUTDOWN) {
                        return 0;
                    }
                    available.awaitUninterruptibly();
                    continue;
                }
                long now = System.nanoTime();
                long wait = head.deadline - now;
                if (wait > 0L) {
                    head = null; // the wait may be long, and the job cancelled meanwhile: keep it reachable no more
                    awaitIgnoringInterrupts(wait);
                    continue;
                }
                do {
                    ScheduledJob<?> job = heap.poll();
                    if (job.isPeriodic()) {
                        handedOver.add(job);
                    }
                    due.add(job);
                    head = heap.peek();
                } while (!due.isFull() && head != null && head.deadline - now <= 0L);
                return due.size();
            }
        } finally {
            lock.unlock();
        }
    }

    private void awaitIgnoringInterrupts(long nanos) {
        try {
            available.awaitNanos(nanos);
        } catch (InterruptedException ignored) {
            // only the run state stops the timer; the caller re-checks everything
        }
    }

    /**
     * Hands a due job to the executor; a refusal (no worker thread could be started) is settled by {@link RefusedRun}.
     * Invariant: that is done under the lock while the timer is not stopped; once it is, the job is
     * {@link #shutdownNow()}'s, which took it from the batch as it stopped and returns it, never also failed here.
     */
    private void dispatch(ScheduledJob<?> job) {
        try {
            executor.execute(job);
        } catch (RejectedExecutionException e) {
            lock.lock();
            try {
                if (runState == STOP || job.isDone()) {
                    // Refused because shutdownNow shut the executor down, or while it ran: it returns the job. Or
                    // done already (run by its holder, or cancelled), so that a shutdown could finish the timer.
                    return;
                }
                RefusedRun.settle(this, job, e);
            } finally {
                lock.unlock();
            }
            RefusedRun.log(name, job, e); // outside the lock: a logging handler may take its time
        }
    }

    /**
     * Ends the timer: after a failure, stops everything and cancels what is left (in the heap, the job being handed
     * over, and the rest of its batch); then shuts the executor down and marks the timer done.
     */
    private void exit(boolean normalExit, ScheduledJob<?> current) {
        List<ScheduledJob<?>> orphans = new ArrayList<>();
        if (!normalExit) {
            if (current != null) {
                orphans.add(current);
            }
            lock.lock();
            try {
                runState = STOP;
                orphans.addAll(heap.clear());
                due.claimAll(orphans);
            } finally {
                lock.unlock();
            }
        }
        try {
            orphans.forEach(job -> job.cancel(false));
        } finally {
            end.finish();
        }
    }

}
