package io.github.poolkit.benchmarks;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A JMH profiler for the heap suites: {@code -prof io.github.poolkit.benchmarks.HeapProfiler}.
 *
 * <p>It reports two secondary metrics per iteration:
 * <ul>
 *   <li>{@code heap.peak} (MB): the most used heap seen by a sampler thread that reads
 *       {@link MemoryMXBean#getHeapMemoryUsage()} every millisecond during the iteration (the maximum over
 *       iterations is kept). Garbage not yet collected counts too, as it does for the process's footprint.</li>
 *   <li>whatever a benchmark {@link #record records}, e.g. the heap retained by a million pending timers
 *       (averaged over iterations).</li>
 * </ul>
 *
 * <p>Implementation overview: JMH calls {@link #beforeIteration} and {@link #afterIteration} on one control thread,
 * inside the forked benchmark JVM, so the sampler's life and the recorded values need no more than the volatile
 * {@code peak} and a synchronized list. Racy reads of {@code peak} by the control thread happen after
 * {@link Thread#join}, so they see the sampler's last write.
 */
public final class HeapProfiler implements InternalProfiler {

    private static final List<ScalarResult> RECORDED = new ArrayList<>();

    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    private volatile boolean sampling;
    private volatile long peak;
    private Thread sampler;

    /**
     * Adds a secondary metric to the current iteration's results (only when this profiler is enabled; otherwise the
     * value is dropped at the next iteration).
     *
     * @param label the metric's name, e.g. {@code heap.retained}
     * @param value its value
     * @param unit  its unit, e.g. {@code B/job}
     */
    static void record(String label, double value, String unit) {
        synchronized (RECORDED) {
            RECORDED.add(new ScalarResult(label, value, unit, AggregationPolicy.AVG));
        }
    }

    /**
     * The used heap once garbage is gone: full GCs, with a short pause after each for the finalizer thread (a
     * finalizable object, such as a stopped Netty {@code HashedWheelTimer}, keeps everything it references alive until
     * its finalizer has run and a later GC sees it), until the figure stops falling (at most ten rounds).
     *
     * @return bytes of heap in use
     */
    static long settledUsedHeap() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long used = Long.MAX_VALUE;
        for (int round = 0; round < 10; round++) {
            System.gc();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
            long now = memory.getHeapMemoryUsage().getUsed();
            if (now >= used - used / 100) {
                return Math.min(now, used);
            }
            used = now;
        }
        return used;
    }

    @Override
    public String getDescription() {
        return "peak used heap (sampled every ms) and values recorded by the benchmark";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        synchronized (RECORDED) {
            RECORDED.clear();
        }
        peak = memory.getHeapMemoryUsage().getUsed();
        sampling = true;
        sampler = Thread.ofPlatform().daemon().name("heap-sampler").start(this::sample);
    }

    private void sample() {
        while (sampling) {
            long used = memory.getHeapMemoryUsage().getUsed();
            if (used > peak) {
                peak = used;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    @Override
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams,
                                                       IterationParams iterationParams, IterationResult result) {
        sampling = false;
        try {
            sampler.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        List<Result> results = new ArrayList<>();
        results.add(new ScalarResult("heap.peak", peak / (1024.0 * 1024.0), "MB", AggregationPolicy.MAX));
        synchronized (RECORDED) {
            results.addAll(RECORDED);
            RECORDED.clear();
        }
        return results;
    }
}
