package io.github.poolkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Watching for overdue tasks costs the task path no allocation: the bytes that the submitting thread and the worker
 * allocate for the same tasks are the same, within less than one object per task, with {@code runTimeout} and
 * {@code queueTimeout} set as without them (HotSpot's per-thread allocation counter; skipped on JVMs without it).
 * Not a timing test.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OverdueAllocationTest {

    private static final int TASKS = 200_000;
    /** The smallest Java object: an allocation per task would cost at least this much per task. */
    private static final long SMALLEST_OBJECT = 16;
    /** Rounds measured after the warm-up round; the fewest bytes of them count, so a round the JIT was still
     *  compiling through (allocating where compiled code would not) does not decide. */
    private static final int ROUNDS = 4;
    /** Measures of each kind at most, while the bound is not met (see {@link #assertNoMoreWithTimeouts}). */
    private static final int ATTEMPTS = 4;

    @Test
    void handedOffTasksAllocateNoMoreWithTimeouts() throws Exception {
        assertNoMoreWithTimeouts("tasks", OverdueAllocationTest::handOff);
    }

    @Test
    void queuedTasksAllocateNoMoreWithTimeouts() throws Exception {
        assertNoMoreWithTimeouts("queued tasks", OverdueAllocationTest::queued);
    }

    /** One way of running {@link #TASKS} tasks, returning the fewest bytes allocated for them. */
    private interface Measure {
        long bytes(PoolOptions.Builder options) throws Exception;
    }

    /**
     * Measures without and with timeouts, up to {@link #ATTEMPTS} times each, keeping the fewest bytes of each: a
     * compilation that allocates (an escape analysis the JIT has not yet done) shows in a few measures, never in all
     * of them, while an allocation per task would show in every one.
     */
    private static void assertNoMoreWithTimeouts(String what, Measure measure) throws Exception {
        long without = Long.MAX_VALUE;
        long with = Long.MAX_VALUE;
        for (int attempt = 0; attempt < ATTEMPTS && (attempt == 0 || with - without >= TASKS * SMALLEST_OBJECT);
                attempt++) {
            without = Math.min(without, measure.bytes(PoolOptions.builder()));
            with = Math.min(with, measure.bytes(PoolOptions.builder().runTimeout(Duration.ofMinutes(5))
                    .queueTimeout(Duration.ofMinutes(5))));
        }
        assertThat(with - without).as("extra bytes for %d %s with timeouts (without: %d)", TASKS, what, without)
                .isLessThan(TASKS * SMALLEST_OBJECT); // under an object per task: the JIT's choices vary by a few bytes
    }

    /** Runs the tasks one at a time, each handed to the idle worker; returns the fewest bytes both threads took. */
    private static long handOff(PoolOptions.Builder options) throws Exception {
        com.sun.management.ThreadMXBean threads = allocationCounter();
        AtomicLong done = new AtomicLong();
        Runnable task = done::incrementAndGet;
        try (WorkerPool pool = WorkerPool.create(1, options.disablePurge(true).build())) {
            long worker = workerId(pool);
            long fewest = Long.MAX_VALUE;
            for (int round = 0; round <= ROUNDS; round++) { // round 0 warms up
                long before = threads.getCurrentThreadAllocatedBytes() + threads.getThreadAllocatedBytes(worker);
                for (int i = 0; i < TASKS; i++) {
                    long target = done.get() + 1;
                    pool.execute(task);
                    while (done.get() < target) {
                        Thread.onSpinWait();
                    }
                }
                long after = threads.getCurrentThreadAllocatedBytes() + threads.getThreadAllocatedBytes(worker);
                if (round > 0) {
                    fewest = Math.min(fewest, after - before);
                }
            }
            return fewest;
        }
    }

    /** Queues the tasks behind a blocked worker, then lets them run; returns the fewest bytes both threads took. */
    private static long queued(PoolOptions.Builder options) throws Exception {
        com.sun.management.ThreadMXBean threads = allocationCounter();
        AtomicLong done = new AtomicLong();
        Runnable task = done::incrementAndGet;
        try (WorkerPool pool = WorkerPool.create(1, options.disablePurge(true).queueCapacity(-1).build())) {
            long worker = workerId(pool);
            long fewest = Long.MAX_VALUE;
            for (int round = 0; round <= ROUNDS; round++) { // round 0 warms up
                CountDownLatch gate = new CountDownLatch(1);
                CountDownLatch blocked = new CountDownLatch(1);
                pool.execute(() -> {
                    blocked.countDown();
                    Latches.awaitUninterruptibly(gate);
                });
                Latches.await(blocked);
                long start = done.get();
                long before = threads.getCurrentThreadAllocatedBytes() + threads.getThreadAllocatedBytes(worker);
                for (int i = 0; i < TASKS; i++) {
                    pool.execute(task);
                }
                gate.countDown();
                while (done.get() < start + TASKS) {
                    Thread.onSpinWait();
                }
                long after = threads.getCurrentThreadAllocatedBytes() + threads.getThreadAllocatedBytes(worker);
                if (round > 0) {
                    fewest = Math.min(fewest, after - before);
                }
            }
            return fewest;
        }
    }

    /** {@return the id of the pool's one worker thread, started by a first task} */
    private static long workerId(WorkerPool pool) {
        AtomicReference<Thread> worker = new AtomicReference<>();
        CountDownLatch ran = new CountDownLatch(1);
        pool.execute(() -> {
            worker.set(Thread.currentThread());
            ran.countDown();
        });
        Latches.await(ran);
        return worker.get().threadId();
    }

    private static com.sun.management.ThreadMXBean allocationCounter() {
        boolean supported = ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean bean
                && bean.isThreadAllocatedMemorySupported()
                && bean.isThreadAllocatedMemoryEnabled();
        assumeTrue(supported, "this JVM does not count allocated bytes per thread");
        return (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    }
}
