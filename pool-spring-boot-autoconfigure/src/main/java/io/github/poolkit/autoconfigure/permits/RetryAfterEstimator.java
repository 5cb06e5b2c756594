package io.github.poolkit.autoconfigure.permits;

import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;

import io.github.poolkit.PermitSemaphore;
import io.github.poolkit.Pool;
import io.github.poolkit.PoolListener;
import io.github.poolkit.PoolOverloadException;
import io.github.poolkit.SemaphoreStats;
import io.github.poolkit.autoconfigure.PoolTaskListeners;

/**
 * Estimates the {@code Retry-After} of a {@code 429} answer from what the refusing pool or semaphore measured.
 *
 * <ul>
 *   <li>A <b>pool</b> (one poolkit created) that refused a task: its recent mean task run time &times;
 *       ({@code waiting()} + 1) / {@code capacity()}: the time its workers need to work off the tasks ahead of the
 *       refused one plus that one.</li>
 *   <li>A <b>semaphore</b> that did not grant a {@code @Permits} method its weight: the recent mean time its
 *       {@code @Permits} methods held their permits &times; ({@code waiting()} + 1) &times; weight / {@code size()}:
 *       the time the semaphore needs to turn over the weight asked for by the requests in line and the refused one,
 *       assuming those in line ask for as much.</li>
 * </ul>
 *
 * <p>"Recent mean": over the latest window of at least 64 samples (all of them until 64 have been seen); a window
 * closes when the mean is read or a second after the previous close, so after a calm period it covers about the last
 * second, not the whole period. The result
 * is rounded up to whole seconds and kept within 1 s and 60 s; an overload whose source measured nothing yet (a pool
 * the application created itself, a semaphore no {@code @Permits} method has released yet) gets 1 s.
 *
 * <p>Implementation overview: the exception does not say who threw it, so each refusal is remembered with its source
 * in a map with weak keys (an identity lookup: exceptions do not override {@code equals}), and the estimate is
 * computed only when an answer needs it. Pools report refusals and run times through the {@link PoolListener} poolkit
 * gave them at creation, attached once every singleton exists (a lazy pool created later is not watched, and gets
 * 1 s); {@code @Permits} reports its own refusals and hold times. Recording costs two striped additions and a clock
 * read per task or call (see {@link RecentMean}).
 */
public final class RetryAfterEstimator implements SmartInitializingSingleton {

    /** The shortest {@code Retry-After}, in seconds. */
    public static final long MIN_SECONDS = 1;

    /** The longest {@code Retry-After}, in seconds. */
    public static final long MAX_SECONDS = 60;

    private final @Nullable ListableBeanFactory beanFactory;
    private final @Nullable PoolTaskListeners poolListeners;
    /**
     * Each refusal's source, until its exception is collected. Weak keys only: the entry lives exactly as long as the
     * exception (Spring's {@code ConcurrentReferenceHashMap} holds its entries, not its keys, weakly, so any
     * collection between a refusal and its answer lost the source there, and the client got 1 s). The values
     * never refer to their exception. Written once per refusal and read once per answer: a lock is cheap enough.
     */
    private final Map<PoolOverloadException, Source> sources = Collections.synchronizedMap(new WeakHashMap<>());
    private final Map<PermitSemaphore, RecentMean> holdTimes = new ConcurrentHashMap<>();

    /**
     * Creates an estimator that has measured nothing yet.
     *
     * @param beanFactory   where the pools are found once every singleton exists, or {@code null} for none
     * @param poolListeners the listeners poolkit gave its pools, or {@code null} when there are none
     */
    public RetryAfterEstimator(@Nullable ListableBeanFactory beanFactory, @Nullable PoolTaskListeners poolListeners) {
        this.beanFactory = beanFactory;
        this.poolListeners = poolListeners;
    }

    /** Starts watching the run times and refusals of every pool poolkit created. */
    @Override
    public void afterSingletonsInstantiated() {
        if (beanFactory == null || poolListeners == null) {
            return;
        }
        ListableBeanFactory beans = beanFactory;
        for (String name : beans.getBeanNamesForType(Pool.class, false, false)) {
            if (poolListeners.isReporting(name)) { // created by poolkit, and already created (lazy ones are not)
                poolListeners.attach(name, new PoolWatch(() -> beans.getBean(name, Pool.class)));
            }
        }
    }

    /**
     * Estimates how long a refused client should wait, from what the pool or semaphore measured.
     *
     * @param failure the overload an answer reports
     * @return the seconds a client should wait before retrying, {@value #MIN_SECONDS} to {@value #MAX_SECONDS}
     */
    public long retryAfterSeconds(PoolOverloadException failure) {
        Source source = sources.get(failure);
        if (source == null) {
            return MIN_SECONDS;
        }
        try {
            return source.seconds().getAsLong();
        }
        catch (RuntimeException unreadable) { // a shared semaphore whose store does not answer: no estimate
            return MIN_SECONDS;
        }
    }

    /**
     * Tells whether {@link #retryAfterSeconds} for this overload reads a semaphore shared through a store (a round
     * trip to it), which a thread that must not block, such as a reactive server's event loop, leaves to another.
     *
     * @param failure the overload an answer reports
     * @return whether estimating may block on the store
     */
    public boolean estimateBlocks(PoolOverloadException failure) {
        Source source = sources.get(failure);
        return source != null && source.readsStore();
    }

    /** @return the hold times of the {@code @Permits} methods on {@code semaphore} */
    RecentMean holdTimes(PermitSemaphore semaphore) {
        return holdTimes.computeIfAbsent(semaphore, s -> new RecentMean());
    }

    /** Remembers that {@code semaphore} did not grant {@code weight} permits, refused with {@code failure}. */
    void refusedBySemaphore(PoolOverloadException failure, PermitSemaphore semaphore, long weight) {
        RecentMean held = holdTimes(semaphore);
        sources.put(failure, new Source(() -> {
            long meanNanos = held.meanNanos();
            if (meanNanos < 0) {
                return MIN_SECONDS; // nothing measured: no need to read the semaphore
            }
            SemaphoreStats now = semaphore.stats(); // one read (one round trip for a shared semaphore)
            return seconds(meanNanos, (now.waiting() + 1.0) * Math.max(weight, 1) / Math.max(now.size(), 1));
        }, PermitsGuard.sharedThroughStore(semaphore)));
    }

    /** Remembers that {@code pool} refused a task with {@code failure}. */
    void refusedByPool(PoolOverloadException failure, Supplier<Pool> pool, RecentMean runTimes) {
        sources.put(failure, new Source(() -> {
            Pool refusing = pool.get();
            return seconds(runTimes.meanNanos(), (refusing.waiting() + 1.0) / Math.max(refusing.capacity(), 1));
        }, false));
    }

    /**
     * @param meanNanos a recent mean duration, {@code -1} when unknown
     * @param turns     how many of those durations the wait takes
     * @return {@code meanNanos * turns} in whole seconds, rounded up, within the bounds
     */
    static long seconds(long meanNanos, double turns) {
        if (meanNanos < 0) {
            return MIN_SECONDS;
        }
        double seconds = Math.ceil(meanNanos * turns / 1e9);
        return (long) Math.max(MIN_SECONDS, Math.min(MAX_SECONDS, seconds));
    }

    /**
     * A refusal's source: how to estimate for it, and whether that reads a semaphore shared through a store.
     *
     * @param seconds    the estimate, in whole seconds within the bounds
     * @param readsStore whether the estimate makes a round trip to a shared store
     */
    private record Source(LongSupplier seconds, boolean readsStore) {
    }

    /** Measures one pool's run times and remembers its refusals. */
    private final class PoolWatch implements PoolListener {

        private final Supplier<Pool> pool;
        private final RecentMean runTimes = new RecentMean();

        /** @param pool looks the pool up when a refusal needs an estimate (by then it exists) */
        PoolWatch(Supplier<Pool> pool) {
            this.pool = pool;
        }

        @Override
        public void taskFinished(long waitedNanos, long ranNanos, @Nullable Throwable failure) {
            runTimes.record(ranNanos);
        }

        @Override
        public void taskRejected(RuntimeException reason) {
            if (reason instanceof PoolOverloadException overload) {
                refusedByPool(overload, pool, runTimes);
            }
        }
    }
}
