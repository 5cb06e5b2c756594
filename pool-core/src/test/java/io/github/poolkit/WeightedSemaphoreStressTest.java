package io.github.poolkit;

import static io.github.poolkit.WeightedSemaphoreTest.assertState;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Randomized stress: several threads (platform, then virtual) acquire random weights through every entry point (blocking, try, timed,
 * permit, async with random cancels) while another thread interrupts them at random. Inside the critical region an
 * independent count of held permits must never exceed the size; at the end nothing is held and nobody waits.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WeightedSemaphoreStressTest {

    private static final long SIZE = 10;
    private static final int WORKERS = 4;
    private static final Duration RUN_FOR = Duration.ofMillis(1000);

    private final WeightedSemaphore semaphore = new WeightedSemaphore(SIZE);
    private final AtomicLong held = new AtomicLong();
    private final Queue<String> violations = new ConcurrentLinkedQueue<>();
    private final LongAdder grants = new LongAdder();
    private final LongAdder timeouts = new LongAdder();
    private final LongAdder interrupts = new LongAdder();
    private final LongAdder cancels = new LongAdder();

    @ParameterizedTest(name = "virtual threads: {0}")
    @ValueSource(booleans = {false, true})
    void randomRequestsTimeoutsAndInterruptsKeepTheInvariants(boolean virtual) throws InterruptedException {
        long deadline = System.nanoTime() + RUN_FOR.toNanos();
        Thread.Builder threads = virtual ? Thread.ofVirtual() : Thread.ofPlatform();
        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < WORKERS; i++) {
            workers.add(threads.name("stress-worker-" + i).start(() -> work(deadline)));
        }
        AtomicBoolean stop = new AtomicBoolean();
        Thread interrupter = Thread.ofPlatform().name("stress-interrupter").start(() -> interruptAtRandom(workers, stop));

        for (Thread worker : workers) {
            assertThat(worker.join(Duration.ofSeconds(30))).as("worker finished").isTrue();
        }
        stop.set(true);
        assertThat(interrupter.join(Duration.ofSeconds(10))).isTrue();

        assertThat(violations).isEmpty();
        assertThat(held.get()).isZero();
        assertState(semaphore, 0, 0);
        assertThat(grants.sum()).as("grants").isPositive();
        assertThat(timeouts.sum()).as("timeouts").isPositive();
        assertThat(interrupts.sum()).as("interrupts").isPositive();
        assertThat(cancels.sum()).as("cancels").isPositive();
    }

    private void work(long deadline) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        while (System.nanoTime() - deadline < 0) {
            long n = random.nextLong(SIZE + 1);
            try {
                switch (random.nextInt(5)) {
                    case 0 -> {
                        semaphore.acquire(n);
                        holdThenRelease(n);
                    }
                    case 1 -> {
                        if (semaphore.tryAcquire(n)) {
                            holdThenRelease(n);
                        }
                    }
                    case 2 -> {
                        if (semaphore.tryAcquire(n, Duration.ofNanos(random.nextLong(100_000)))) {
                            holdThenRelease(n);
                        } else {
                            timeouts.increment();
                        }
                    }
                    case 3 -> {
                        try (Permit permit = semaphore.acquirePermit(n)) {
                            hold(permit.permits());
                        }
                    }
                    default -> {
                        CompletableFuture<Permit> future = semaphore.acquireAsync(n);
                        if (random.nextBoolean() && future.cancel(false)) {
                            cancels.increment();
                        } else {
                            try (Permit permit = future.join()) {
                                hold(permit.permits());
                            }
                        }
                    }
                }
            } catch (InterruptedException e) {
                interrupts.increment();
            } catch (RuntimeException e) {
                violations.add("unexpected " + e);
            }
        }
        Thread.interrupted();
    }

    private void holdThenRelease(long n) {
        try {
            hold(n);
        } finally {
            semaphore.release(n);
        }
    }

    /** The critical region: an independent count of held permits must stay within the size. */
    private void hold(long n) {
        grants.increment();
        long now = held.addAndGet(n);
        if (now > SIZE) {
            violations.add("held " + now + " > size " + SIZE);
        }
        long used = semaphore.used();
        if (used > SIZE) {
            violations.add("used() " + used + " > size " + SIZE);
        }
        for (int spins = ThreadLocalRandom.current().nextInt(64); spins > 0; spins--) {
            Thread.onSpinWait();
        }
        held.addAndGet(-n);
    }

    private void interruptAtRandom(List<Thread> workers, AtomicBoolean stop) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        while (!stop.get()) {
            workers.get(random.nextInt(workers.size())).interrupt();
            int waiting = semaphore.waiting();
            if (waiting < 0 || waiting > WORKERS) {
                violations.add("waiting() " + waiting + " outside [0, " + WORKERS + "]");
            }
            LockSupport.parkNanos(random.nextLong(50_000, 500_000)); // pacing, not synchronisation
        }
    }
}
