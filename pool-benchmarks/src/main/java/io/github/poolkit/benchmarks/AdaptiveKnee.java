package io.github.poolkit.benchmarks;

import com.netflix.concurrency.limits.Limiter;
import com.netflix.concurrency.limits.limit.Gradient2Limit;
import com.netflix.concurrency.limits.limiter.SimpleLimiter;
import io.github.poolkit.AdaptiveLimit;
import io.github.poolkit.PoolOptions;
import io.github.poolkit.PoolOverloadException;
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
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * Suite "adaptive": limits in front of a {@link KneeDownstream} (10 ms a call, 10% slower for each call beyond 16 in
 * flight), under an open-loop offered load of {@code load} times what the knee can serve (1600 calls/s). A request
 * that the limit refuses is dropped at once; an admitted one runs on a virtual thread of its own. Peers: poolkit
 * pools with fixed capacities 8, 16 (the knee) and 64 and with {@code AdaptiveLimit.gradient(1, 64)}, and Netflix's
 * {@code Gradient2Limit} (bounds 1..64, its defaults otherwise) through its {@code SimpleLimiter}; nobody is told the
 * knee.
 *
 * <p>Each iteration offers load for {@code seconds}; warm-up iterations let an adaptive limit settle (the limiter lives
 * for the whole trial). Each iteration appends one line to {@code target/results/adaptive-knee.csv} (its phase,
 * warm-up or measured, first): goodput (calls completed per second), p50 and p99 latency of the completed calls (arrival to completion, in ms), the
 * share of requests dropped, and the limit at the end. The JMH score itself (the iteration's duration) means nothing.
 *
 * <pre>
 * java -jar pool-benchmarks/target/benchmarks.jar AdaptiveKnee -wi 3 -i 3 -p seconds=10
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Threads(1)
@Fork(value = 1, jvmArgsAppend = {"-Xms256m", "-Xmx2g"})
public class AdaptiveKnee {

    /** The limits compared. */
    public enum Peer {
        /** A poolkit pool, nonblocking, capacity 8. */
        FIXED_8,
        /** A poolkit pool, nonblocking, capacity 16 (the knee). */
        FIXED_16,
        /** A poolkit pool, nonblocking, capacity 64. */
        FIXED_64,
        /** A poolkit pool, nonblocking, {@code adaptiveCapacity(AdaptiveLimit.gradient(1, 64))}. */
        POOLKIT_GRADIENT,
        /** Netflix's {@code SimpleLimiter} with {@code Gradient2Limit} (min 1, max 64). */
        NETFLIX_GRADIENT2
    }

    /** Offered load as a multiple of what the knee can serve. */
    @Param({"0.5", "1", "1.5", "2", "3"})
    double load;

    @Param
    Peer peer;

    /** How long each iteration offers load. */
    @Param({"10"})
    int seconds;

    /**
     * The sigma of a log-normal factor (mean 1) on each call's service time: 0, a steady downstream; 0.3, one whose
     * calls vary as real ones do, where an adaptive limit must tell noise from congestion.
     */
    @Param({"0"})
    double noise;

    private KneeDownstream downstream;
    private Admission admission;
    private Recorder recorder;

    @Setup(Level.Trial)
    public void setUp() {
        downstream = new KneeDownstream(noise);
        admission = Admission.of(peer);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        admission.close();
    }

    @Setup(Level.Iteration)
    public void startIteration() {
        recorder = new Recorder((int) (load * KneeDownstream.KNEE_RATE * seconds * 1.2) + 64);
    }

    @TearDown(Level.Iteration)
    public void endIteration(IterationParams iteration) throws IOException {
        String phase = iteration.getType() == IterationType.WARMUP ? "warmup" : "measured";
        String line = phase + "," + recorder.summary(peer, load, seconds, admission.limit());
        System.out.println();
        System.out.println("adaptive-knee: " + line);
        Path csv = Path.of("target", "results", "adaptive-knee.csv");
        Files.createDirectories(csv.getParent());
        if (!Files.exists(csv)) {
            Files.writeString(csv, Recorder.HEADER + "\n");
        }
        Files.writeString(csv, line + "\n", StandardOpenOption.APPEND);
    }

    /** Offers {@code load} for {@code seconds}, open loop, then waits for the admitted calls to finish. */
    @Benchmark
    public void offer() {
        double rate = load * KneeDownstream.KNEE_RATE;
        long start = System.nanoTime();
        long end = start + TimeUnit.SECONDS.toNanos(seconds);
        long intervalNanos = (long) (1e9 / rate);
        long next = start;
        while (next < end) {
            long now = System.nanoTime();
            if (now < next) {
                LockSupport.parkNanos(next - now);
                continue;
            }
            for (; next <= now && next < end; next += intervalNanos) { // catch up after a late wake-up
                recorder.offered.increment();
                long arrival = next;
                boolean admitted = admission.tryRun(() -> {
                    downstream.call();
                    recorder.completed(System.nanoTime() - arrival);
                });
                if (!admitted) {
                    recorder.dropped.increment();
                }
            }
        }
        admission.awaitIdle();
    }

    /** A limit in front of the downstream. */
    private interface Admission {

        /** @return whether the call was admitted (it then runs on a thread of its own) */
        boolean tryRun(Runnable call);

        /** @return the limit now */
        int limit();

        /** @return how many admitted calls have not yet finished */
        int running();

        /** Waits until no admitted call runs, looking every millisecond. */
        default void awaitIdle() {
            while (running() > 0) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
        }

        /** Frees what the limit holds; nothing by default. */
        default void close() {
        }

        static Admission of(Peer peer) {
            return switch (peer) {
                case FIXED_8 -> new PoolAdmission(8, null);
                case FIXED_16 -> new PoolAdmission(16, null);
                case FIXED_64 -> new PoolAdmission(64, null);
                case POOLKIT_GRADIENT -> new PoolAdmission(64, AdaptiveLimit.gradient(1, 64));
                case NETFLIX_GRADIENT2 -> new NetflixAdmission();
            };
        }
    }

    /** A nonblocking poolkit pool whose workers are unpooled virtual threads. */
    private static final class PoolAdmission implements Admission {

        private final WorkerPool pool;

        PoolAdmission(int capacity, AdaptiveLimit limit) {
            this.pool = WorkerPool.create(capacity, PoolOptions.builder().name("knee").nonblocking(true)
                    .virtualThreads(true).adaptiveCapacity(limit).build());
        }

        @Override
        public boolean tryRun(Runnable call) {
            try {
                pool.execute(call);
                return true;
            } catch (PoolOverloadException e) {
                return false;
            }
        }

        @Override
        public int limit() {
            return pool.capacity();
        }

        @Override
        public int running() {
            return pool.stats().busy();
        }

        @Override
        public void close() {
            pool.close();
        }
    }

    /** Netflix's limiter; an admitted call runs on a virtual thread of its own. */
    private static final class NetflixAdmission implements Admission {

        private final Gradient2Limit limit = Gradient2Limit.newBuilder().minLimit(1).maxConcurrency(64).build();
        private final SimpleLimiter<Void> limiter = SimpleLimiter.newBuilder().limit(limit).build();
        private final AtomicInteger running = new AtomicInteger();

        @Override
        public boolean tryRun(Runnable call) {
            Optional<Limiter.Listener> listener = limiter.acquire(null);
            if (listener.isEmpty()) {
                return false;
            }
            running.incrementAndGet();
            Thread.ofVirtual().start(() -> {
                try {
                    call.run();
                    listener.get().onSuccess();
                } finally {
                    running.decrementAndGet();
                }
            });
            return true;
        }

        @Override
        public int limit() {
            return limit.getLimit();
        }

        @Override
        public int running() {
            return running.get();
        }
    }

    /** What one iteration saw. */
    private static final class Recorder {

        static final String HEADER = "phase,peer,load,offeredPerSec,goodputPerSec,p50Ms,p99Ms,droppedShare,limitAtEnd";

        final LongAdder offered = new LongAdder();
        final LongAdder dropped = new LongAdder();
        private final long[] latencies;
        private final AtomicInteger count = new AtomicInteger();

        Recorder(int capacity) {
            this.latencies = new long[capacity];
        }

        void completed(long latencyNanos) {
            int i = count.getAndIncrement();
            if (i < latencies.length) {
                latencies[i] = latencyNanos;
            }
        }

        String summary(Peer peer, double load, int seconds, int limit) {
            int n = Math.min(count.get(), latencies.length);
            long[] sorted = Arrays.copyOf(latencies, n);
            Arrays.sort(sorted);
            return String.format(Locale.ROOT, "%s,%.1f,%.0f,%.0f,%.2f,%.2f,%.3f,%d", peer, load,
                    offered.sum() / (double) seconds, n / (double) seconds, percentile(sorted, 0.50),
                    percentile(sorted, 0.99), dropped.sum() / Math.max(1.0, offered.sum()), limit);
        }

        private static double percentile(long[] sorted, double p) {
            if (sorted.length == 0) {
                return Double.NaN;
            }
            return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p * sorted.length) - 1)] / 1e6;
        }
    }
}
