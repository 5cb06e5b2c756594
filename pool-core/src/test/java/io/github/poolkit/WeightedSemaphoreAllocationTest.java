package io.github.poolkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The uncontended paths (nobody waits) must not allocate: checked with HotSpot's per-thread allocation counter
 * (skipped on JVMs without it). Not a timing test; speed is for JMH.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class WeightedSemaphoreAllocationTest {

    private static final int CYCLES = 1_000_000;

    @Test
    void uncontendedAcquireAndReleaseAllocateNothing() throws InterruptedException {
        com.sun.management.ThreadMXBean threads = allocationCounter();
        WeightedSemaphore semaphore = new WeightedSemaphore(10);
        cycle(semaphore, CYCLES / 10); // warm up: class loading, interpreter profiles

        long before = threads.getCurrentThreadAllocatedBytes();
        cycle(semaphore, CYCLES);
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;

        // A single allocation per cycle would be >= 16 MB; allow a little for the JVM's own bookkeeping.
        assertThat(allocated).as("bytes allocated by %d uncontended cycles", CYCLES).isLessThan(64 * 1024);
        assertThat(semaphore.used()).isZero();
    }

    private static void cycle(WeightedSemaphore semaphore, int times) throws InterruptedException {
        for (int i = 0; i < times; i++) {
            semaphore.acquire(3);
            if (!semaphore.tryAcquire(2)) {
                throw new AssertionError("tryAcquire(2) failed with 7 permits free and nobody waiting");
            }
            semaphore.release(5);
        }
    }

    private static com.sun.management.ThreadMXBean allocationCounter() {
        boolean supported = ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean bean
                && bean.isThreadAllocatedMemorySupported()
                && bean.isThreadAllocatedMemoryEnabled();
        assumeTrue(supported, "this JVM does not count allocated bytes per thread");
        return (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    }
}
