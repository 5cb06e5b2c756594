package io.github.poolkit.benchmarks;

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

import java.util.concurrent.TimeUnit;

/**
 * Suite 5b: the heap held by {@code jobs} pending one-shot jobs. The score is the time to schedule them all (the GCs
 * around it are not timed); with {@link HeapProfiler} the heap they retain (used heap after full GCs with the jobs
 * pending, minus the same before scheduling them; see {@link HeapProfiler#settledUsedHeap()}) is reported as
 * {@code heap.retained} (MB) and {@code heap.perJob} (bytes per pending job, the job's own lambda included).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Threads(1)
@Fork(value = 1, jvmArgsAppend = {"-Xms256m", "-Xmx4g"})
public class SchedulerRetainedHeap {

    @Param({"1000000"})
    int jobs;

    @Param
    SchedulerPeer peer;

    private SchedulerPeer.Timers timers;
    private long baseline;

    /** Makes the scheduler and measures the settled heap before any job (not timed). */
    @Setup(Level.Iteration)
    public void create() {
        timers = peer.create();
        baseline = HeapProfiler.settledUsedHeap();
    }

    /** Measures what the pending jobs retain (not timed), then drops them. */
    @TearDown(Level.Iteration)
    public void measureAndClose() {
        long retained = HeapProfiler.settledUsedHeap() - baseline;
        HeapProfiler.record("heap.retained", retained / (1024.0 * 1024.0), "MB");
        HeapProfiler.record("heap.perJob", (double) retained / jobs, "B/job");
        timers.close();
        timers = null;
    }

    /**
     * Schedules every job, from this thread.
     *
     * @return the last handle, so the loop is not optimised away
     */
    @Benchmark
    public Object fill() {
        Object last = null;
        for (int i = 0; i < jobs; i++) {
            int id = i;
            // a distinct job per entry, as real callers have
            last = timers.schedule(() -> Integer.toString(id), SchedulerScheduleCancel.FAR_MILLIS + i);
        }
        return last;
    }
}
