package io.github.poolkit.internal.schedule;

import io.github.poolkit.internal.CountedRun;
import io.github.poolkit.internal.TaskCounter;
import io.github.poolkit.internal.VarHandles;
import io.github.poolkit.internal.Wrapping;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Delayed;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RunnableScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One job of a {@link JobTimer}: the task, its timing, and the future its caller holds, in a single object that is
 * also the job's {@link TimerHeap} entry and the {@link Runnable} handed to the worker pool. A pending timer therefore
 * costs this object and one heap slot, nothing more.
 *
 * <p>Implementation overview.
 * <ul>
 *   <li>{@code period}: 0 for a one-shot job, {@code p > 0} for a fixed-rate job (next deadline = previous deadline +
 *       p), {@code -p < 0} for a fixed-delay job (next deadline = end of the run + p).</li>
 *   <li>{@code state}, the job state machine; every transition is a CAS or a release store:
 *   <pre>
 *   NEW --run returns (one-shot)----------------------> NORMAL
 *   NEW --run throws, or the pool refuses a one-shot--> EXCEPTIONAL
 *   NEW --cancel(false)-------------------------------> CANCELLED
 *   NEW --cancel(true)--------------------------------> INTERRUPTING --runner interrupted--> INTERRUPTED
 *   </pre>
 *   A job is done once it leaves NEW, and never returns. Where the job is while NEW (in the heap, handed to the pool,
 *   running, or between runs if periodic) is not part of the state: the heap membership is {@code heapIndex}, guarded
 *   by the timer's lock.</li>
 *   <li>{@code body} is what {@link #run()} runs: the caller's task, or for a {@link Callable} a call of it that
 *   stores its result in {@code outcome}, wrapped once by the timer's task decorator when the job is made, on the
 *   scheduling thread (so a repeating job runs the same decorated body every period).</li>
 *   <li>{@code outcome} (the result or the exception) is written plainly just before the CAS that leaves NEW, and read
 *   only after reading a done state, so the CAS publishes it. If the CAS loses to a cancel, the value is dropped.
 *   Only the holder of {@code runner} writes it (cancel never does), so two writes never race.</li>
 *   <li>{@code runner} is CAS-ed from {@code null} to the running thread, so one job never runs on two threads at once
 *   (the pool hands each run over once, but a caller may also call {@link #run()} itself), and a job that
 *   {@link #cancelUnstarted()} holds (runner: a thread never started) is never run. {@code cancel(true)}
 *   interrupts the runner; the runner, after clearing {@code runner}, reads {@code state} and, if an interrupting
 *   cancel won, waits for INTERRUPTED and clears its interrupt status, so the interrupt aimed at this job never
 *   reaches the pool's next task. (Both sides write one volatile, then read the other's, so either the canceller sees
 *   no runner or the runner sees the cancel.)</li>
 *   <li>Waiting in {@link #get()} uses a lock and condition created on first need ({@code waiters}); most jobs are
 *   never waited for and never allocate them. A waiter publishes {@code waiters} and then checks {@code state} under
 *   that lock; a completer moves {@code state} and then reads {@code waiters}, signalling under the lock: either the
 *   waiter sees the completion or the completer sees the waiter, and a signal can not slip in between the check and
 *   the wait.</li>
 *   <li>{@code deadline}, {@code sequence} and {@code heapIndex} are written by the timer under its lock. The racy
 *   reads are {@link #getDelay(TimeUnit)} of a periodic job, which may see the previous or the next deadline (harmless:
 *   the delay is stale the moment it is returned anyway), and a caller's own run of a one-shot job, which takes the
 *   lock to leave the heap only when {@code heapIndex} says it may be there (added under the lock before
 *   {@code schedule} returned).</li>
 * </ul>
 *
 * <p>A job's failure completes this future exceptionally and is then re-thrown from {@link #run()} (checked exceptions
 * wrapped in a {@link CompletionException}), so that the worker pool passes it to its panic handler, and counts it as
 * failed, exactly once. A failure of a job that was cancelled meanwhile is dropped, as the future is already done.
 * Each run is counted on its worker before it completes the future ({@link CountedRun}).
 *
 * @param <V> the result type
 */
public final class ScheduledJob<V> extends TimerHeap.Entry implements RunnableScheduledFuture<V>, Wrapping,
        CountedRun {

    private static final int NEW = 0;
    private static final int NORMAL = 1;
    private static final int EXCEPTIONAL = 2;
    private static final int CANCELLED = 3;
    private static final int INTERRUPTING = 4;
    private static final int INTERRUPTED = 5;

    private static final VarHandle STATE = VarHandles.field(MethodHandles.lookup(), "state", int.class);
    private static final VarHandle RUNNER = VarHandles.field(MethodHandles.lookup(), "runner", Thread.class);
    private static final VarHandle WAITERS = VarHandles.field(MethodHandles.lookup(), "waiters", JobWaiters.class);

    /** The runner while {@link #cancelUnstarted()} holds the job: a thread never started, which no interrupt harms. */
    private static final Thread NEVER_STARTED = Thread.ofVirtual().unstarted(() -> { });

    private final JobTimer timer;
    private final Object task;
    private final Runnable body;
    private final boolean callable;
    private final long period;

    private volatile int state;
    private Object outcome;
    private volatile Thread runner;
    /** Its slot in the timer's batch of due jobs ({@link DueBatch#add}; timer thread), or a stale one, or -1. */
    int batchSlot = -1;
    private volatile JobWaiters waiters;

    /**
     * A job that runs {@code task}, once if {@code period == 0}, else periodically.
     *
     * @param timer  the timer that owns the job
     * @param task   what to run
     * @param period 0, the fixed rate ({@code > 0}) or the negated fixed delay ({@code < 0}), in nanoseconds
     */
    ScheduledJob(JobTimer timer, Runnable task, long period) {
        this.timer = timer;
        this.task = Objects.requireNonNull(task, "job");
        this.body = timer.decorate(task);
        this.callable = false;
        this.period = period;
    }

    /**
     * A one-shot job whose result is {@code task}'s.
     *
     * @param timer the timer that owns the job
     * @param task  what to call
     */
    ScheduledJob(JobTimer timer, Callable<V> task) {
        this.timer = timer;
        this.task = Objects.requireNonNull(task, "job");
        this.body = timer.decorate(() -> outcome = call(task));
        this.callable = true;
        this.period = 0;
    }

    /** Calls the task; a checked exception leaves it wrapped in a CallFailure, which run() unwraps. */
    private static Object call(Callable<?> task) {
        try {
            return task.call();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Exception e) {
            throw new CallFailure(e);
        }
    }

    /**
     * Cancels this job for a {@code shutdownNow}, and its task too if that is a future (as {@code invokeAll} and
     * {@code invokeAny} hand over, or a caller of {@code execute}): it will never run, since the job that would have
     * run it is returned cancelled, so whoever waits for it must stop waiting.
     */
    void cancelWithTask() {
        cancel(false);
        if (task instanceof Future<?> inner) {
            inner.cancel(false);
        }
    }

    /** Carries a callable's checked exception through the decorated body. */
    private static final class CallFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        CallFailure(Exception cause) {
            super(cause);
        }
    }

    /** {@return 0, the fixed rate ({@code > 0}) or the negated fixed delay ({@code < 0}), in nanoseconds} */
    long period() {
        return period;
    }

    /**
     * Runs the job as {@link #run()} does, on a pool's worker, which takes it out of its timer's batch of due jobs
     * (DueBatch#started) and counts the run on {@code counter}: passed down the run, never kept in a field, since the
     * next run may start on another worker before this one's call returns (see CountedRun).
     */
    @Override
    public void runCounted(TaskCounter counter) {
        run(counter);
    }

    /**
     * Runs the job once, unless it is done or already running. A one-shot job completes; a periodic job that returns
     * normally is handed back to its timer for the next run, or cancelled if the timer takes no more periodic runs.
     *
     * @throws RuntimeException or {@link Error}: what the job threw (checked exceptions wrapped in a
     *                          {@link CompletionException}), after this future completed with it
     */
    @Override
    public void run() {
        run(null);
    }

    /** {@link #run()}, counting on {@code counter} if not {@code null} (a pool's worker). */
    private void run(TaskCounter counter) {
        if (counter != null) { // a pool's worker: the executor has taken it, no refusal can follow (see DueBatch)
            timer.due.started(this);
        }
        if (period != 0 && timer.isShutdown()) {
            cancel(false);
            return;
        }
        Thread self = Thread.currentThread();
        if (state != NEW || !RUNNER.compareAndSet(this, null, self)) {
            return;
        }
        if (state != NEW) { // cancelled between the check and the claim: a cancel that returned true wins
            runner = null;
            if (state >= INTERRUPTING) {
                absorbCancelInterrupt();
            }
            return;
        }
        if (period != 0 && timer.isShutdown()) {
            // Shut down between the first check and the claim. The claim, then this read, against the shutdown's
            // write, then its read of runner (cancelForShutdown): either the shutdown cancels this job or it sees it
            // running and leaves it to end its run; never both, so a running job is not done before its run ends.
            runner = null;
            cancel(false);
            if (state >= INTERRUPTING) { // a cancel(true) that saw this thread as the runner: not for its next task
                absorbCancelInterrupt();
            }
            return;
        }
        Throwable failure = null;
        boolean counted = false;
        try {
            body.run();
            // Before the future completes, which then shows it. Nothing of the task runs after this on this worker: a
            // periodic run only reschedules the job or, the timer shut down, cancels it (futureCompleted below).
            counted = counter != null && counter.countEnded(null, true);
            if (period == 0) {
                complete(NORMAL, callable ? outcome : null);
            }
        } catch (Throwable t) {
            Throwable cause = t instanceof CallFailure f ? f.getCause() : t;
            if (!counted && counter != null) {
                counter.countEnded(cause, false); // the failure is re-thrown to the pool's panic handler after
            }
            if (complete(EXCEPTIONAL, cause)) {
                failure = cause;
            }
        } finally {
            runner = null;
            if (state >= INTERRUPTING) {
                absorbCancelInterrupt();
            }
            if (period == 0 && counter == null && heapIndex != TimerHeap.NOT_IN_HEAP) { // racy read: a hint only
                timer.remove(this); // a caller's own run of a job still pending: out of the heap, not run again
            }
        }
        if (failure != null) {
            throw unchecked(failure);
        }
        if (period != 0 && state == NEW && !timer.reschedule(this)) {
            cancel(false);
        }
        if (counted) {
            counter.futureCompleted(); // its job is done or back in the heap: the worker holds no task
        }
    }

    /**
     * Cancels a periodic job for its timer's shutdown, unless it is running now: a running one finishes its run and is
     * cancelled as it ends (the timer then takes no more runs), so it is not done while it still runs, as
     * {@code ScheduledThreadPoolExecutor} reports. Called after the timer stopped taking periodic runs (see run()).
     */
    void cancelForShutdown() {
        if (runner == null) {
            cancel(false);
        }
    }

    /**
     * Cancels the job for a {@code shutdownNow} that returns it, but only if it has not started, so that it never
     * will: this takes {@code runner}, as {@link #run()} must before it runs the body, so of the two only one
     * succeeds. A job that is running (or, one-shot, has run) is left alone.
     *
     * @return whether this call cancelled the job before it started
     */
    boolean cancelUnstarted() {
        if (!RUNNER.compareAndSet(this, null, NEVER_STARTED)) { // not this thread: a cancel(true) would interrupt it
            return false; // running: the run goes on (a shutdownNow interrupts it)
        }
        try {
            return cancel(false);
        } finally {
            runner = null;
        }
    }

    /**
     * Cancels the job if it is not done yet. A pending job leaves the timer's pending set before this returns (in
     * O(log n)) and will never run; a job that is running finishes its current run, interrupted if
     * {@code mayInterruptIfRunning}, and then never runs again.
     *
     * @param mayInterruptIfRunning whether to interrupt the thread running the job
     * @return whether this call cancelled the job (false if it was already done or cancelled)
     */
    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        if (!STATE.compareAndSet(this, NEW, mayInterruptIfRunning ? INTERRUPTING : CANCELLED)) {
            return false;
        }
        timer.remove(this);
        if (mayInterruptIfRunning) {
            try {
                Thread t = runner;
                if (t != null) {
                    t.interrupt();
                }
            } finally {
                STATE.setRelease(this, INTERRUPTED);
            }
        }
        signalWaiters();
        return true;
    }

    /** {@return whether the job was cancelled before it completed (it may still be finishing a run it had begun)} */
    @Override
    public boolean isCancelled() {
        return state >= CANCELLED;
    }

    /** {@return whether the job completed, failed or was cancelled; a periodic job is done only once it stops} */
    @Override
    public boolean isDone() {
        return state != NEW;
    }

    /** {@return whether it completed with a result or a failure, not cancelled: run, or its hand-over refused} */
    boolean isSettled() {
        int s = state;
        return s == NORMAL || s == EXCEPTIONAL;
    }

    /** {@return whether the job repeats (at a fixed rate or with a fixed delay)} */
    @Override
    public boolean isPeriodic() {
        return period != 0;
    }

    /**
     * Waits, interruptibly, until the job is done, and returns its result.
     *
     * @return the result ({@code null} for a {@link Runnable})
     * @throws CancellationException if the job was cancelled
     * @throws ExecutionException    if the job threw (its cause)
     * @throws InterruptedException  if interrupted while waiting
     */
    @Override
    public V get() throws InterruptedException, ExecutionException {
        try {
            return report(awaitDone(false, 0L));
        } catch (TimeoutException impossible) {
            throw new AssertionError("untimed wait timed out", impossible);
        }
    }

    /**
     * Waits, interruptibly, at most {@code timeout} until the job is done, and returns its result.
     *
     * @param timeout the longest wait
     * @param unit    its unit
     * @return the result ({@code null} for a {@link Runnable})
     * @throws CancellationException if the job was cancelled
     * @throws ExecutionException    if the job threw (its cause)
     * @throws InterruptedException  if interrupted while waiting
     * @throws TimeoutException      if the job is not done in time
     */
    @Override
    public V get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        // a negative timeout is spent: never a deadline that wraps round to a distant future
        return report(awaitDone(true, Math.max(0, unit.toNanos(timeout))));
    }

    /**
     * The time left until the job is due (for a periodic job: its next run), negative when it is overdue.
     *
     * @param unit the unit of the answer
     * @return the delay
     */
    @Override
    public long getDelay(TimeUnit unit) {
        return unit.convert(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
    }

    /**
     * Orders by time due; jobs of one timer with equal deadlines are ordered by when they were scheduled.
     *
     * @param other another delayed object
     * @return negative, zero or positive as this is due before, with or after {@code other}
     */
    @Override
    public int compareTo(Delayed other) {
        if (other == this) {
            return 0;
        }
        if (other instanceof ScheduledJob<?> job) {
            long d = deadline - job.deadline;
            return d != 0 ? (d < 0 ? -1 : 1) : Long.compare(sequence, job.sequence);
        }
        return Long.compare(getDelay(TimeUnit.NANOSECONDS), other.getDelay(TimeUnit.NANOSECONDS));
    }

    /** {@return the job as it was scheduled (decorated, if the scheduler has a decorator)} */
    @Override
    public Object wrapped() {
        return task;
    }

    @Override
    public String toString() {
        String status = switch (state) {
            case NEW -> "pending, delay " + getDelay(TimeUnit.NANOSECONDS) + "ns";
            case NORMAL -> "completed";
            case EXCEPTIONAL -> "failed: " + outcome;
            default -> "cancelled";
        };
        return "ScheduledJob[" + status + (period == 0 ? "" : ", periodic") + ", " + task + "]";
    }

    /**
     * Completes the job exceptionally without running it (its timer could not hand it to the pool).
     *
     * @param reason why it could not run
     */
    void fail(Throwable reason) {
        if (RUNNER.compareAndSet(this, null, Thread.currentThread())) { // else it is running after all: let it finish
            try {
                complete(EXCEPTIONAL, reason);
            } finally {
                runner = null;
            }
        }
    }

    /** Leaves NEW for {@code done} with {@code value}; false if a cancel got there first. */
    private boolean complete(int done, Object value) {
        outcome = value;
        if (!STATE.compareAndSet(this, NEW, done)) {
            outcome = null;
            return false;
        }
        if (period != 0) {
            timer.remove(this); // a periodic job that failed: the timer no longer tracks it
        }
        signalWaiters();
        return true;
    }

    /** Waits until a cancel(true) has interrupted this thread (or chose not to), then clears that interrupt. */
    private void absorbCancelInterrupt() {
        while (state == INTERRUPTING) {
            Thread.yield(); // the canceller is between its interrupt and publishing INTERRUPTED
        }
        Thread.interrupted();
    }

    private void signalWaiters() {
        JobWaiters w = waiters;
        if (w != null) {
            w.signalAll();
        }
    }

    private int awaitDone(boolean timed, long nanos) throws InterruptedException, TimeoutException {
        if (state == NEW) {
            JobWaiters w = waiters;
            if (w == null && !WAITERS.compareAndSet(this, null, w = new JobWaiters())) {
                w = waiters;
            }
            w.await(() -> state == NEW, timed, nanos);
        }
        return state;
    }

    @SuppressWarnings("unchecked")
    private V report(int s) throws ExecutionException {
        return switch (s) {
            case NORMAL -> (V) outcome;
            case EXCEPTIONAL -> throw new ExecutionException((Throwable) outcome);
            default -> throw new CancellationException("job was cancelled");
        };
    }

    private static RuntimeException unchecked(Throwable t) {
        if (t instanceof RuntimeException e) {
            return e;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new CompletionException("scheduled job threw a checked exception", t);
    }
}
