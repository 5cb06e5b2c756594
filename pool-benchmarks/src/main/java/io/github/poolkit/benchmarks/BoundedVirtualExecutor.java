package io.github.poolkit.benchmarks;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;

/**
 * The peer a user would write instead of a pool on Java 21: a virtual thread per task, with a {@link Semaphore}
 * bounding how many run at once. {@link #execute} blocks the caller while {@code limit} tasks are running, as a
 * blocking {@code WorkerPool} does.
 *
 * <p>Implementation overview: a permit is taken by the caller before the thread is started and given back by the task's
 * thread when the task ends, whatever the outcome, so at most {@code limit} tasks run at once. The semaphore's release
 * happens-before the next acquire; the executor's own thread start gives the task the caller's memory effects.
 */
final class BoundedVirtualExecutor implements Executor, AutoCloseable {

    private final Semaphore permits;
    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();

    /**
     * @param limit the most tasks running at once
     */
    BoundedVirtualExecutor(int limit) {
        this.permits = new Semaphore(limit);
    }

    /**
     * Runs {@code task} on a new virtual thread once fewer than {@code limit} tasks run.
     *
     * @throws RejectedExecutionException if interrupted while waiting for a permit (the task was not started)
     */
    @Override
    public void execute(Runnable task) {
        try {
            permits.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RejectedExecutionException("interrupted while waiting for a permit", e);
        }
        try {
            threads.execute(() -> {
                try {
                    task.run();
                } finally {
                    permits.release();
                }
            });
        } catch (RuntimeException e) {
            permits.release();
            throw e;
        }
    }

    /** Waits for the running tasks to end, then stops. */
    @Override
    public void close() {
        threads.close();
    }
}
