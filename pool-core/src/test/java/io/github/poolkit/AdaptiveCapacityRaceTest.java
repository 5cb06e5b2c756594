package io.github.poolkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;

/** {@link PoolOptions.Builder#adaptiveCapacity}: samples on two workers racing with a change of the limit. */
@Timeout(30)
class AdaptiveCapacityRaceTest {

    /**
     * A limit the test sets; once armed, the first worker to read it twice pauses in its second read, after it has
     * read the value it returns.
     */
    static final class PausingLimit implements AdaptiveLimit {
        private volatile int value;
        private volatile boolean armed;
        private final AtomicReference<Thread> paused = new AtomicReference<>();
        private final ThreadLocal<int[]> reads = ThreadLocal.withInitial(() -> new int[1]);
        final AtomicInteger samples = new AtomicInteger();
        /** The thread of the latest sample. */
        final AtomicReference<Thread> sampler = new AtomicReference<>();
        final CountDownLatch pausing = new CountDownLatch(1);
        final CountDownLatch resume = new CountDownLatch(1);

        PausingLimit(int value) {
            this.value = value;
        }

        void set(int v) {
            value = v;
        }

        void arm() {
            armed = true;
        }

        @Override
        public int limit() {
            int v = value;
            if (armed && ++reads.get()[0] == 2 && paused.compareAndSet(null, Thread.currentThread())) {
                pausing.countDown();
                Latches.await(resume);
            }
            return v;
        }

        @Override
        public void onSample(long rttNanos, int inFlight, boolean dropped) {
            sampler.set(Thread.currentThread());
            samples.incrementAndGet();
        }
    }

    /**
     * Worker A's sample reads limit 10 and, in the monitor, reads it again to tune to it; meanwhile the limit goes back
     * to 2 and worker B's sample finds capacity 2 == limit 2 and does nothing; A then tunes to 10. The capacity must
     * end at the limit's latest value. (The same interleaving as {@code AdaptiveSemaphoreRaceTest}'s.)
     */
    @RepeatedTest(20)
    void aTuneToAStaleLimitIsCorrected() throws Exception {
        PausingLimit limit = new PausingLimit(2);
        PoolOptions options = PoolOptions.builder().name("adaptive").panicHandler(e -> { }).adaptiveCapacity(limit)
                .build();
        try (WorkerPool pool = WorkerPool.create(2, options)) {
            limit.set(10);
            limit.arm();
            pool.execute(() -> { }); // A: its worker pauses in the second read, holding 10
            Latches.await(limit.pausing);
            limit.set(2);
            int before = limit.samples.get();
            pool.execute(() -> { }); // B, on another worker: 2 == capacity 2, nothing to do
            await().until(() -> limit.samples.get() == before + 1);
            Thread b = limit.sampler.get();
            // B counts its sample before it compares the limit with the capacity: wait until it has done both, so
            // that it cannot compare after A's stale tune below (and correct it, hiding a regression)
            await().until(() -> !inAdaptiveCapacity(b));
            limit.resume.countDown();
            Thread a = limit.paused.get();
            await().until(() -> !inAdaptiveCapacity(a)); // A has left its sample, whatever it did there
            assertThat(pool.capacity()).as("capacity once both samples are done, limit %d", limit.limit())
                    .isEqualTo(2);
        }
    }

    private static boolean inAdaptiveCapacity(Thread thread) {
        for (StackTraceElement frame : thread.getStackTrace()) {
            if (frame.getClassName().endsWith(".AdaptiveCapacity")) {
                return true;
            }
        }
        return false;
    }
}
