package io.github.poolkit.benchmarks;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;

import java.util.concurrent.TimeUnit;

/**
 * Suite 1: throughput of tiny tasks. Each producer thread submits a batch of {@value #BATCH} tasks that only count
 * themselves, then waits until the whole batch has run; the score is tasks per second, submission to completion.
 * One and two producers, 2 and 64 workers, every {@link ExecutorPeer}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class TinyTaskThroughput extends ExecutorTrial {

    /** Tasks per batch (per benchmark invocation). */
    static final int BATCH = 1000;

    @Param({"2", "64"})
    int workers;

    /** One producer's batch counter. */
    @State(Scope.Thread)
    public static class Producer {
        final Countdown batch = new Countdown();
    }

    @Override
    int workers() {
        return workers;
    }

    /**
     * One batch from one producer thread.
     *
     * @param producer this thread's batch counter
     */
    @Benchmark
    @Threads(1)
    @OperationsPerInvocation(BATCH)
    public void oneProducer(Producer producer) {
        runBatch(producer.batch);
    }

    /**
     * One batch from each of two producer threads.
     *
     * @param producer this thread's batch counter
     */
    @Benchmark
    @Threads(2)
    @OperationsPerInvocation(BATCH)
    public void twoProducers(Producer producer) {
        runBatch(producer.batch);
    }

    private void runBatch(Countdown batch) {
        batch.arm(BATCH);
        for (int i = 0; i < BATCH; i++) {
            executor.execute(batch);
        }
        batch.await();
    }
}
