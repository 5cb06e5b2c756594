package io.github.poolkit.benchmarks;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A simulated downstream service with a knee: a call takes {@link #BASE_NANOS} while at most {@link #KNEE} calls run
 * at once, and 10% longer for each call beyond the knee (counted when it starts). Below the knee, throughput grows
 * with concurrency; beyond it, every extra call slows all the others, so throughput falls and latency climbs: the
 * situation an adaptive limit is for. The knee serves at most {@code KNEE / BASE} = 1600 calls per second.
 */
final class KneeDownstream {

    /** A call's service time at or below the knee. */
    static final long BASE_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    /** Calls in flight beyond which each call slows down. */
    static final int KNEE = 16;

    /** How much slower a call gets for each call in flight beyond the knee. */
    static final double SLOWDOWN_PER_CALL = 0.10;

    /** The calls per second the knee can serve: {@code KNEE / BASE}. */
    static final double KNEE_RATE = KNEE * 1e9 / BASE_NANOS;

    private final AtomicInteger inFlight = new AtomicInteger();
    /** The sigma of the log-normal factor each call's service time is multiplied by (mean 1); 0: none. */
    private final double noise;

    /** @param noise the sigma of a log-normal factor (mean 1) on each call's service time; 0 for none */
    KneeDownstream(double noise) {
        this.noise = noise;
    }

    /** @return the service time of a call that starts with {@code concurrent} calls in flight, itself included */
    static long serviceNanos(int concurrent) {
        return (long) (BASE_NANOS * (1 + SLOWDOWN_PER_CALL * Math.max(0, concurrent - KNEE)));
    }

    /** Makes one call: sleeps for its service time. */
    void call() {
        long nanos = serviceNanos(inFlight.incrementAndGet());
        if (noise > 0) {
            nanos = (long) (nanos * Math.exp(noise * ThreadLocalRandom.current().nextGaussian() - noise * noise / 2));
        }
        try {
            TimeUnit.NANOSECONDS.sleep(nanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            inFlight.decrementAndGet();
        }
    }
}
