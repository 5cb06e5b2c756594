package io.github.poolkit.benchmarks;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;

import java.util.concurrent.TimeUnit;

/**
 * Suite 4b: two threads acquire and release one permit each of the same semaphore. With {@code size = 1} they take
 * turns (every other acquire blocks); with {@code size = 64} they only contend on the semaphore's state.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Threads(2)
public class SemaphoreContended {

    @Param({"1", "64"})
    int size;

    @Param
    SemaphorePeer peer;

    private SemaphorePeer.Permits permits;

    /** Makes the semaphore under test. */
    @Setup(Level.Trial)
    public void create() {
        permits = peer.create(size);
    }

    /**
     * Acquires one permit and releases it.
     *
     * @throws InterruptedException never in practice: nothing interrupts benchmark threads
     */
    @Benchmark
    public void acquireRelease() throws InterruptedException {
        permits.acquire(1);
        permits.release(1);
    }
}
