package io.github.poolkit;

import static io.github.poolkit.SemaphoreListener.AcquireOutcome.ACQUIRED;
import static io.github.poolkit.SemaphoreListener.AcquireOutcome.CANCELLED;
import static io.github.poolkit.SemaphoreListener.AcquireOutcome.INTERRUPTED;
import static io.github.poolkit.SemaphoreListener.AcquireOutcome.REJECTED;
import static io.github.poolkit.SemaphoreListener.AcquireOutcome.TIMEOUT;
import static io.github.poolkit.WeightedSemaphoreCaller.awaitTrue;
import static io.github.poolkit.WeightedSemaphoreCaller.awaitWaiting;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.poolkit.SemaphoreListener.AcquireOutcome;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link SemaphoreListener} under races: every request is settled exactly once, with the outcome its caller saw, and
 * never while the semaphore's internal lock is held; no permit is granted twice or leaked.
 */
@Timeout(60)
class WeightedSemaphoreSettleOnceTest {

    /**
     * The listener asks another thread for {@link WeightedSemaphore#stats()}, which takes the internal lock: if the
     * listener were called under that lock, the other thread could not finish.
     */
    @Test
    void theListenerIsNeverCalledUnderTheLockOnAnyPath() throws Exception {
        List<String> calledUnderLock = new CopyOnWriteArrayList<>();
        List<AcquireOutcome> outcomes = new CopyOnWriteArrayList<>();
        AtomicReference<WeightedSemaphore> self = new AtomicReference<>();
        WeightedSemaphore s = new WeightedSemaphore(4, (permits, waited, outcome) -> {
            try {
                CompletableFuture.supplyAsync(() -> self.get().stats()).get(5, TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                calledUnderLock.add(outcome + " of " + permits);
            } catch (Exception e) {
                throw new AssertionError(e);
            }
            outcomes.add(outcome);
        });
        self.set(s);

        s.acquire(4); // ACQUIRED at once
        assertThat(s.tryAcquire(1)).isFalse(); // REJECTED
        WeightedSemaphoreCaller blocked = WeightedSemaphoreCaller.acquire(s, 2);
        awaitWaiting(s, 1);
        CompletableFuture<Permit> async = s.acquireAsync(2);
        awaitWaiting(s, 2);
        s.release(4); // grants both: ACQUIRED, ACQUIRED (the async one completed by this thread)
        assertThat(blocked.join()).isTrue();
        async.get(5, TimeUnit.SECONDS).close();
        s.release(2);

        s.acquire(4);
        CompletableFuture<Permit> cancelled = s.acquireAsync(1);
        assertThat(cancelled.cancel(false)).isTrue(); // CANCELLED
        assertThat(s.tryAcquire(1, Duration.ofMillis(1))).isFalse(); // TIMEOUT
        WeightedSemaphoreCaller interrupted = WeightedSemaphoreCaller.acquire(s, 1);
        awaitWaiting(s, 1);
        interrupted.thread().interrupt(); // INTERRUPTED
        assertThat(interrupted.joinFailure()).isInstanceOf(InterruptedException.class);
        WeightedSemaphoreCaller refused = WeightedSemaphoreCaller.acquire(s, 3);
        awaitWaiting(s, 1);
        CompletableFuture<Permit> refusedAsync = s.acquireAsync(3);
        awaitWaiting(s, 2);
        s.resize(2); // REJECTED, REJECTED
        assertThat(refused.joinFailure()).isInstanceOf(IllegalArgumentException.class);
        awaitTrue(refusedAsync::isCompletedExceptionally);
        CompletableFuture<Permit> grownInto = s.acquireAsync(1);
        s.resize(5); // ACQUIRED by the grow
        grownInto.get(5, TimeUnit.SECONDS).close();

        awaitTrue(() -> outcomes.size() == 11);
        assertThat(calledUnderLock).isEmpty();
        assertThat(outcomes).containsExactlyInAnyOrder(ACQUIRED, REJECTED, ACQUIRED, ACQUIRED, ACQUIRED, CANCELLED,
                TIMEOUT, INTERRUPTED, REJECTED, REJECTED, ACQUIRED);
    }

    /**
     * Four threads acquire in every form (some futures cancelled at once, racing their grant; some timed requests
     * timing out, racing theirs) while a fifth resizes between 3 and 8 (never below a request, so nothing is refused).
     * Each caller counts the outcome it saw; the listener must have heard exactly those, once each. The permits the
     * callers hold never exceed the largest size, and none is left in use.
     */
    @RepeatedTest(20)
    void everyRequestIsSettledOnceWithTheOutcomeItsCallerSaw() throws Exception {
        Map<AcquireOutcome, LongAdder> heard = counters();
        Map<AcquireOutcome, LongAdder> seen = counters();
        WeightedSemaphore s = new WeightedSemaphore(4, (permits, waited, outcome) -> heard.get(outcome).increment());
        AtomicLong held = new AtomicLong();
        AtomicLong mostHeld = new AtomicLong();
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        CountDownLatch start = new CountDownLatch(1);
        Thread[] callers = new Thread[4];
        for (int t = 0; t < callers.length; t++) {
            callers[t] = Thread.ofPlatform().start(() -> {
                Latches.await(start);
                ThreadLocalRandom random = ThreadLocalRandom.current();
                try {
                    for (int i = 0; i < 2_000; i++) {
                        long n = random.nextInt(4); // 0..3: always within the size
                        switch (random.nextInt(5)) {
                            case 0 -> {
                                s.acquire(n);
                                use(s, n, held, mostHeld);
                                seen.get(ACQUIRED).increment();
                            }
                            case 1 -> {
                                boolean ok = s.tryAcquire(n);
                                if (ok) {
                                    use(s, n, held, mostHeld);
                                }
                                seen.get(ok ? ACQUIRED : REJECTED).increment();
                            }
                            case 2 -> {
                                boolean ok = s.tryAcquire(n, Duration.ofNanos(random.nextInt(1, 20_000)));
                                if (ok) {
                                    use(s, n, held, mostHeld);
                                }
                                seen.get(ok ? ACQUIRED : TIMEOUT).increment();
                            }
                            case 3 -> {
                                CompletableFuture<Permit> f = s.acquireAsync(n);
                                if (f.cancel(false)) {
                                    seen.get(CANCELLED).increment();
                                } else {
                                    Permit p = f.join();
                                    held.addAndGet(n);
                                    mostHeld.accumulateAndGet(held.get(), Math::max);
                                    held.addAndGet(-n);
                                    p.close();
                                    seen.get(ACQUIRED).increment();
                                }
                            }
                            default -> {
                                try (Permit p = s.acquireAsync(n).get(10, TimeUnit.SECONDS)) {
                                    held.addAndGet(n);
                                    mostHeld.accumulateAndGet(held.get(), Math::max);
                                    held.addAndGet(-n);
                                }
                                seen.get(ACQUIRED).increment();
                            }
                        }
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            });
        }
        runWhileResizing(s, 3, start, callers, failures);
        assertThat(mostHeld.get()).isLessThanOrEqualTo(8);
        // A grant that lost to a cancel is given back, and an async grant reported, by the granting thread, which may
        // still be at it when the callers are done.
        awaitTrue(() -> s.used() == 0 && sum(heard) == sum(seen));
        assertThat(s.waiting()).isZero();
        for (AcquireOutcome o : AcquireOutcome.values()) {
            assertThat(heard.get(o).sum()).as(o.name()).isEqualTo(seen.get(o).sum());
        }
        assertThat(heard.get(INTERRUPTED).sum()).isZero();
    }

    /**
     * A shrink refuses two async requests; the listener, hearing of the first, cancels the second's future before the
     * shrink has completed it. The cancel wins the future (its caller sees it cancelled), so the listener must hear
     * CANCELLED for it, as when a cancel beats a grant, not REJECTED. Before the fix it heard REJECTED.
     */
    @RepeatedTest(20)
    void aRefusalThatLosesTheFutureToACancelIsReportedCancelled() throws Exception {
        List<AcquireOutcome> outcomes = new CopyOnWriteArrayList<>();
        AtomicReference<CompletableFuture<Permit>> second = new AtomicReference<>();
        AtomicReference<Boolean> cancelled = new AtomicReference<>();
        WeightedSemaphore s = new WeightedSemaphore(4, (permits, waited, outcome) -> {
            if (outcome == REJECTED && cancelled.get() == null && second.get() != null) {
                cancelled.set(second.get().cancel(false)); // the second is refused but not yet completed
            }
            outcomes.add(outcome);
        });
        s.acquire(4);
        CompletableFuture<Permit> first = s.acquireAsync(3);
        second.set(s.acquireAsync(4));
        awaitWaiting(s, 2);
        s.resize(2);
        assertThat(first).isCompletedExceptionally();
        assertThat(cancelled.get()).isTrue();
        assertThat(second.get()).isCancelled();
        assertThat(outcomes).containsExactly(ACQUIRED, REJECTED, CANCELLED);
        assertThat(s.waiting()).isZero();
        assertThat(s.used()).isEqualTo(4);
    }

    /**
     * As above, but the resizes go down to 0 and the requests up to 5, so shrinks refuse waiting requests of every
     * form (racing their grants, cancels and timeouts). A timed request that returns false may have timed out or been
     * refused at once, so those two are compared together.
     */
    @RepeatedTest(20)
    void everyRequestIsSettledOnceAlsoWhenShrinksRefuseThem() throws Exception {
        Map<AcquireOutcome, LongAdder> heard = counters();
        Map<AcquireOutcome, LongAdder> seen = counters();
        LongAdder timedFalse = new LongAdder();
        WeightedSemaphore s = new WeightedSemaphore(4, (permits, waited, outcome) -> heard.get(outcome).increment());
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        CountDownLatch start = new CountDownLatch(1);
        Thread[] callers = new Thread[4];
        for (int t = 0; t < callers.length; t++) {
            callers[t] = Thread.ofPlatform().start(() -> {
                Latches.await(start);
                ThreadLocalRandom random = ThreadLocalRandom.current();
                try {
                    for (int i = 0; i < 2_000; i++) {
                        long n = random.nextInt(6);
                        try {
                            switch (random.nextInt(4)) {
                                case 0 -> {
                                    s.acquire(n);
                                    s.release(n);
                                    seen.get(ACQUIRED).increment();
                                }
                                case 1 -> {
                                    if (s.tryAcquire(n, Duration.ofNanos(random.nextInt(1, 20_000)))) {
                                        s.release(n);
                                        seen.get(ACQUIRED).increment();
                                    } else {
                                        timedFalse.increment();
                                    }
                                }
                                case 2 -> {
                                    CompletableFuture<Permit> f = s.acquireAsync(n);
                                    if (f.cancel(false)) {
                                        seen.get(CANCELLED).increment();
                                    } else if (f.isCompletedExceptionally()) {
                                        seen.get(REJECTED).increment();
                                    } else {
                                        f.join().close();
                                        seen.get(ACQUIRED).increment();
                                    }
                                }
                                default -> {
                                    CompletableFuture<Permit> f = s.acquireAsync(n);
                                    Permit p;
                                    try {
                                        p = f.get(10, TimeUnit.SECONDS);
                                    } catch (java.util.concurrent.ExecutionException e) {
                                        assertThat(e.getCause()).isInstanceOf(IllegalArgumentException.class);
                                        seen.get(REJECTED).increment();
                                        continue;
                                    }
                                    p.close();
                                    seen.get(ACQUIRED).increment();
                                }
                            }
                        } catch (IllegalArgumentException refused) { // too large at once, or refused by a shrink
                            seen.get(REJECTED).increment();
                        }
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            });
        }
        runWhileResizing(s, 0, start, callers, failures);
        awaitTrue(() -> s.used() == 0 && sum(heard) == sum(seen) + timedFalse.sum());
        assertThat(s.waiting()).isZero();
        assertThat(heard.get(ACQUIRED).sum()).isEqualTo(seen.get(ACQUIRED).sum());
        assertThat(heard.get(CANCELLED).sum()).isEqualTo(seen.get(CANCELLED).sum());
        assertThat(heard.get(TIMEOUT).sum() + heard.get(REJECTED).sum())
                .isEqualTo(timedFalse.sum() + seen.get(REJECTED).sum());
        assertThat(heard.get(INTERRUPTED).sum()).isZero();
    }

    /** Holds {@code n} permits for an instant, then releases them. */
    private static void use(WeightedSemaphore s, long n, AtomicLong held, AtomicLong mostHeld) {
        mostHeld.accumulateAndGet(held.addAndGet(n), Math::max);
        held.addAndGet(-n);
        s.release(n);
    }

    private static long sum(Map<AcquireOutcome, LongAdder> counters) {
        return counters.values().stream().mapToLong(LongAdder::sum).sum();
    }

    private static Map<AcquireOutcome, LongAdder> counters() {
        Map<AcquireOutcome, LongAdder> map = new EnumMap<>(AcquireOutcome.class);
        for (AcquireOutcome o : AcquireOutcome.values()) {
            map.put(o, new LongAdder());
        }
        return map;
    }

    /**
     * Opens {@code start} for the callers while another thread resizes {@code s} at random between {@code least} and
     * 8, until every caller is done; then checks that none is stuck and none failed.
     */
    private static void runWhileResizing(WeightedSemaphore s, int least, CountDownLatch start, Thread[] callers,
                                         List<Throwable> failures) throws InterruptedException {
        Thread resizer = Thread.ofPlatform().start(() -> {
            Latches.await(start);
            ThreadLocalRandom random = ThreadLocalRandom.current();
            while (!Thread.currentThread().isInterrupted()) {
                s.resize(random.nextInt(least, 9));
                Thread.onSpinWait();
            }
        });
        start.countDown();
        for (Thread t : callers) {
            t.join(TimeUnit.SECONDS.toMillis(50));
            assertThat(t.isAlive()).as("a caller is stuck: %s", s).isFalse();
        }
        resizer.interrupt();
        resizer.join();
        assertThat(failures).isEmpty();
    }
}
