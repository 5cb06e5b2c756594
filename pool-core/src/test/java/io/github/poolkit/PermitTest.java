package io.github.poolkit;

import static io.github.poolkit.WeightedSemaphoreTest.assertState;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link Permit}: holds its permits until closed, and closing releases them exactly once. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class PermitTest {

    @Test
    void holdsItsPermitsUntilClosed() throws InterruptedException {
        WeightedSemaphore semaphore = new WeightedSemaphore(5);
        Permit permit = semaphore.acquirePermit(3);
        assertThat(permit.permits()).isEqualTo(3);
        assertThat(permit.isClosed()).isFalse();
        assertThat(permit).hasToString("Permit[permits=3, closed=false]");
        assertState(semaphore, 3, 0);

        permit.close();
        assertThat(permit.isClosed()).isTrue();
        assertState(semaphore, 0, 0);
    }

    @Test
    void aSecondCloseIsANoOpEvenWhenOthersHoldPermits() throws InterruptedException {
        WeightedSemaphore semaphore = new WeightedSemaphore(5);
        Permit permit = semaphore.acquirePermit(3);
        permit.close();
        semaphore.acquire(5);

        permit.close(); // would release someone else's permits (or throw "released more than held") if not a no-op
        assertState(semaphore, 5, 0);
    }

    @Test
    void tryWithResourcesReleasesOnException() {
        WeightedSemaphore semaphore = new WeightedSemaphore(5);
        assertThatThrownBy(() -> {
            try (Permit permit = semaphore.acquirePermit(4)) {
                assertThat(semaphore.used()).isEqualTo(permit.permits()).isEqualTo(4);
                throw new IllegalStateException("task failed");
            }
        }).hasMessage("task failed");
        assertState(semaphore, 0, 0);
    }

    @Test
    void concurrentClosesReleaseOnce() throws Exception {
        int closers = 4;
        WeightedSemaphore semaphore = new WeightedSemaphore(10);
        semaphore.acquire(7);
        Permit permit = semaphore.acquirePermit(3);
        CyclicBarrier start = new CyclicBarrier(closers);
        List<CompletableFuture<Void>> closes = new ArrayList<>();
        try (ExecutorService threads = Executors.newFixedThreadPool(closers)) {
            for (int i = 0; i < closers; i++) {
                closes.add(CompletableFuture.runAsync(() -> {
                    await(start);
                    permit.close();
                }, threads));
            }
            CompletableFuture.allOf(closes.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
        }
        assertState(semaphore, 7, 0);
    }

    @Test
    void closingGrantsWaiters() throws InterruptedException {
        WeightedSemaphore semaphore = new WeightedSemaphore(2);
        Permit permit = semaphore.acquirePermit(2);
        CompletableFuture<Permit> next = semaphore.acquireAsync(2);
        assertThat(next).isNotDone();
        permit.close();
        assertThat(next).isCompleted();
        assertState(semaphore, 2, 0);
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aLocalPermitHasNoFencingToken() throws InterruptedException {
        assertThat(new WeightedSemaphore(1).acquirePermit(1).fencingToken()).isEqualTo(Permit.NO_FENCING_TOKEN);
    }

    @Test
    void aPermitMadeWithOfRunsItsReleaseOnceAndPassesOnItsFailure() {
        int[] runs = new int[1];
        Permit permit = Permit.of(2, 7, () -> {
            runs[0]++;
            throw new IllegalStateException("lease expired");
        });
        assertThat(permit.permits()).isEqualTo(2);
        assertThat(permit.fencingToken()).isEqualTo(7);

        assertThatThrownBy(permit::close).isInstanceOf(IllegalStateException.class).hasMessage("lease expired");
        permit.close();
        assertThat(runs[0]).isEqualTo(1);
        assertThat(permit.isClosed()).isTrue();
        assertThatThrownBy(() -> Permit.of(-1, 0, () -> { })).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aLocalPermitIsAlwaysValidAndNeverLost() throws Exception {
        WeightedSemaphore semaphore = new WeightedSemaphore(2);
        List<Permit> permits = List.of(semaphore.acquirePermit(1), semaphore.acquirePermit(1));
        for (Permit permit : permits) {
            CompletableFuture<Void> lost = permit.lost().toCompletableFuture();
            assertThat(permit.isValid()).isTrue();
            permit.close();
            assertThat(permit.isValid()).as("closing does not make a permit invalid").isTrue();
            assertThat(lost).isNotDone();
            assertThat(permit.lost().toCompletableFuture()).isNotDone();
        }
        Permit async = semaphore.acquireAsync(2).get(5, TimeUnit.SECONDS);
        assertThat(async.isValid()).isTrue();
        assertThat(async.lost().toCompletableFuture()).isNotDone();
        async.close();
    }

    @Test
    void aPermitMadeWithALostSignalTurnsInvalidWhenItCompletesAndItsStageIsReadOnly() {
        CompletableFuture<Void> signal = new CompletableFuture<>();
        Permit permit = Permit.of(2, 7, () -> { }, signal);
        CompletableFuture<Void> seen = permit.lost().toCompletableFuture();
        assertThat(seen.complete(null)).isTrue(); // a copy: completing it changes nothing
        assertThat(permit.isValid()).isTrue();
        assertThat(permit.lost().toCompletableFuture()).isNotDone();
        assertThatThrownBy(() -> ((CompletableFuture<?>) permit.lost()).complete(null))
                .isInstanceOf(UnsupportedOperationException.class);

        CompletableFuture<Void> heard = permit.lost().thenRun(() -> { }).toCompletableFuture();
        signal.complete(null);
        assertThat(permit.isValid()).isFalse();
        assertThat(heard).isCompleted();
        assertThat(permit).hasToString("Permit[permits=2, closed=false, lost]");
        permit.close();
        assertThat(permit.isValid()).isFalse();
        assertThat(Permit.of(1, 1, () -> { }).isValid()).isTrue();
    }
}
