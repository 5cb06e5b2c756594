package io.github.poolkit.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link ReplySpin}: when a caller busy-waits for a reply, and that it never waits past the reply or its budget. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ReplySpinTest {

    /** A budget no test reaches: if the spin returns, it is because the reply came or it never spun. */
    private static final Duration FOREVER = Duration.ofMinutes(10);

    @Test
    void aSpinEndsWhenTheReplyComes() throws Exception {
        assumeTrue(Runtime.getRuntime().availableProcessors() > 1, "spins only on a multi-processor machine");
        ReplySpin spin = new ReplySpin(FOREVER);
        CompletableFuture<String> reply = new CompletableFuture<>();
        CountDownLatch spinning = new CountDownLatch(1);
        AtomicBoolean doneWhenReturned = new AtomicBoolean();
        Thread caller = Thread.ofPlatform().start(() -> {
            spinning.countDown();
            spin.awaitBriefly(reply);
            doneWhenReturned.set(reply.isDone());
        });
        spinning.await();
        reply.complete("answer");
        caller.join();
        assertThat(doneWhenReturned).isTrue(); // it did not give up early: the budget is ten minutes
    }

    @Test
    void aZeroBudgetNeverSpins() {
        new ReplySpin(Duration.ZERO).awaitBriefly(new CompletableFuture<>()); // returns, or the test times out
    }

    @Test
    void afterSpinsThatTheReplyOutlastedCallersMostlyParkAtOnce() {
        assumeTrue(Runtime.getRuntime().availableProcessors() > 1, "spins only on a multi-processor machine");
        ReplySpin spin = new ReplySpin(Duration.ofMillis(20));
        CompletableFuture<String> never = new CompletableFuture<>(); // a distant or stalled Redis
        long start = System.nanoTime();
        for (int i = 0; i < 200; i++) {
            spin.awaitBriefly(never);
        }
        // backing off 1, 2, 4 ... 64 calls, 200 calls spin 8 times (160 ms); spinning every time would take 4 s
        assertThat(System.nanoTime() - start).isLessThan(TimeUnit.SECONDS.toNanos(2));
    }

    @Test
    void nobodySpinsWhileAnotherRunIsInFlight() {
        ReplySpin spin = new ReplySpin(FOREVER);
        spin.sent(); // another caller's run
        spin.sent(); // this caller's run
        spin.awaitBriefly(new CompletableFuture<>()); // returns, or the test times out
        spin.settled();
        spin.settled();
    }

    @Test
    void aVirtualThreadNeverSpins() throws Exception {
        ReplySpin spin = new ReplySpin(FOREVER);
        Thread.ofVirtual().start(() -> spin.awaitBriefly(new CompletableFuture<>())).join(); // or the test times out
    }

    @Test
    void aSpinEndsAtTheBudget() {
        new ReplySpin(Duration.ofMillis(5)).awaitBriefly(new CompletableFuture<>()); // returns, or the test times out
    }
}
