package io.github.poolkit.abuse;

import io.github.poolkit.Permit;
import io.github.poolkit.WeightedSemaphore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Abuse of {@link WeightedSemaphore}'s public entry points: negative, zero and huge weights (near {@code Long.MAX_VALUE},
 * where {@code used + n} would overflow), null and extreme timeouts, interrupted callers, over-release and double
 * close. Each call either works as the javadoc says or fails at once with a clear exception and leaves the semaphore
 * exactly as it was.
 */
@Timeout(20)
class WeightedSemaphoreAbuseTest {

    @Test
    void negativeSizeIsRejected() {
        assertThatThrownBy(() -> new WeightedSemaphore(-1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("size").hasMessageContaining("-1");
        assertThatThrownBy(() -> new WeightedSemaphore(Long.MIN_VALUE)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void negativeWeightsAreRejectedEverywhere() {
        WeightedSemaphore s = new WeightedSemaphore(4);
        assertThatThrownBy(() -> s.acquire(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> s.acquirePermit(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> s.acquireAsync(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> s.tryAcquire(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> s.tryAcquire(Long.MIN_VALUE, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> s.release(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThat(s.used()).isZero();
        assertThat(s.waiting()).isZero();
    }

    @Test
    void requestsLargerThanTheSizeFailAtOnceInsteadOfWaitingForever() throws Exception {
        WeightedSemaphore s = new WeightedSemaphore(4);
        assertThatThrownBy(() -> s.acquire(5)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> s.acquirePermit(Long.MAX_VALUE)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> s.acquireAsync(5)).isInstanceOf(IllegalArgumentException.class);
        assertThat(s.tryAcquire(5)).isFalse();
        assertThat(s.tryAcquire(Long.MAX_VALUE, Duration.ofDays(1))).as("returns false at once").isFalse();
        assertThat(s.waiting()).isZero();
    }

    @Test
    void aZeroSizeSemaphoreGrantsOnlyZero() throws Exception {
        WeightedSemaphore s = new WeightedSemaphore(0);
        s.acquire(0);
        assertThat(s.tryAcquire(0)).isTrue();
        assertThat(s.acquireAsync(0).get(1, TimeUnit.SECONDS).permits()).isZero();
        assertThat(s.tryAcquire(1)).isFalse();
        assertThatThrownBy(() -> s.acquire(1)).isInstanceOf(IllegalArgumentException.class);
        s.release(0);
        assertThat(s.available()).isZero();
    }

    @Test
    void hugeWeightsNearLongMaxValueNeverOverflow() throws Exception {
        WeightedSemaphore s = new WeightedSemaphore(Long.MAX_VALUE);
        assertThat(s.tryAcquire(Long.MAX_VALUE - 1)).isTrue();
        assertThat(s.tryAcquire(2)).as("used + 2 would overflow").isFalse();
        assertThat(s.tryAcquire(Long.MAX_VALUE)).isFalse();
        assertThat(s.used()).isEqualTo(Long.MAX_VALUE - 1);
        assertThat(s.available()).isEqualTo(1);
        assertThat(s.tryAcquire(1)).isTrue();
        assertThat(s.available()).isZero();
        assertThatThrownBy(() -> s.release(Long.MAX_VALUE - 1 + 2)).isInstanceOf(IllegalArgumentException.class);
        s.release(Long.MAX_VALUE);
        assertThat(s.used()).isZero();

        // the same through the queue: a waiting request of Long.MAX_VALUE and an over-release while it waits
        assertThat(s.tryAcquire(1)).isTrue();
        CompletableFuture<Permit> all = s.acquireAsync(Long.MAX_VALUE);
        assertThat(s.waiting()).isEqualTo(1);
        assertThatThrownBy(() -> s.release(2)).isInstanceOf(IllegalStateException.class);
        assertThat(all).isNotDone();
        s.release(1);
        try (Permit p = all.get(5, TimeUnit.SECONDS)) {
            assertThat(p.permits()).isEqualTo(Long.MAX_VALUE);
            assertThat(s.used()).isEqualTo(Long.MAX_VALUE);
        }
        assertThat(s.used()).isZero();
    }

    @Test
    void releasingMoreThanHeldFailsAndChangesNothing() {
        WeightedSemaphore s = new WeightedSemaphore(3);
        assertThat(s.tryAcquire(2)).isTrue();
        assertThatThrownBy(() -> s.release(3)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("released more than held");
        assertThatThrownBy(() -> s.release(Long.MAX_VALUE)).isInstanceOf(IllegalStateException.class);
        assertThat(s.used()).isEqualTo(2);
        s.release(2);
        assertThatThrownBy(() -> s.release(1)).isInstanceOf(IllegalStateException.class);
        assertThat(s.used()).isZero();
    }

    @Test
    void closingAPermitTwiceReleasesOnce() throws Exception {
        WeightedSemaphore s = new WeightedSemaphore(3);
        Permit p = s.acquirePermit(2);
        p.close();
        p.close();
        assertThat(p.isClosed()).isTrue();
        assertThat(s.used()).isZero();
    }

    @Test
    void nullAndExtremeTimeouts() throws Exception {
        WeightedSemaphore s = new WeightedSemaphore(1);
        assertThatThrownBy(() -> s.tryAcquire(1, null)).isInstanceOf(NullPointerException.class);
        assertThat(s.used()).isZero();
        assertThat(s.tryAcquire(1, Duration.ofSeconds(Long.MAX_VALUE))).as("free: granted at once").isTrue();
        assertThat(s.tryAcquire(1, Duration.ofSeconds(Long.MIN_VALUE))).as("negative: a plain tryAcquire").isFalse();
        assertThat(s.tryAcquire(1, Duration.ZERO)).isFalse();
        assertThat(s.tryAcquire(1, Duration.of(1, ChronoUnit.NANOS))).isFalse();
        assertThat(s.waiting()).isZero();
    }

    @Test
    void aCallerInterruptedOnEntryGetsInterruptedExceptionAndHoldsNothing() {
        WeightedSemaphore s = new WeightedSemaphore(2);
        Thread.currentThread().interrupt();
        assertThatThrownBy(() -> s.acquire(1)).isInstanceOf(InterruptedException.class);
        assertThat(Thread.interrupted()).as("the interrupt status is cleared").isFalse();
        assertThat(s.used()).isZero();
    }

    @Test
    void anEndlessTimedWaitIsEndedByAnInterruptAndLeavesTheLine() throws Exception {
        WeightedSemaphore s = new WeightedSemaphore(1);
        assertThat(s.tryAcquire(1)).isTrue();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        Thread waiter = Thread.ofPlatform().start(() -> {
            try {
                s.tryAcquire(1, Duration.ofSeconds(Long.MAX_VALUE));
            } catch (Throwable e) {
                thrown.set(e);
            }
            done.countDown();
        });
        await().atMost(Duration.ofSeconds(5)).until(() -> s.waiting() == 1);
        waiter.interrupt();
        assertThat(done.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
        assertThat(s.waiting()).isZero();
        assertThat(s.used()).isEqualTo(1);
    }

    @Test
    void aCancelledOrTimedOutAsyncRequestLeavesTheLine() throws Exception {
        WeightedSemaphore s = new WeightedSemaphore(2);
        assertThat(s.tryAcquire(2)).isTrue();
        CompletableFuture<Permit> cancelled = s.acquireAsync(1);
        CompletableFuture<Permit> timedOut = s.acquireAsync(2).orTimeout(1, TimeUnit.MILLISECONDS);
        assertThat(cancelled.cancel(true)).isTrue();
        await().atMost(Duration.ofSeconds(5)).until(timedOut::isDone);
        assertThat(s.waiting()).isZero();
        s.release(2);
        assertThat(s.used()).isZero();
        assertThat(s.tryAcquire(2)).isTrue();
    }
}
