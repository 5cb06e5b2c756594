package io.github.poolkit;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.github.poolkit.internal.SubmittedTask;

/**
 * The pools' {@code invokeAll} and {@code invokeAny}. Timed ones whose timeout also bounds the time spent blocked in
 * {@code execute} on a full pool (those of {@link java.util.concurrent.AbstractExecutorService} only time the wait
 * for results): each task is submitted with what is left of the timeout; a task that cannot be placed in time counts
 * as not finished in time, and is never run. Timed or not, a caller interrupted while blocked handing a task to a full
 * pool gets the {@link InterruptedException} the {@code ExecutorService} contract promises, not the
 * {@code RejectedExecutionException} that {@code execute} throws then ({@link #interruptible}).
 */
final class TimedInvocation {

    /** An untimed {@code invokeAll}/{@code invokeAny} of {@code AbstractExecutorService}. */
    @FunctionalInterface
    interface Invocation<R, X extends Exception> {
        R call() throws InterruptedException, X;
    }

    /** Executes a task, blocking at most the given time on a full pool, else throwing {@link PoolOverloadException}. */
    @FunctionalInterface
    interface TimedExecutor {
        void execute(Runnable task, long timeoutNanos);
    }

    private TimedInvocation() {
    }

    /**
     * Runs an untimed invocation, turning an interrupt while blocked in {@code execute} into the
     * {@link InterruptedException} the {@code ExecutorService} contract promises (the tasks are cancelled by then).
     */
    static <R, X extends Exception> R interruptible(Invocation<R, X> invocation) throws InterruptedException, X {
        try {
            return invocation.call();
        } catch (RejectedExecutionException e) {
            throw interruptedOr(e);
        }
    }

    /**
     * @return an {@link InterruptedException} (the interrupt status cleared, as its thrower's is) if {@code e} says the
     *         caller was interrupted while blocked in {@code execute}
     * @throws RejectedExecutionException {@code e} itself otherwise
     */
    private static InterruptedException interruptedOr(RejectedExecutionException e) {
        if (!(e.getCause() instanceof InterruptedException)) {
            throw e;
        }
        Thread.interrupted();
        InterruptedException interrupted = new InterruptedException("interrupted while waiting to hand a task to the"
                + " pool; the tasks were cancelled");
        interrupted.initCause(e);
        return interrupted;
    }

    /** As {@link java.util.concurrent.ExecutorService#invokeAll(Collection, long, TimeUnit)}. */
    static <T> List<Future<T>> invokeAll(TimedExecutor executor, Collection<? extends Callable<T>> tasks,
                                         long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + Math.max(0, unit.toNanos(timeout)); // a negative timeout is spent
        List<Future<T>> futures = new ArrayList<>(tasks.size());
        for (Callable<T> task : tasks) {
            futures.add(new SubmittedTask<>(task)); // overdue reports name the task, not the future
        }
        boolean done = false;
        try {
            for (Future<T> f : futures) {
                long left = deadline - System.nanoTime();
                if (left <= 0 || !placed(executor, (Runnable) f, deadline, true)) {
                    return futures; // the finally block cancels what has not finished
                }
            }
            for (Future<T> f : futures) {
                if (!f.isDone()) {
                    try {
                        f.get(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
                    } catch (ExecutionException | java.util.concurrent.CancellationException ignored) {
                        // reported through the future
                    } catch (TimeoutException late) {
                        return futures;
                    }
                }
            }
            done = true;
            return futures;
        } finally {
            if (!done) {
                futures.forEach(f -> f.cancel(true));
            }
        }
    }

    /** As {@link java.util.concurrent.ExecutorService#invokeAny(Collection, long, TimeUnit)}. */
    static <T> T invokeAny(TimedExecutor executor, Collection<? extends Callable<T>> tasks, long timeout,
                           TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        return invokeAny(executor, tasks, System.nanoTime() + Math.max(0, unit.toNanos(timeout)), true);
    }

    /**
     * As {@link java.util.concurrent.ExecutorService#invokeAny(Collection)}: the timed one without a deadline (rather
     * than {@code AbstractExecutorService}'s, whose futures overdue reports could not see through).
     */
    static <T> T invokeAny(TimedExecutor executor, Collection<? extends Callable<T>> tasks)
            throws InterruptedException, ExecutionException {
        try {
            return invokeAny(executor, tasks, 0, false);
        } catch (TimeoutException impossible) {
            throw new AssertionError("an invokeAny without a deadline timed out", impossible);
        }
    }

    /** {@code invokeAny}, until {@code deadline} if {@code timed}, else without a time limit. */
    private static <T> T invokeAny(TimedExecutor executor, Collection<? extends Callable<T>> tasks, long deadline,
                                   boolean timed) throws InterruptedException, ExecutionException, TimeoutException {
        if (tasks.isEmpty()) {
            throw new IllegalArgumentException("invokeAny needs at least one task");
        }
        BlockingQueue<Future<T>> finished = new LinkedBlockingQueue<>();
        List<Future<T>> futures = new ArrayList<>(tasks.size());
        Iterator<? extends Callable<T>> next = tasks.iterator();
        ExecutionException lastFailure = null;
        PoolOverloadException refused = null; // what stopped the placing, if the pool's own wait ran out
        int active = 0;
        boolean placing = true; // false once a task could not be handed over: the deadline or the pool's wait ran out
        try {
            for (;;) {
                Future<T> f = finished.poll();
                if (f == null) {
                    if (placing && next.hasNext()) {
                        FutureTask<T> task = new QueueingFuture<>(next.next(), finished);
                        futures.add(task);
                        try {
                            if (placed(executor, task, deadline, timed)) {
                                active++;
                            } else {
                                placing = false; // one that finished meanwhile may still be the answer (polled above)
                            }
                        } catch (PoolOverloadException overloaded) {
                            if (active == 0) {
                                throw overloaded;
                            }
                            refused = overloaded; // the tasks already placed may still answer: wait for them
                            placing = false;
                        }
                        continue;
                    }
                    if (active == 0) {
                        if (refused != null) {
                            if (lastFailure != null) {
                                refused.addSuppressed(lastFailure); // what the tasks handed over threw
                            }
                            throw refused;
                        }
                        if (!placing) {
                            throw new TimeoutException("invokeAny: no task finished in time");
                        }
                        break;
                    }
                    f = timed ? finished.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS) : finished.take();
                    if (f == null) {
                        throw new TimeoutException("invokeAny: no task finished in time");
                    }
                }
                active--;
                try {
                    return f.get();
                } catch (ExecutionException e) {
                    lastFailure = e;
                } catch (RuntimeException e) {
                    lastFailure = new ExecutionException(e);
                }
            }
            throw lastFailure != null ? lastFailure : new ExecutionException(new IllegalStateException(
                    "invokeAny: no task completed"));
        } finally {
            futures.forEach(f -> f.cancel(true));
        }
    }

    /**
     * Executes {@code task} with what is left until {@code deadline} if {@code timed}, else without a time limit.
     *
     * @return false if the deadline passed while the pool was full (the task was not accepted)
     * @throws PoolOverloadException for any other overload (e.g. a nonblocking pool), and the pool's other errors
     * @throws InterruptedException   if interrupted while blocked in {@code execute}
     */
    private static boolean placed(TimedExecutor executor, Runnable task, long deadline, boolean timed)
            throws InterruptedException {
        try {
            executor.execute(task, timed ? deadline - System.nanoTime() : Long.MAX_VALUE);
            return true;
        } catch (PoolOverloadException overloaded) {
            if (timed && deadline - System.nanoTime() <= 0) {
                return false;
            }
            throw overloaded;
        } catch (RejectedExecutionException e) {
            throw interruptedOr(e);
        }
    }

    /** A future that puts itself in a queue when it finishes, for {@link #invokeAny}; overdue reports name its task. */
    private static final class QueueingFuture<T> extends SubmittedTask<T> {

        private final BlockingQueue<Future<T>> finished;

        QueueingFuture(Callable<T> task, BlockingQueue<Future<T>> finished) {
            super(task);
            this.finished = finished;
        }

        @Override
        protected void done() {
            finished.add(this);
        }
    }
}
