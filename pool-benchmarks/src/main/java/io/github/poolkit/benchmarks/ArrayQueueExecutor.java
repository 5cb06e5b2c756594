package io.github.poolkit.benchmarks;

import org.jctools.queues.MpmcUnboundedXaddArrayQueue;

import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.locks.LockSupport;

/**
 * Not a product: the smallest fixed thread pool over an array-based multi-producer multi-consumer queue (JCTools'
 * {@link MpmcUnboundedXaddArrayQueue}), to measure how much faster than {@code ThreadPoolExecutor} a FIFO executor
 * can get on this machine once its queue stops paying a lock or a node per task. It has no capacity bound, no
 * blocking, no expiry, no tuning and no listener: everything a {@code WorkerPool} must also do is left out, so its
 * figure is an upper bound for a {@code WorkerPool} built on such a queue.
 *
 * <p>Implementation overview: workers poll the queue, spin briefly when it is empty, then register in
 * {@link #sleepers} and look at the queue once more before they park. {@link #execute} appends, then unparks one
 * registered sleeper if there is one. Each side writes (append; register), then reads what the other writes (the
 * sleepers; the queue), and those accesses are sequentially consistent, so either the producer sees the sleeper or
 * the sleeper sees the task: no wake-up is lost. A stray unpark (a sleeper that found a task on its second look but
 * was popped meanwhile) only makes a later park return at once, and the worker polls again.
 */
final class ArrayQueueExecutor implements Executor, AutoCloseable {

    private static final int SPINS = 128;

    private final MpmcUnboundedXaddArrayQueue<Runnable> queue = new MpmcUnboundedXaddArrayQueue<>(1024);
    private final ConcurrentLinkedDeque<Thread> sleepers = new ConcurrentLinkedDeque<>();
    private final Thread[] workers;
    private volatile boolean closed;

    /**
     * Starts {@code size} platform worker threads.
     *
     * @param size how many workers
     */
    ArrayQueueExecutor(int size) {
        workers = new Thread[size];
        for (int i = 0; i < size; i++) {
            workers[i] = Thread.ofPlatform().name("array-queue-", i).daemon().start(this::work);
        }
    }

    @Override
    public void execute(Runnable task) {
        if (closed) {
            throw new RejectedExecutionException("closed");
        }
        queue.offer(task);
        if (!sleepers.isEmpty()) {
            Thread sleeper = sleepers.pollFirst();
            if (sleeper != null) {
                LockSupport.unpark(sleeper);
            }
        }
    }

    private void work() {
        Thread me = Thread.currentThread();
        while (!closed || !queue.isEmpty()) {
            Runnable task = queue.poll();
            for (int spins = SPINS; task == null && spins > 0; spins--) {
                Thread.onSpinWait();
                task = queue.poll();
            }
            if (task != null) {
                task.run();
                continue;
            }
            sleepers.addFirst(me);
            if (queue.isEmpty() && !closed) {
                LockSupport.park(this);
            }
            sleepers.remove(me); // a no-op when a producer popped us
        }
    }

    /** Lets the queued tasks run, then stops the workers and waits for them. */
    @Override
    public void close() {
        closed = true;
        for (Thread w : workers) {
            LockSupport.unpark(w);
        }
        for (Thread w : workers) {
            try {
                w.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
