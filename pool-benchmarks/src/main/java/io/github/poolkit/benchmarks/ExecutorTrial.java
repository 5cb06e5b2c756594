package io.github.poolkit.benchmarks;

import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.util.concurrent.Executor;

/**
 * The executor under test of a task suite ({@link TinyTaskThroughput}, {@link SubmitLatency}): one {@link ExecutorPeer}
 * per trial, opened with {@link #workers()} threads before it and closed, waiting for its tasks, after it. Each suite
 * declares its own {@code workers} parameter, since each tries other counts.
 */
@State(Scope.Benchmark)
public abstract class ExecutorTrial {

    @Param
    ExecutorPeer peer;

    /** The executor under test, from the trial's set-up on. */
    Executor executor;

    /** @return this trial's {@code workers} parameter */
    abstract int workers();

    /** Makes the executor under test. */
    @Setup(Level.Trial)
    public void open() {
        executor = peer.open(workers());
    }

    /** Shuts the executor down, waiting for its tasks. */
    @TearDown(Level.Trial)
    public void close() {
        ExecutorPeer.close(executor);
    }
}
