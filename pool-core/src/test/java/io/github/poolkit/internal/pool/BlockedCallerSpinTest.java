package io.github.poolkit.internal.pool;

import io.github.poolkit.PoolOptions;
import io.github.poolkit.PoolOverloadException;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The caller first in line of a full pool spins briefly before it parks ({@link CallerLine#await}, platform threads
 * on more than one processor): interrupted, it still leaves the line, refused, and passes its turn on; with a time
 * limit, it still gives up once the limit has passed, and not before.
 */
@Timeout(20)
class BlockedCallerSpinTest {

    @RepeatedTest(10)
    void anInterruptedHeadLeavesTheLineAndTheCallerBehindGetsTheNextPlace() throws Exception {
        PoolEngine pool = new PoolEngine(1, PoolOptions.builder().name("s").build(), t -> ((Runnable) t).run());
        CountDownLatch blockerMayEnd = new CountDownLatch(1);
        List<String> ran = new CopyOnWriteArrayList<>();
        try {
            pool.execute((Runnable) () -> awaitQuietly(blockerMayEnd));
            CompletableFuture<Throwable> head = new CompletableFuture<>();
            Thread first = Thread.ofPlatform().start(() -> {
                try {
                    pool.execute((Runnable) () -> ran.add("first"));
                    head.complete(null);
                } catch (Throwable e) {
                    head.complete(Thread.currentThread().isInterrupted() ? e : new AssertionError("interrupt lost", e));
                }
            });
            await().atMost(Duration.ofSeconds(10)).until(() -> pool.stats().blocked() == 1);
            CountDownLatch secondReturned = new CountDownLatch(1);
            Thread.ofPlatform().start(() -> {
                pool.execute((Runnable) () -> ran.add("second"));
                secondReturned.countDown();
            });
            await().atMost(Duration.ofSeconds(10)).until(() -> pool.stats().blocked() == 2);

            first.interrupt(); // the head, spinning or parked
            assertThat(head.get(10, TimeUnit.SECONDS)).isInstanceOf(RejectedExecutionException.class)
                    .hasCauseInstanceOf(InterruptedException.class);
            assertThat(pool.stats().blocked()).isEqualTo(1);

            blockerMayEnd.countDown(); // the place frees: the caller now first in line gets it
            assertThat(secondReturned.await(10, TimeUnit.SECONDS)).isTrue();
            await().atMost(Duration.ofSeconds(10)).until(() -> ran.contains("second"));
            assertThat(ran).containsExactly("second");
        } finally {
            blockerMayEnd.countDown();
            pool.shutdownNow();
        }
        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    @RepeatedTest(10)
    void aHeadWithATimeLimitGivesUpWhenItPassesAndNotBefore() throws Exception {
        long limitNanos = TimeUnit.MILLISECONDS.toNanos(50);
        PoolEngine pool = new PoolEngine(1, PoolOptions.builder().name("s").build(), t -> ((Runnable) t).run());
        CountDownLatch blockerMayEnd = new CountDownLatch(1);
        try {
            pool.execute((Runnable) () -> awaitQuietly(blockerMayEnd));
            long start = System.nanoTime();
            try {
                pool.execute((Runnable) () -> { }, limitNanos);
                throw new AssertionError("accepted by a full pool");
            } catch (PoolOverloadException expected) {
                long waited = System.nanoTime() - start;
                assertThat(waited).isBetween(limitNanos, limitNanos + TimeUnit.SECONDS.toNanos(2));
            }
            assertThat(pool.stats().blocked()).isZero();
        } finally {
            blockerMayEnd.countDown();
            pool.shutdownNow();
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
