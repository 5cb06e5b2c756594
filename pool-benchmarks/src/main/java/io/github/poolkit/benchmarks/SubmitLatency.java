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
 * Suite 2: submit-to-start latency when a worker is idle. Each sample is one {@code execute} of a task that only
 * raises a flag, up to the moment the submitting thread sees the flag (it spins for it), so it covers the hand-off and
 * the worker's wake-up. Before each sample the previous task has started and the executor has been left alone for
 * {@code idleGapMicros}, so its worker is idle again (and, after a long enough gap, parked rather than spinning).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Threads(1)
public class SubmitLatency extends ExecutorTrial {

    @Param({"2"})
    int workers;

    @Param({"0", "50"})
    long idleGapMicros;

    private volatile boolean started;
    private final Runnable probe = () -> started = true;

    @Override
    int workers() {
        return workers;
    }

    /** Lets the executor settle (not timed). */
    @Setup(Level.Invocation)
    public void idle() {
        long until = System.nanoTime() + TimeUnit.MICROSECONDS.toNanos(idleGapMicros);
        while (System.nanoTime() < until) {
            Thread.onSpinWait();
        }
        started = false;
    }

    /** Submits the probe and spins until it has started. */
    @Benchmark
    public void submitToStart() {
        executor.execute(probe);
        while (!started) {
            Thread.onSpinWait();
        }
    }
}
