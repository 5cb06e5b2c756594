package io.github.poolkit;

import io.github.poolkit.internal.SubmittedTask;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RunnableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * What poolkit's {@code ExecutorService}s ({@link WorkerPool}, {@link MultiPool}, {@link DelayScheduler}) share beyond
 * {@link AbstractExecutorService}: {@code invokeAll} and {@code invokeAny} whose timeout also bounds the time spent
 * blocked handing tasks to a full pool, and which throw {@link InterruptedException} when the caller is interrupted
 * while blocked there ({@link TimedInvocation}), and futures that overdue reports see through to the task. A subclass
 * says how to execute with a limit on that wait.
 */
abstract class PoolExecutorService extends AbstractExecutorService {

    /**
     * As {@link #execute(Runnable)}, blocking at most {@code timeoutNanos} on a full pool.
     *
     * @param task         the task
     * @param timeoutNanos the longest wait; {@code Long.MAX_VALUE} for none
     */
    abstract void execute(Runnable task, long timeoutNanos);

    /**
     * As {@link java.util.concurrent.ExecutorService#invokeAll(Collection)}; a caller interrupted while blocked handing
     * a task to a full pool gets {@link InterruptedException}, and the tasks not done yet are cancelled.
     */
    @Override
    public <T> List<Future<T>> invokeAll(Collection<? extends Callable<T>> tasks) throws InterruptedException {
        return TimedInvocation.interruptible(() -> super.invokeAll(tasks));
    }

    /**
     * As {@link java.util.concurrent.ExecutorService#invokeAny(Collection)}; a caller interrupted while blocked handing
     * a task to a full pool gets {@link InterruptedException}. A task that cannot be handed over (the pool's
     * {@code maxWait} ran out, or a {@code nonblocking} pool is full) stops the handing over: the tasks handed over
     * before may still answer, and its {@link PoolOverloadException} is thrown only if none succeeds.
     */
    @Override
    public <T> T invokeAny(Collection<? extends Callable<T>> tasks) throws InterruptedException, ExecutionException {
        return TimedInvocation.invokeAny(this::execute, tasks);
    }

    /**
     * As {@link java.util.concurrent.ExecutorService#invokeAll(Collection, long, TimeUnit)}; the timeout also bounds
     * the time spent blocked on a full pool: tasks that could not be placed in time are returned cancelled, never run.
     */
    @Override
    public <T> List<Future<T>> invokeAll(Collection<? extends Callable<T>> tasks, long timeout, TimeUnit unit)
            throws InterruptedException {
        return TimedInvocation.invokeAll(this::execute, tasks, timeout, unit);
    }

    /**
     * As {@link java.util.concurrent.ExecutorService#invokeAny(Collection, long, TimeUnit)}; the timeout also bounds
     * the time spent blocked on a full pool. A task that cannot be handed over in time, or at all (as in
     * {@link #invokeAny(Collection)}), stops the handing over: the tasks handed over before may still answer.
     */
    @Override
    public <T> T invokeAny(Collection<? extends Callable<T>> tasks, long timeout, TimeUnit unit)
            throws InterruptedException, ExecutionException, TimeoutException {
        return TimedInvocation.invokeAny(this::execute, tasks, timeout, unit);
    }

    /** {@return the future {@code submit} returns: it runs {@code runnable}, which overdue reports name} */
    @Override
    protected <T> RunnableFuture<T> newTaskFor(Runnable runnable, T value) {
        return new SubmittedTask<>(runnable, value);
    }

    /** {@return the future {@code submit} returns: it runs {@code callable}, which overdue reports name} */
    @Override
    protected <T> RunnableFuture<T> newTaskFor(Callable<T> callable) {
        return new SubmittedTask<>(callable);
    }
}
