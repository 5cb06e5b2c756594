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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

import java.util.concurrent.TimeUnit;

/**
 * Suite 5a: schedule a one-shot job and cancel it, with {@code pending} other jobs waiting (due in about an hour, at
 * spread-out times, so none runs during the benchmark). Score: schedule+cancel pairs per second, one thread.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Threads(1)
public class SchedulerScheduleCancel {

    /** Delays of the pending jobs start here, far beyond any benchmark run. */
    static final long FAR_MILLIS = TimeUnit.HOURS.toMillis(1);

    @Param({"1000", "100000"})
    int pending;

    @Param
    SchedulerPeer peer;

    private SchedulerPeer.Timers timers;
    private long next;
    private final Runnable job = () -> { };

    /** Makes the scheduler and schedules the pending jobs (not timed). */
    @Setup(Level.Trial)
    public void fill() {
        timers = peer.create();
        for (int i = 0; i < pending; i++) {
            timers.schedule(job, FAR_MILLIS + i);
        }
    }

    /** Stops the scheduler, dropping the pending jobs. */
    @TearDown(Level.Trial)
    public void close() {
        timers.close();
    }

    /** Schedules one job among the pending ones and cancels it. */
    @Benchmark
    public void scheduleCancel() {
        // a delay among the pending ones, so a sorted structure has real work to do
        long delay = FAR_MILLIS + (next++ * 7919) % Math.max(1, pending);
        timers.cancel(timers.schedule(job, delay));
    }
}
