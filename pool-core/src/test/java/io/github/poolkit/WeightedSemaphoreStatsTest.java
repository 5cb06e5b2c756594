package io.github.poolkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link WeightedSemaphore#stats()}: size, used and waiting of one instant, and the scope of a local semaphore. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class WeightedSemaphoreStatsTest {

    @Test
    void statsShowSizeUsedWaitingAndAvailableTogether() throws Exception {
        WeightedSemaphore semaphore = new WeightedSemaphore(5);
        assertThat(semaphore.scope()).isEqualTo("local");
        assertThat(semaphore.stats()).isEqualTo(new SemaphoreStats(5, 0, 0));
        semaphore.acquire(3);
        CompletableFuture<Permit> waiter = semaphore.acquireAsync(4);
        SemaphoreStats stats = semaphore.stats();
        assertThat(stats).isEqualTo(new SemaphoreStats(5, 3, 1));
        assertThat(stats.available()).isEqualTo(2);

        semaphore.resize(10); // grants the waiter: its future may complete on another thread
        assertThat(semaphore.stats()).isEqualTo(new SemaphoreStats(10, 7, 0));
        assertThat(waiter).succeedsWithin(Duration.ofSeconds(5));
        semaphore.resize(5); // below what is in use: available goes negative
        assertThat(semaphore.stats()).isEqualTo(new SemaphoreStats(5, 7, 0));
        assertThat(semaphore.stats().available()).isEqualTo(-2);
    }

    @Test
    void theInterfacesDefaultReadsTheFiguresOneByOne() {
        PermitSemaphore semaphore = new WeightedSemaphore(4);
        PermitSemaphore plain = new PermitSemaphore() {
            @Override public void acquire(long n) { }
            @Override public Permit acquirePermit(long n) { return null; }
            @Override public CompletableFuture<Permit> acquireAsync(long n) { return null; }
            @Override public boolean tryAcquire(long n) { return semaphore.tryAcquire(n); }
            @Override public boolean tryAcquire(long n, Duration timeout) { return false; }
            @Override public void release(long n) { }
            @Override public void resize(long size) { }
            @Override public long size() { return semaphore.size(); }
            @Override public long used() { return semaphore.used(); }
            @Override public long available() { return semaphore.available(); }
            @Override public int waiting() { return semaphore.waiting(); }
        };
        assertThat(plain.tryAcquire(3)).isTrue();
        assertThat(plain.stats()).isEqualTo(new SemaphoreStats(4, 3, 0));
        assertThat(plain.scope()).isEqualTo("local");
    }

    /**
     * Every request takes the whole size, so at any one instant somebody waits only while the permits are held: a
     * snapshot never shows a waiter beside free permits, whatever releases and grants run meanwhile.
     */
    @RepeatedTest(20)
    void aSnapshotNeverShowsAWaiterBesideFreePermits() throws Exception {
        WeightedSemaphore semaphore = new WeightedSemaphore(2);
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch started = new CountDownLatch(4);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            Thread thread = new Thread(() -> {
                started.countDown();
                try {
                    while (!stop.get()) {
                        semaphore.acquire(2);
                        semaphore.release(2);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            thread.start();
            threads.add(thread);
        }
        started.await();
        int sawWaiters = 0;
        for (int i = 0; i < 20_000; i++) {
            SemaphoreStats stats = semaphore.stats();
            assertThat(stats.used()).as("used").isIn(0L, 2L);
            if (stats.waiting() > 0) {
                sawWaiters++;
                assertThat(stats.available()).as("free permits while %d wait", stats.waiting()).isZero();
            }
        }
        stop.set(true);
        for (Thread thread : threads) {
            thread.join();
        }
        assertThat(semaphore.stats()).isEqualTo(new SemaphoreStats(2, 0, 0));
        System.out.println("snapshots with waiters: " + sawWaiters);
    }
}
