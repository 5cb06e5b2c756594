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

/** Suite 4a: one thread acquires and releases one permit of a semaphore nobody else uses; cost per pair. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Threads(1)
public class SemaphoreUncontended {

    @Param
    SemaphorePeer peer;

    private SemaphorePeer.Permits permits;

    /** Makes the semaphore under test, of 64 permits. */
    @Setup(Level.Trial)
    public void create() {
        permits = peer.create(64);
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
