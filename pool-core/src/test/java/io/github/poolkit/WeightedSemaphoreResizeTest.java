package io.github.poolkit;

import static io.github.poolkit.WeightedSemaphoreCaller.acquireQueued;
import static io.github.poolkit.WeightedSemaphoreCaller.awaitWaiting;
import static io.github.poolkit.WeightedSemaphoreTest.assertState;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link WeightedSemaphore#resize(long)}: growing, shrinking below what is in use, refusing waiters that no longer fit.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class WeightedSemaphoreResizeTest {

    @AfterEach
    void clearInterruptStatus() {
        Thread.interrupted();
    }

    @Test
    void negativeSizeIsRejectedAndChangesNothing() {
        WeightedSemaphore semaphore = new WeightedSemaphore(5);
        assertThatThrownBy(() -> semaphore.resize(-3)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-3");
        assertThat(semaphore.size()).isEqualTo(5);
    }

    @Test
    void growingGrantsTheWaitersThatNowFitInOrderAndStopsAtTheFirstThatDoesNot() throws InterruptedException {
        WeightedSemaphore semaphore = new WeightedSemaphore(4);
        semaphore.acquire(4);
        WeightedSemaphoreCaller first = acquireQueued(semaphore, 3, 1);
        CompletableFuture<Permit> second = semaphore.acquireAsync(2);
        WeightedSemaphoreCaller third = acquireQueued(semaphore, 4, 3);
        CompletableFuture<Permit> fourth = semaphore.acquireAsync(1); // would fit, but stands behind the third

        semaphore.resize(9); // 5 more: first (3) and second (2) fit, third (4) does not
        assertThat(first.join()).isTrue();
        assertThat(second).isCompleted();
        assertThat(third.isDone()).isFalse();
        assertThat(fourth).isNotDone();
        assertState(semaphore, 9, 2);
        assertThat(semaphore.tryAcquire(0)).as("no barging past the third").isFalse();

        semaphore.resize(14);
        assertThat(third.join()).isTrue();
        assertThat(fourth).isCompleted();
        assertState(semaphore, 14, 0);
        assertThat(semaphore.available()).isZero();
    }

    @Test
    void shrinkingBelowWhatIsInUseTakesNothingBackAndNewGrantsWaitUntilUsedFits() throws InterruptedException {
        WeightedSemaphore semaphore = new WeightedSemaphore(10);
        semaphore.acquire(8);
        semaphore.resize(5);
        assertThat(semaphore.size()).isEqualTo(5);
        assertThat(semaphore.used()).isEqualTo(8);
        assertThat(semaphore.available()).isEqualTo(-3);
        assertThat(semaphore.tryAcquire(0)).as("not even zero fits while used > size").isFalse();
        assertThat(semaphore.tryAcquire(1, Duration.ZERO)).isFalse();

        WeightedSemaphoreCaller waiter = acquireQueued(semaphore, 2, 1);
        semaphore.release(4); // used 4 of 5: the waiter (2) does not fit yet
        assertThat(waiter.isDone()).isFalse();
        assertState(semaphore, 4, 1);
        semaphore.release(1); // used 3: 2 fit
        assertThat(waiter.join()).isTrue();
        assertState(semaphore, 5, 0);
        semaphore.release(5);
        assertThat(semaphore.tryAcquire(5)).isTrue();
        assertThat(semaphore.tryAcquire(1)).as("the new size holds").isFalse();
    }

    @Test
    void shrinkingRefusesTheWaitersLargerThanTheNewSizeAndLetsTheFollowersThatFitThrough() throws Exception {
        WeightedSemaphore semaphore = new WeightedSemaphore(10);
        semaphore.acquire(7);
        WeightedSemaphoreCaller large = acquireQueued(semaphore, 9, 1);
        WeightedSemaphoreCaller timedLarge =
                WeightedSemaphoreCaller.start(() -> semaphore.tryAcquire(8, Duration.ofMinutes(1)));
        awaitWaiting(semaphore, 2);
        CompletableFuture<Permit> asyncLarge = semaphore.acquireAsync(7);
        CompletableFuture<Permit> fits = semaphore.acquireAsync(1);
        CompletableFuture<Permit> waits = semaphore.acquireAsync(2);
        awaitWaiting(semaphore, 5);

        semaphore.resize(6); // 7 in use: only a request of at most 6 could ever be granted; nothing fits yet
        assertThat(large.joinFailure()).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("9");
        assertThat(timedLarge.joinFailure()).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(asyncLarge::join).hasCauseInstanceOf(IllegalArgumentException.class);
        assertThat(fits).isNotDone();
        assertState(semaphore, 7, 2);

        semaphore.release(2); // used 5 of 6: the new head (1) fits, then 2 does not
        assertThat(fits).isCompleted();
        assertThat(waits).isNotDone();
        assertState(semaphore, 6, 1);
        semaphore.resize(8);
        assertThat(waits).isCompleted();
        assertState(semaphore, 8, 0);
    }

    @Test
    void aRequestLargerThanTheCurrentSizeFailsAtOnceAfterAShrink() throws InterruptedException {
        WeightedSemaphore semaphore = new WeightedSemaphore(10);
        semaphore.resize(3);
        assertThatThrownBy(() -> semaphore.acquire(4)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("size 3");
        assertThatThrownBy(() -> semaphore.acquireAsync(4)).isInstanceOf(IllegalArgumentException.class);
        assertThat(semaphore.tryAcquire(4)).isFalse();
        assertThat(semaphore.tryAcquire(4, Duration.ofSeconds(10))).as("returns false at once").isFalse();
        assertState(semaphore, 0, 0);
    }

    @Test
    void aShrunkSemaphoreKeepsEveryRuleAndGrowingBackRestoresIt() throws InterruptedException {
        WeightedSemaphore semaphore = new WeightedSemaphore(10);
        semaphore.resize(4); // below the high mark: every operation goes through the lock
        assertThat(semaphore.tryAcquire(4)).isTrue();
        assertThat(semaphore.tryAcquire(1)).isFalse();
        WeightedSemaphoreCaller waiter = acquireQueued(semaphore, 1, 1);
        assertThat(semaphore.tryAcquire(0)).as("no barging").isFalse();
        semaphore.release(4);
        assertThat(waiter.join()).isTrue();
        assertThatThrownBy(() -> semaphore.release(2)).isInstanceOf(IllegalStateException.class);
        semaphore.release(1);
        semaphore.resize(10); // back at the high mark
        assertThat(semaphore.tryAcquire(10)).isTrue();
        semaphore.release(10);
        assertState(semaphore, 0, 0);
        semaphore.resize(10); // the same size: a no-op
        assertThat(semaphore.size()).isEqualTo(10);
    }

    /**
     * Workers acquire and release in every form while another thread resizes between 2 and 10 at random. Requests
     * refused by a shrink fail with IllegalArgumentException and hold nothing; at the end nothing is held or queued.
     */
    @RepeatedTest(20)
    void concurrentResizesLoseNoPermitAndLeaveNobodyStuck() throws InterruptedException {
        long max = 10;
        WeightedSemaphore semaphore = new WeightedSemaphore(max);
        AtomicLong held = new AtomicLong();
        Queue<String> violations = new ConcurrentLinkedQueue<>();
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            workers.add(Thread.ofPlatform().start(() -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                for (int k = 0; k < 2_000; k++) {
                    long n = random.nextLong(4);
                    try {
                        boolean got = switch (random.nextInt(3)) {
                            case 0 -> {
                                semaphore.acquire(n);
                                yield true;
                            }
                            case 1 -> semaphore.tryAcquire(n) || semaphore.tryAcquire(n, Duration.ofNanos(50_000));
                            default -> {
                                semaphore.acquireAsync(n).join().close();
                                yield false;
                            }
                        };
                        if (got) {
                            if (held.addAndGet(n) > max) {
                                violations.add("held more than the largest size");
                            }
                            held.addAndGet(-n);
                            semaphore.release(n);
                        }
                    } catch (IllegalArgumentException | java.util.concurrent.CompletionException refused) {
                        // refused by a shrink below n: holds nothing
                    } catch (InterruptedException | RuntimeException e) {
                        violations.add("unexpected " + e);
                    }
                }
            }));
        }
        Thread resizer = Thread.ofPlatform().start(() -> {
            ThreadLocalRandom random = ThreadLocalRandom.current();
            while (!stop.get()) {
                semaphore.resize(2 + random.nextLong(max - 1));
                Thread.yield();
            }
        });
        for (Thread worker : workers) {
            // A waiter may stand behind a shrink until the next resize; the resizer keeps going until all are done.
            assertThat(worker.join(Duration.ofSeconds(20))).as("worker finished").isTrue();
        }
        stop.set(true);
        resizer.join();
        assertThat(violations).isEmpty();
        semaphore.resize(max);
        assertState(semaphore, 0, 0);
        assertThat(semaphore.tryAcquire(max)).as("every permit is back").isTrue();
    }
}
