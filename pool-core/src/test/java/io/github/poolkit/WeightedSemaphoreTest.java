package io.github.poolkit;

import static io.github.poolkit.WeightedSemaphoreCaller.acquireQueued;
import static io.github.poolkit.WeightedSemaphoreCaller.awaitTrue;
import static io.github.poolkit.WeightedSemaphoreCaller.awaitWaiting;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Behaviour of {@link WeightedSemaphore}'s blocking and non-blocking acquires, releases and observers. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class WeightedSemaphoreTest {

    @AfterEach
    void clearInterruptStatus() {
        Thread.interrupted(); // never leak an interrupt into the next test
    }

    @Nested
    class Arguments {

        @Test
        void negativeSizeIsRejectedWithTheValue() {
            assertThatThrownBy(() -> new WeightedSemaphore(-1))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("size")
                    .hasMessageContaining("-1");
        }

        @Test
        void negativeWeightsAreRejectedByEveryOperation() {
            WeightedSemaphore semaphore = new WeightedSemaphore(5);
            assertThatThrownBy(() -> semaphore.acquire(-1)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("-1");
            assertThatThrownBy(() -> semaphore.acquirePermit(-1)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> semaphore.acquireAsync(-1)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> semaphore.tryAcquire(-1)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> semaphore.tryAcquire(-1, Duration.ofSeconds(1)))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> semaphore.release(-1)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("-1");
            assertState(semaphore, 0, 0);
        }

        @Test
        void negativeWeightMessageNamesTheMethodCalled() {
            WeightedSemaphore semaphore = new WeightedSemaphore(5);
            assertThatThrownBy(() -> semaphore.acquire(-1)).hasMessageStartingWith("acquire: ");
            assertThatThrownBy(() -> semaphore.acquirePermit(-1)).hasMessageStartingWith("acquirePermit: ");
            assertThatThrownBy(() -> semaphore.acquireAsync(-1)).hasMessageStartingWith("acquireAsync: ");
            assertThatThrownBy(() -> semaphore.tryAcquire(-1)).hasMessageStartingWith("tryAcquire: ");
            assertThatThrownBy(() -> semaphore.tryAcquire(-1, Duration.ofSeconds(1)))
                    .hasMessageStartingWith("tryAcquire: ");
            assertThatThrownBy(() -> semaphore.release(-1)).hasMessageStartingWith("release: ");
            assertState(semaphore, 0, 0);
        }

        @Test
        void blockingAcquireOfMoreThanSizeFailsAtOnce() {
            WeightedSemaphore semaphore = new WeightedSemaphore(5);
            assertThatThrownBy(() -> semaphore.acquire(6))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("6")
                    .hasMessageContaining("size 5");
            assertThatThrownBy(() -> semaphore.acquirePermit(6)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> semaphore.acquireAsync(6)).isInstanceOf(IllegalArgumentException.class);
            assertState(semaphore, 0, 0);
        }

        @Test
        void tryAcquireOfMoreThanSizeReturnsFalseAtOnce() throws InterruptedException {
            WeightedSemaphore semaphore = new WeightedSemaphore(5);
            assertThat(semaphore.tryAcquire(6)).isFalse();
            assertThat(semaphore.tryAcquire(6, Duration.ofDays(1))).isFalse(); // would hit @Timeout if it waited
            assertState(semaphore, 0, 0);
        }

        @Test
        void nullTimeoutIsRejected() {
            WeightedSemaphore semaphore = new WeightedSemaphore(5);
            assertThatThrownBy(() -> semaphore.tryAcquire(1, null)).isInstanceOf(NullPointerException.class);
        }

        @Test
        void zeroSizeGrantsOnlyZero() throws InterruptedException {
            WeightedSemaphore semaphore = new WeightedSemaphore(0);
            semaphore.acquire(0);
            assertThat(semaphore.tryAcquire(0)).isTrue();
            assertThat(semaphore.tryAcquire(1)).isFalse();
            assertThatThrownBy(() -> semaphore.acquire(1)).isInstanceOf(IllegalArgumentException.class);
            assertState(semaphore, 0, 0);
            assertThat(semaphore.available()).isZero();
        }
    }

    @Nested
    class Accounting {

        @Test
        void acquireAndReleaseMoveUsedAndAvailable() throws InterruptedException {
            WeightedSemaphore semaphore = new WeightedSemaphore(10);
            assertThat(semaphore.size()).isEqualTo(10);
            semaphore.acquire(3);
            assertThat(semaphore.tryAcquire(4)).isTrue();
            assertThat(semaphore.tryAcquire(2, Duration.ofSeconds(1))).isTrue();
            assertThat(semaphore.used()).isEqualTo(9);
            assertThat(semaphore.available()).isEqualTo(1);
            assertThat(semaphore.tryAcquire(2)).isFalse();
            semaphore.release(9);
            assertState(semaphore, 0, 0);
            assertThat(semaphore.available()).isEqualTo(10);
            assertThat(semaphore).hasToString("WeightedSemaphore[size=10, used=0, waiting=0]");
        }

        @Test
        void theWholeLongRangeIsUsable() throws InterruptedException {
            WeightedSemaphore semaphore = new WeightedSemaphore(Long.MAX_VALUE);
            semaphore.acquire(Long.MAX_VALUE);
            assertThat(semaphore.used()).isEqualTo(Long.MAX_VALUE);
            assertThat(semaphore.available()).isZero();

            WeightedSemaphoreCaller waiter = acquireQueued(semaphore, 1, 1);
            assertThat(semaphore.used()).isEqualTo(Long.MAX_VALUE); // not disturbed by the waiters flag
            semaphore.release(Long.MAX_VALUE);
            assertThat(waiter.join()).isTrue();
            assertState(semaphore, 1, 0);
            semaphore.release(1);
            assertState(semaphore, 0, 0);
        }

        @Test
        void overReleaseIsRejectedAndChangesNothing() throws InterruptedException {
            WeightedSemaphore semaphore = new WeightedSemaphore(10);
            assertThatThrownBy(() -> semaphore.release(1))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("released more than held");
            semaphore.acquire(3);
            assertThatThrownBy(() -> semaphore.release(4))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("released more than held");
            assertState(semaphore, 3, 0);
            semaphore.release(3);
            assertState(semaphore, 0, 0);
        }

        @Test
        void overReleaseWhileOthersWaitChangesNothing() throws InterruptedException {
            WeightedSemaphore semaphore = new WeightedSemaphore(2);
            semaphore.acquire(2);
            WeightedSemaphoreCaller waiter = acquireQueued(semaphore, 1, 1);

            assertThatThrownBy(() -> semaphore.release(3))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("released more than held");
            assertState(semaphore, 2, 1);
            assertThat(waiter.isDone()).isFalse();

            semaphore.release(2);
            assertThat(waiter.join()).isTrue();
            assertState(semaphore, 1, 0);
        }

        @Test
        void anyThreadMayRelease() throws Exception {
            WeightedSemaphore semaphore = new WeightedSemaphore(4);
            semaphore.acquire(4);
            CompletableFuture.runAsync(() -> semaphore.release(4)).get(10, TimeUnit.SECONDS);
            assertState(semaphore, 0, 0);
        }
    }

    @Nested
    class Fifo {

        @Test
        void waitersAreGrantedInArrivalOrderAndNobodyOvertakes() throws InterruptedException {
            WeightedSemaphore semaphore = new WeightedSemaphore(10);
            semaphore.acquire(10);
            WeightedSemaphoreCaller first = acquireQueued(semaphore, 6, 1);
            WeightedSemaphoreCaller second = acquireQueued(semaphore, 5, 2);
            WeightedSemaphoreCaller third = acquireQueued(semaphore, 1, 3);

            semaphore.release(6);
            assertThat(first.join()).isTrue();
            assertState(semaphore, 10, 2);

            semaphore.release(4); // 6 free: the second (5) still does not fit, and the third (1) must not overtake it
            assertState(semaphore, 6, 2);
            assertThat(second.isDone()).isFalse();
            assertThat(third.isDone()).isFalse();

            semaphore.release(6); // the first's permits: now both fit, granted in one go
            assertThat(second.join()).isTrue();
            assertThat(third.join()).isTrue();
            assertState(semaphore, 6, 0);
        }

        @Test
        void smallRequestsQueueBehindAWaitingRequestForAllPermits() throws InterruptedException {
            WeightedSemaphore semaphore = new WeightedSemaphore(4);
            semaphore.acquire(1);
            WeightedSemaphoreCaller big = acquireQueued(semaphore, 4, 1);

            assertThat(semaphore.tryAcquire(1)).isFalse(); // 3 free, but the big request came first
            WeightedSemaphoreCaller small = acquireQueued(semaphore, 1, 2);
            CompletableFuture<Permit> smallAsync = semaphore.acquireAsync(1);
            assertState(semaphore, 1, 3);

            semaphore.release(1);
            assertThat(big.join()).isTrue();
            assertState(semaphore, 4, 2);
            assertThat(small.isDone()).isFalse();
            assertThat(smallAsync).isNotDone();

            semaphore.release(4);
            assertThat(small.join()).isTrue();
            assertThat(smallAsync).isCompleted();
            assertState(semaphore, 2, 0);
        }

        @Test
        void aRequestForAllPermitsIsNotStarvedByAStreamOfSmallOnes() throws InterruptedException {
            WeightedSemaphore semaphore = new WeightedSemaphore(4);
            int churners = 3;
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong smallGrants = new AtomicLong();
            WeightedSemaphoreCaller[] stream = new WeightedSemaphoreCaller[churners];
            for (int i = 0; i < churners; i++) {
                stream[i] = WeightedSemaphoreCaller.start(() -> {
                    while (!stop.get()) {
                        semaphore.acquire(1);
                        smallGrants.incrementAndGet();
                        semaphore.release(1);
                    }
                    return true;
                });
            }
            awaitTrue(() -> smallGrants.get() > 1_000); // the stream is flowing

            semaphore.acquire(4); // must get through (else @Timeout fails the test)
            long grantsWhileHeld = smallGrants.get();
            assertThat(semaphore.used()).isEqualTo(4);
            awaitTrue(() -> semaphore.waiting() == churners); // every small request now waits behind us
            assertThat(smallGrants.get()).isEqualTo(grantsWhileHeld);

            stop.set(true);
            semaphore.release(4);
            for (WeightedSemaphoreCaller churner : stream) {
                assertThat(churner.join()).isTrue();
            }
            assertState(semaphore, 0, 0);
        }

        @Test
        void tryAcquireNeverBargesPastAWaiter() throws InterruptedException {
            WeightedSemaphore semaphore = new WeightedSemaphore(10);
            semaphore.acquire(8);
            WeightedSemaphoreCaller waiter = acquireQueued(semaphore, 5, 1);

            assertThat(semaphore.available()).isEqualTo(2);
            assertThat(semaphore.tryAcquire(1)).isFalse();
            assertThat(semaphore.tryAcquire(0)).isFalse();
            assertState(semaphore, 8, 1);

            semaphore.release(8);
            assertThat(waiter.join()).isTrue();
            assertThat(semaphore.tryAcquire(5)).isTrue(); // nobody waits any more
            assertState(semaphore, 10, 0);
        }

        @Test
        void timedTryAcquireWaitsInLineLikeAnyRequest() throws InterruptedException {
            WeightedSemaphore semaphore = new WeightedSemaphore(10);
            semaphore.acquire(8);
            WeightedSemaphoreCaller first = acquireQueued(semaphore, 5, 1);
            WeightedSemaphoreCaller timed =
                    WeightedSemaphoreCaller.start(() -> semaphore.tryAcquire(1, Duration.ofMinutes(1)));
            awaitWaiting(semaphore, 2);
            assertThat(timed.isDone()).isFalse(); // 2 permits free, but it does not overtake the first

            semaphore.release(8);
            assertThat(first.join()).isTrue();
            assertThat(timed.join()).isTrue();
            assertState(semaphore, 6, 0);
        }

        @Test
        void acquireZeroReturnsAtOnceWhenNobodyWaitsEvenIfAllPermitsAreUsed() throws InterruptedException {
            WeightedSemaphore semaphore = new WeightedSemaphore(1);
            semaphore.acquire(1);
            semaphore.acquire(0);
            assertThat(semaphore.tryAcquire(0)).isTrue();
            assertState(semaphore, 1, 0);
        }

        @Test
        void acquireZeroWaitsBehindEarlierRequests() throws InterruptedException {
            WeightedSemaphore semaphore = new WeightedSemaphore(1);
            semaphore.acquire(1);
            WeightedSemaphoreCaller one = acquireQueued(semaphore, 1, 1);
            WeightedSemaphoreCaller zero = acquireQueued(semaphore, 0, 2);
            assertThat(zero.isDone()).isFalse();

            semaphore.release(1);
            assertThat(one.join()).isTrue();
            assertThat(zero.join()).isTrue();
            assertState(semaphore, 1, 0);
        }

        @Test
        void aLongTimeoutIsNotCutShort() throws InterruptedException {
            WeightedSemaphore semaphore = new WeightedSemaphore(1);
            semaphore.acquire(1);
            WeightedSemaphoreCaller forever =
                    WeightedSemaphoreCaller.start(() -> semaphore.tryAcquire(1, Duration.ofSeconds(Long.MAX_VALUE)));
            awaitWaiting(semaphore, 1);
            semaphore.release(1);
            assertThat(forever.join()).isTrue();
            assertState(semaphore, 1, 0);
        }
    }

    @Nested
    class GivingUp {

        @Test
        void interruptOnEntryThrowsWithoutAcquiring() {
            WeightedSemaphore semaphore = new WeightedSemaphore(5);
            Thread.currentThread().interrupt();
            assertThatThrownBy(() -> semaphore.acquire(1)).isInstanceOf(InterruptedException.class);
            assertThat(Thread.currentThread().isInterrupted()).isFalse();
            Thread.currentThread().interrupt();
            assertThatThrownBy(() -> semaphore.tryAcquire(1, Duration.ofSeconds(1)))
                    .isInstanceOf(InterruptedException.class);
            assertState(semaphore, 0, 0);
        }

        @Test
        void timeoutReturnsFalseAndLeavesTheStateAsBefore() throws InterruptedException {
            WeightedSemaphore semaphore = new WeightedSemaphore(10);
            semaphore.acquire(10);
            assertThat(semaphore.tryAcquire(1, Duration.ofMillis(20))).isFalse();
            assertThat(semaphore.tryAcquire(1, Duration.ZERO)).isFalse();
            assertThat(semaphore.tryAcquire(1, Duration.ofSeconds(-1))).isFalse();
            assertState(semaphore, 10, 0);
        }

        @Test
        void interruptedWaiterThrowsAndLeavesTheStateAsBefore() throws InterruptedException {
            WeightedSemaphore semaphore = new WeightedSemaphore(10);
            semaphore.acquire(10);
            WeightedSemaphoreCaller first = acquireQueued(semaphore, 5, 1);
            WeightedSemaphoreCaller second = acquireQueued(semaphore, 2, 2);

            second.thread().interrupt(); // not the head: nothing else changes
            assertThat(second.joinFailure()).isInstanceOf(InterruptedException.class);
            assertState(semaphore, 10, 1);
            assertThat(first.isDone()).isFalse();

            semaphore.release(10);
            assertThat(first.join()).isTrue();
            assertState(semaphore, 5, 0);
        }

        @Test
        void interruptedTimedWaiterThrowsAndLeavesTheStateAsBefore() throws InterruptedException {
            WeightedSemaphore semaphore = new WeightedSemaphore(10);
            semaphore.acquire(10);
            WeightedSemaphoreCaller timed =
                    WeightedSemaphoreCaller.start(() -> semaphore.tryAcquire(5, Duration.ofMinutes(1)));
            awaitWaiting(semaphore, 1);
            timed.thread().interrupt();
            assertThat(timed.joinFailure()).isInstanceOf(InterruptedException.class);
            assertState(semaphore, 10, 0);
        }

        @Test
        void interruptedHeadLetsTheFollowersThatFitThrough() throws InterruptedException {
            WeightedSemaphore semaphore = new WeightedSemaphore(10);
            semaphore.acquire(8);
            WeightedSemaphoreCaller head = acquireQueued(semaphore, 5, 1);
            WeightedSemaphoreCaller fits = acquireQueued(semaphore, 2, 2);
            WeightedSemaphoreCaller doesNotFit = acquireQueued(semaphore, 1, 3);

            head.thread().interrupt();
            assertThat(head.joinFailure()).isInstanceOf(InterruptedException.class);
            assertThat(fits.join()).isTrue();
            assertState(semaphore, 10, 1);
            assertThat(doesNotFit.isDone()).isFalse();

            semaphore.release(1);
            assertThat(doesNotFit.join()).isTrue();
            assertState(semaphore, 10, 0);
        }

        @Test
        void timedOutHeadLetsTheFollowersThatFitThrough() throws InterruptedException {
            WeightedSemaphore semaphore = new WeightedSemaphore(10);
            semaphore.acquire(8);
            WeightedSemaphoreCaller head =
                    WeightedSemaphoreCaller.start(() -> semaphore.tryAcquire(5, Duration.ofSeconds(1)));
            awaitWaiting(semaphore, 1);
            CompletableFuture<Permit> fits = semaphore.acquireAsync(2);
            CompletableFuture<Permit> doesNotFit = semaphore.acquireAsync(1);
            assumeTrue(!head.isDone(),
                    "the head timed out before the followers queued (machine far too slow); nothing to check");
            assertThat(fits).isNotDone();

            assertThat(head.join()).isFalse();
            // completed on a virtual thread of its own, so that its stages never delay the head's return
            assertThat(fits).succeedsWithin(Duration.ofSeconds(10));
            assertState(semaphore, 10, 1);
            assertThat(doesNotFit).isNotDone();

            fits.join().close();
            assertThat(doesNotFit).isCompleted();
            assertState(semaphore, 9, 0);
        }
    }

    /** Asserts used() and waiting() together (each a snapshot; callers use them when nothing else moves). */
    static void assertState(WeightedSemaphore semaphore, long used, int waiting) {
        assertThat(semaphore.used()).as("used").isEqualTo(used);
        assertThat(semaphore.waiting()).as("waiting").isEqualTo(waiting);
        assertThat(semaphore.available()).as("available").isEqualTo(semaphore.size() - used);
    }
}
