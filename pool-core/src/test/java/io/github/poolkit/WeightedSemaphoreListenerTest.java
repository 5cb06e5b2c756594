package io.github.poolkit;

import static io.github.poolkit.SemaphoreListener.AcquireOutcome.ACQUIRED;
import static io.github.poolkit.SemaphoreListener.AcquireOutcome.CANCELLED;
import static io.github.poolkit.SemaphoreListener.AcquireOutcome.INTERRUPTED;
import static io.github.poolkit.SemaphoreListener.AcquireOutcome.REJECTED;
import static io.github.poolkit.SemaphoreListener.AcquireOutcome.TIMEOUT;
import static io.github.poolkit.WeightedSemaphoreCaller.acquireQueued;
import static io.github.poolkit.WeightedSemaphoreCaller.awaitTrue;
import static io.github.poolkit.WeightedSemaphoreCaller.awaitWaiting;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.poolkit.SemaphoreListener.AcquireOutcome;
import io.github.poolkit.internal.LogCapture;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link SemaphoreListener}: one call per settled request, on every path, with the right outcome and wait. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class WeightedSemaphoreListenerTest {

    /** One call the listener received. */
    private record Settled(long permits, long waitedNanos, AcquireOutcome outcome) {
    }

    private final List<Settled> settled = new CopyOnWriteArrayList<>();
    private final WeightedSemaphore semaphore =
            new WeightedSemaphore(10, (permits, waited, outcome) -> settled.add(new Settled(permits, waited, outcome)));

    @AfterEach
    void clearInterruptStatus() {
        Thread.interrupted();
    }

    private Settled only() {
        awaitTrue(() -> !settled.isEmpty());
        assertThat(settled).hasSize(1);
        return settled.removeFirst();
    }

    @Test
    void grantsWithoutWaitingReportAcquiredWithZeroWait() throws InterruptedException {
        semaphore.acquire(2);
        assertThat(only()).isEqualTo(new Settled(2, 0, ACQUIRED));
        semaphore.acquirePermit(1);
        assertThat(only()).isEqualTo(new Settled(1, 0, ACQUIRED));
        assertThat(semaphore.tryAcquire(3)).isTrue();
        assertThat(only()).isEqualTo(new Settled(3, 0, ACQUIRED));
        assertThat(semaphore.tryAcquire(1, Duration.ofSeconds(1))).isTrue();
        assertThat(only()).isEqualTo(new Settled(1, 0, ACQUIRED));
        assertThat(semaphore.acquireAsync(1)).isCompleted();
        assertThat(only()).isEqualTo(new Settled(1, 0, ACQUIRED));
        semaphore.release(8);
        assertThat(settled).as("releases are not requests").isEmpty();
    }

    @Test
    void refusalsAtOnceReportRejected() throws InterruptedException {
        assertThatThrownBy(() -> semaphore.acquire(11)).isInstanceOf(IllegalArgumentException.class);
        assertThat(only()).isEqualTo(new Settled(11, 0, REJECTED));
        assertThatThrownBy(() -> semaphore.acquireAsync(11)).isInstanceOf(IllegalArgumentException.class);
        assertThat(only()).isEqualTo(new Settled(11, 0, REJECTED));
        assertThat(semaphore.tryAcquire(11)).isFalse();
        assertThat(only()).isEqualTo(new Settled(11, 0, REJECTED));
        assertThat(semaphore.tryAcquire(10)).isTrue();
        settled.clear();
        assertThat(semaphore.tryAcquire(1)).isFalse();
        assertThat(only()).isEqualTo(new Settled(1, 0, REJECTED));
        assertThat(semaphore.tryAcquire(1, Duration.ZERO)).isFalse();
        assertThat(only()).isEqualTo(new Settled(1, 0, REJECTED));
        assertThatThrownBy(() -> semaphore.acquire(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThat(settled).as("a negative weight is not a request").isEmpty();
    }

    @Test
    void aGrantAfterAWaitReportsAcquiredWithTheWait() throws InterruptedException {
        semaphore.acquire(10);
        settled.clear();
        WeightedSemaphoreCaller waiter = acquireQueued(semaphore, 4, 1);
        CompletableFuture<Permit> async = semaphore.acquireAsync(3);
        long before = System.nanoTime();
        while (System.nanoTime() - before < 1_000_000) {
            Thread.onSpinWait(); // let at least 1 ms pass, so the wait is measurably positive
        }
        assertThat(settled).isEmpty();
        semaphore.release(10);
        assertThat(waiter.join()).isTrue();
        assertThat(async).isCompleted();
        awaitTrue(() -> settled.size() == 2);
        assertThat(settled).extracting(Settled::outcome).containsOnly(ACQUIRED);
        assertThat(settled).extracting(Settled::permits).containsExactlyInAnyOrder(4L, 3L);
        assertThat(settled).allSatisfy(s -> assertThat(s.waitedNanos()).isGreaterThanOrEqualTo(1_000_000));
    }

    @Test
    void timeoutInterruptCancelAndShrinkReportTheirOutcomes() throws Exception {
        semaphore.acquire(10);
        settled.clear();

        assertThat(semaphore.tryAcquire(2, Duration.ofMillis(5))).isFalse();
        Settled timeout = only();
        assertThat(timeout.outcome()).isEqualTo(TIMEOUT);
        assertThat(timeout.waitedNanos()).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(5));

        WeightedSemaphoreCaller interrupted = acquireQueued(semaphore, 3, 1);
        interrupted.thread().interrupt();
        assertThat(interrupted.joinFailure()).isInstanceOf(InterruptedException.class);
        assertThat(only().outcome()).isEqualTo(INTERRUPTED);

        Thread.currentThread().interrupt();
        assertThatThrownBy(() -> semaphore.acquire(1)).isInstanceOf(InterruptedException.class);
        assertThat(only()).isEqualTo(new Settled(1, 0, INTERRUPTED));

        CompletableFuture<Permit> cancelled = semaphore.acquireAsync(4);
        awaitWaiting(semaphore, 1);
        assertThat(cancelled.cancel(false)).isTrue();
        assertThat(only()).extracting(Settled::permits, Settled::outcome).containsExactly(4L, CANCELLED);

        CompletableFuture<Permit> timedOut = semaphore.acquireAsync(4).orTimeout(5, TimeUnit.MILLISECONDS);
        assertThat(timedOut).failsWithin(Duration.ofSeconds(10)).withThrowableThat()
                .withCauseInstanceOf(TimeoutException.class);
        assertThat(only()).extracting(Settled::permits, Settled::outcome).containsExactly(4L, TIMEOUT);
        assertThat(semaphore.waiting()).isZero();

        CompletableFuture<Permit> refused = semaphore.acquireAsync(9);
        WeightedSemaphoreCaller refusedThread = acquireQueued(semaphore, 8, 2);
        semaphore.resize(7);
        assertThat(refusedThread.joinFailure()).isInstanceOf(IllegalArgumentException.class);
        assertThat(refused).isCompletedExceptionally();
        awaitTrue(() -> settled.size() == 2);
        assertThat(settled).extracting(Settled::outcome).containsOnly(REJECTED);
        assertThat(semaphore.waiting()).isZero();
    }

    @Test
    void aThrowingListenerIsLoggedAndIgnored() throws InterruptedException {
        WeightedSemaphore throwing = new WeightedSemaphore(1, (permits, waited, outcome) -> {
            throw new IllegalStateException("listener bug");
        });
        try (LogCapture log = LogCapture.start()) {
            throwing.acquire(1);
            assertThat(throwing.tryAcquire(1)).isFalse();
            throwing.release(1);
            assertThat(throwing.used()).isZero();
            assertThat(log.records()).hasSize(2)
                    .allSatisfy(r -> assertThat(r.getThrown()).hasMessage("listener bug"));
        }
    }

    /**
     * A listener that throws a checked exception it never declared (Kotlin code, a sneaky throw) is logged and ignored
     * as well: it escaped, and the caller, told nothing of the permits it was granted, never gave them back.
     */
    @Test
    void aListenerThatThrowsAnUndeclaredCheckedExceptionIsLoggedAndIgnored() throws Exception {
        WeightedSemaphore throwing = new WeightedSemaphore(1, (permits, waited, outcome) -> sneakyThrow(
                new java.io.IOException("listener bug")));
        try (LogCapture log = LogCapture.start()) {
            throwing.acquire(1);
            assertThat(throwing.used()).isEqualTo(1);
            throwing.release(1);
            try (Permit permit = throwing.acquireAsync(1).join()) {
                assertThat(throwing.used()).isEqualTo(1);
            }
            assertThat(throwing.used()).isZero();
            assertThat(log.records()).hasSize(2)
                    .allSatisfy(r -> assertThat(r.getThrown()).hasMessage("listener bug"));
        }
    }

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> void sneakyThrow(Throwable e) throws E {
        throw (E) e;
    }

    /**
     * A listener added later (a tool metering a semaphore made elsewhere) hears of every request settled from then on,
     * after the listener given at construction, with the same outcomes and waits; one that throws stops neither the
     * others nor the semaphore.
     */
    @Test
    void anAddedListenerHearsEveryLaterRequestAfterTheOthers() throws InterruptedException {
        List<String> order = new CopyOnWriteArrayList<>();
        WeightedSemaphore bare = new WeightedSemaphore(2);
        assertThat(bare.tryAcquire(1)).as("nobody listens yet").isTrue();
        bare.addListener((permits, waited, outcome) -> order.add("first " + permits + " " + outcome));
        bare.addListener((permits, waited, outcome) -> {
            throw new IllegalStateException("listener bug");
        });
        List<Settled> added = new CopyOnWriteArrayList<>();
        bare.addListener((permits, waited, outcome) -> {
            order.add("third " + permits + " " + outcome);
            added.add(new Settled(permits, waited, outcome));
        });
        try (LogCapture log = LogCapture.start()) {
            assertThat(bare.tryAcquire(1)).isTrue();
            assertThat(bare.tryAcquire(1)).isFalse();
            assertThat(log.records()).hasSize(2).allSatisfy(r -> assertThat(r.getThrown()).hasMessage("listener bug"));
        }
        assertThat(order).containsExactly("first 1 ACQUIRED", "third 1 ACQUIRED", "first 1 REJECTED",
                "third 1 REJECTED");
        added.clear();
        assertThat(bare.tryAcquire(1, Duration.ofMillis(5))).isFalse();
        awaitTrue(() -> added.size() == 1);
        assertThat(added.getFirst().outcome()).isEqualTo(TIMEOUT);
        assertThat(added.getFirst().waitedNanos()).as("a wait is timed").isGreaterThanOrEqualTo(5_000_000L);

        semaphore.addListener((permits, waited, outcome) -> added.add(new Settled(permits, waited, outcome)));
        added.clear();
        semaphore.acquire(3);
        assertThat(only()).as("the constructor's listener still hears").isEqualTo(new Settled(3, 0, ACQUIRED));
        assertThat(added).containsExactly(new Settled(3, 0, ACQUIRED));
        assertThatThrownBy(() -> semaphore.addListener(null)).isInstanceOf(NullPointerException.class);
    }
}
