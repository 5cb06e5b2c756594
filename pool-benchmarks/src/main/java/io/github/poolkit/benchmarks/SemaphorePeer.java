package io.github.poolkit.benchmarks;

import io.github.poolkit.WeightedSemaphore;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.bulkhead.Bulkhead;

import java.time.Duration;
import java.util.function.IntConsumer;
import java.util.concurrent.Semaphore;

/**
 * The semaphores compared in the semaphore suites, behind one small interface. {@code POOLKIT} is the subject.
 */
public enum SemaphorePeer {

    /** {@link WeightedSemaphore}: FIFO, weighted. */
    POOLKIT {
        @Override
        Permits create(int size) {
            WeightedSemaphore s = new WeightedSemaphore(size);
            return Permits.of(s::acquire, s::release);
        }
    },
    /** {@link Semaphore}, non-fair (barging). */
    JUC_NONFAIR {
        @Override
        Permits create(int size) {
            return jdk(new Semaphore(size, false));
        }
    },
    /** {@link Semaphore}, fair (FIFO). */
    JUC_FAIR {
        @Override
        Permits create(int size) {
            return jdk(new Semaphore(size, true));
        }
    },
    /** Resilience4j's SemaphoreBulkhead ({@code Bulkhead.of}): one permit per call, waits up to a minute for one. */
    BULKHEAD {
        @Override
        Permits create(int size) {
            Bulkhead b = Bulkhead.of("bench", BulkheadConfig.custom()
                    .maxConcurrentCalls(size).maxWaitDuration(Duration.ofMinutes(1)).build());
            return new Permits() {
                @Override
                public void acquire(int n) {
                    requireOne(n);
                    b.acquirePermission();
                }

                @Override
                public void release(int n) {
                    requireOne(n);
                    b.onComplete();
                }
            };
        }

        private static void requireOne(int n) {
            if (n != 1) {
                throw new UnsupportedOperationException("a bulkhead grants one permit per call, not " + n);
            }
        }
    };

    /** Acquire and release {@code n} permits, blocking as the underlying semaphore does. */
    interface Permits {

        /** Acquires {@code n} permits, blocking. */
        @FunctionalInterface
        interface Acquire {
            void acquire(int n) throws InterruptedException;
        }

        /**
         * The permits of a semaphore whose methods take {@code n} as given (one JMH fork uses one peer, so the JIT
         * sees one implementation at each call and inlines it, as it would the semaphore's own methods).
         *
         * @param acquire the semaphore's {@code acquire(n)}
         * @param release the semaphore's {@code release(n)}
         * @return the two as {@code Permits}
         */
        static Permits of(Acquire acquire, IntConsumer release) {
            return new Permits() {
                @Override
                public void acquire(int n) throws InterruptedException {
                    acquire.acquire(n);
                }

                @Override
                public void release(int n) {
                    release.accept(n);
                }
            };
        }

        void acquire(int n) throws InterruptedException;

        void release(int n);
    }

    /**
     * @param size the permits
     * @return a new semaphore of {@code size} permits
     */
    abstract Permits create(int size);

    private static Permits jdk(Semaphore s) {
        return Permits.of(s::acquire, s::release);
    }
}
