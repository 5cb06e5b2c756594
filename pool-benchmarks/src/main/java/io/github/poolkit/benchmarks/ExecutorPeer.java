package io.github.poolkit.benchmarks;

import io.github.poolkit.PoolOptions;
import io.github.poolkit.WorkerPool;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.Executor;

/**
 * The executors compared in the task suites ({@link TinyTaskThroughput}, {@link SubmitLatency}), each made with
 * {@code workers} threads. The {@code POOLKIT*} constants are the subjects, the rest their peers; a report divides each
 * poolkit figure by each peer's.
 */
public enum ExecutorPeer {

    /** {@code WorkerPool}, no queue: the caller blocks while every worker is busy (ants' default). */
    POOLKIT {
        @Override
        Executor open(int workers) {
            return WorkerPool.create(workers, PoolOptions.builder().name("bench").build());
        }
    },
    /** {@code WorkerPool} with an unbounded FIFO queue ({@code queueCapacity(-1)}): execute never blocks. */
    POOLKIT_QUEUED {
        @Override
        Executor open(int workers) {
            return WorkerPool.create(workers, PoolOptions.builder().name("bench").queueCapacity(-1).build());
        }
    },
    /**
     * {@link #POOLKIT_QUEUED} watched for overdue tasks ({@code runTimeout} and {@code queueTimeout} of a minute,
     * never reached): what the watch costs the task path, against {@code POOLKIT_QUEUED} in the same run.
     */
    POOLKIT_QUEUED_WATCHED {
        @Override
        Executor open(int workers) {
            return WorkerPool.create(workers, PoolOptions.builder().name("bench").queueCapacity(-1)
                    .runTimeout(Duration.ofMinutes(1)).queueTimeout(Duration.ofMinutes(1)).build());
        }
    },
    /** {@code Executors.newFixedThreadPool}: a ThreadPoolExecutor over an unbounded LinkedBlockingQueue. */
    TPE_FIXED {
        @Override
        Executor open(int workers) {
            return new ThreadPoolExecutor(workers, workers, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>());
        }
    },
    /** A ThreadPoolExecutor with a SynchronousQueue and CallerRunsPolicy: no queue, the caller runs the overflow. */
    TPE_SYNC_CALLER_RUNS {
        @Override
        Executor open(int workers) {
            return new ThreadPoolExecutor(workers, workers, 0, TimeUnit.SECONDS, new SynchronousQueue<>(),
                    new ThreadPoolExecutor.CallerRunsPolicy());
        }
    },
    /** A ForkJoinPool of the given parallelism, tasks submitted from outside the pool. */
    FORK_JOIN {
        @Override
        Executor open(int workers) {
            return new ForkJoinPool(workers);
        }
    },
    /** Spring's ThreadPoolTaskExecutor with core = max = workers and its default unbounded queue. */
    SPRING {
        @Override
        Executor open(int workers) {
            ThreadPoolTaskExecutor spring = new ThreadPoolTaskExecutor();
            spring.setCorePoolSize(workers);
            spring.setMaxPoolSize(workers);
            spring.setThreadNamePrefix("spring-bench-");
            spring.initialize();
            return spring;
        }
    },
    /**
     * Not a product but a yardstick: a bare fixed pool over JCTools' array-based MPMC queue
     * ({@link ArrayQueueExecutor}), bounding what a FIFO executor gains from a queue with no lock and no node per task.
     */
    ARRAY_MPMC {
        @Override
        Executor open(int workers) {
            return new ArrayQueueExecutor(workers);
        }
    },
    /** A virtual thread per task, at most {@code workers} at once (a Semaphore). */
    VIRTUAL_SEMAPHORE {
        @Override
        Executor open(int workers) {
            return new BoundedVirtualExecutor(workers);
        }
    };

    /**
     * @param workers how many threads (or, for virtual threads, how many tasks at once)
     * @return a new, started executor; give it back to {@link #close(Executor)}
     */
    abstract Executor open(int workers);

    /**
     * Shuts an executor made by {@link #open} down and waits for its tasks to end.
     *
     * @param executor the executor
     */
    static void close(Executor executor) {
        switch (executor) {
            case ExecutorService service -> service.close();
            case ThreadPoolTaskExecutor spring -> spring.shutdown();
            case AutoCloseable closeable -> {
                try {
                    closeable.close();
                } catch (Exception e) {
                    throw new IllegalStateException("could not close " + executor, e);
                }
            }
            default -> throw new IllegalArgumentException("not made by ExecutorPeer: " + executor);
        }
    }
}
