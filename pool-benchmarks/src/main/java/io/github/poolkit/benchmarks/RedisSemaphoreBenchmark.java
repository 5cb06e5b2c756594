package io.github.poolkit.benchmarks;

import java.util.UUID;
import java.util.concurrent.TimeUnit;
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

/**
 * Cluster semaphores on one loopback Redis, each peer acquiring one permit and releasing it ({@link
 * RedisSemaphorePeer}). Run by {@code run-redis.sh}, which starts the Redis and passes its port.
 *
 * <ul>
 *   <li>{@code latency}: one thread, a 64-permit semaphore nobody else uses: time per acquire + release (two round
 *       trips for every peer), with the yardsticks of {@link ScriptYardstick} beside the semaphores.</li>
 *   <li>{@code contended}: eight threads share a 2-permit semaphore, so most acquires wait for a release and are
 *       woken by a notification: pairs per second over all threads.</li>
 * </ul>
 */
public class RedisSemaphoreBenchmark {

    /**
     * One semaphore of one peer, under a fresh name per trial. Each subclass has its own {@code peer} parameter (the
     * peers it can run) and opens the semaphore in its trial set-up.
     */
    @State(Scope.Benchmark)
    public abstract static class Semaphore {

        /** The loopback Redis's port. */
        @Param("6379")
        int port;

        RedisSemaphorePeer.Permits permits;

        /** Connects {@code peer}'s semaphore of {@code size} permits. */
        void connect(RedisSemaphorePeer peer, int size) {
            permits = peer.open(port, "bench-" + UUID.randomUUID(), size);
        }

        /** Disconnects. */
        @TearDown(Level.Trial)
        public void close() {
            permits.close();
        }
    }

    /** 64 permits for one thread: never contended. Every peer, the yardsticks too. */
    public static class Roomy extends Semaphore {
        @Param
        RedisSemaphorePeer peer;

        /** Connects. */
        @Setup(Level.Trial)
        public void open() {
            connect(peer, 64);
        }
    }

    /** 2 permits for eight threads: the semaphores only (the yardsticks cannot wait). */
    public static class Scarce extends Semaphore {
        @Param({"POOLKIT", "REDISSON_SEMAPHORE", "REDISSON_PERMIT_EXPIRABLE"})
        RedisSemaphorePeer peer;

        /** Connects. */
        @Setup(Level.Trial)
        public void open() {
            connect(peer, 2);
        }
    }

    /**
     * Acquires one permit of an uncontended semaphore and releases it.
     *
     * @param semaphore the semaphore
     * @throws InterruptedException never in practice
     */
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    @Threads(1)
    public void latency(Roomy semaphore) throws InterruptedException {
        semaphore.permits.release(semaphore.permits.acquire());
    }

    /**
     * Acquires one permit of a contended semaphore and releases it.
     *
     * @param semaphore the semaphore
     * @throws InterruptedException never in practice
     */
    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    @Threads(8)
    public void contended(Scarce semaphore) throws InterruptedException {
        semaphore.permits.release(semaphore.permits.acquire());
    }
}
