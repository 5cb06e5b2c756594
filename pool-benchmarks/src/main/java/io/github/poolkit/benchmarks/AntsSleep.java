package io.github.poolkit.benchmarks;

import io.github.poolkit.PoolOptions;
import io.github.poolkit.WorkerPool;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * Suite 3: ants' own benchmark ({@code BenchmarkAntsPool} against {@code BenchmarkGoroutines}), translated:
 * {@code tasks} tasks that each sleep 10 ms, run through a pool of {@code capacity} unpooled virtual threads, against
 * one unbounded virtual thread per task and against virtual threads bounded by a Semaphore of {@code capacity}. Each
 * invocation submits every task from one thread and waits until all have run. Score: elapsed time; with
 * {@link HeapProfiler}, the peak used heap as {@code heap.peak}. As in ants, the pool is made once per trial and
 * reused by every iteration.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Threads(1)
@Fork(value = 1, jvmArgsAppend = {"-Xms256m", "-Xmx4g"})
public class AntsSleep {

    /** How each task sleeps, as in ants' benchmarks. */
    static final long SLEEP_MILLIS = 10;

    /** The peers of this suite. */
    public enum Peer {
        /** {@code WorkerPool.create(capacity)} with {@code virtualThreads(true)} (unpooled), blocking submit. */
        POOLKIT_VIRTUAL,
        /** {@code Thread.ofVirtual().start(task)} for every task (ants' goroutine baseline). */
        UNBOUNDED_VIRTUAL,
        /** A virtual thread per task, at most {@code capacity} at once. */
        VIRTUAL_SEMAPHORE
    }

    @Param({"1000000"})
    int tasks;

    @Param({"50000"})
    int capacity;

    @Param
    Peer peer;

    private Executor executor;
    private final Countdown all = new Countdown();
    private final Runnable sleeper = () -> {
        try {
            Thread.sleep(SLEEP_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        all.run();
    };

    /** Makes the executor under test, once per trial (as ants makes its pool once per benchmark). */
    @Setup(Level.Trial)
    public void open() {
        executor = switch (peer) {
            case POOLKIT_VIRTUAL -> WorkerPool.create(capacity, PoolOptions.builder().name("ants")
                    .virtualThreads(true).build());
            case UNBOUNDED_VIRTUAL -> task -> Thread.ofVirtual().start(task);
            case VIRTUAL_SEMAPHORE -> new BoundedVirtualExecutor(capacity);
        };
    }

    /**
     * Shuts the executor down, waiting for its tasks.
     *
     * @throws Exception if the executor fails to close
     */
    @TearDown(Level.Trial)
    public void close() throws Exception {
        if (executor instanceof AutoCloseable closeable) {
            closeable.close();
        }
    }

    /** Submits every task from this thread, then waits until all have run. */
    @Benchmark
    public void sleepers() {
        all.arm(tasks);
        for (int i = 0; i < tasks; i++) {
            executor.execute(sleeper);
        }
        all.await();
    }
}
