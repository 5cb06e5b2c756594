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
 * Suite 4c: two threads acquire and release a mix of weights (1, 1, 2, 4, 1, 8, 1, 2, cycling) from a semaphore of
 * 8 permits, so an 8-permit request must wait for everything else to drain: FIFO semaphores make the small requests
 * queue behind it, barging ones let them pass. The bulkhead grants one permit per call and is not in this suite.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Threads(2)
public class SemaphoreWeightedMix {

    private static final int[] WEIGHTS = {1, 1, 2, 4, 1, 8, 1, 2};

    @Param({"POOLKIT", "JUC_NONFAIR", "JUC_FAIR"})
    SemaphorePeer peer;

    private SemaphorePeer.Permits permits;

    /** Where one thread is in the weight cycle. */
    @State(Scope.Thread)
    public static class Cursor {
        int next;
    }

    /** Makes the semaphore under test, of 8 permits. */
    @Setup(Level.Trial)
    public void create() {
        permits = peer.create(8);
    }

    /**
     * Acquires the next weight of the cycle and releases it.
     *
     * @param cursor this thread's place in the cycle
     * @throws InterruptedException never in practice: nothing interrupts benchmark threads
     */
    @Benchmark
    public void acquireRelease(Cursor cursor) throws InterruptedException {
        int n = WEIGHTS[cursor.next++ & (WEIGHTS.length - 1)];
        permits.acquire(n);
        permits.release(n);
    }
}
