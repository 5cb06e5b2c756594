package io.github.poolkit;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Test support: one blocking semaphore call made on its own thread, so a test can watch it wait, interrupt it, and
 * read its outcome ({@code true}/{@code false}, or the exception it threw).
 */
final class WeightedSemaphoreCaller {

    /** A blocking call that answers true/false or throws. */
    @FunctionalInterface
    interface BlockingCall {
        boolean call() throws Exception;
    }

    private final Thread thread;
    private final CompletableFuture<Boolean> outcome = new CompletableFuture<>();

    private WeightedSemaphoreCaller(BlockingCall call) {
        thread = Thread.ofPlatform().daemon().name("semaphore-caller").unstarted(() -> {
            try {
                outcome.complete(call.call());
            } catch (Throwable t) {
                outcome.completeExceptionally(t);
            }
        });
    }

    /** Starts {@code call} on a new thread. */
    static WeightedSemaphoreCaller start(BlockingCall call) {
        WeightedSemaphoreCaller caller = new WeightedSemaphoreCaller(call);
        caller.thread.start();
        return caller;
    }

    /** Starts {@code semaphore.acquire(n)} (outcome true once it returns). */
    static WeightedSemaphoreCaller acquire(WeightedSemaphore semaphore, long n) {
        return start(() -> {
            semaphore.acquire(n);
            return true;
        });
    }

    /**
     * Starts {@code semaphore.acquire(n)} and waits until the request is queued, i.e. {@code waiting()} has reached
     * {@code waitingAfter}. Callers started this way one after the other stand in line in that order.
     */
    static WeightedSemaphoreCaller acquireQueued(WeightedSemaphore semaphore, long n, int waitingAfter) {
        WeightedSemaphoreCaller caller = acquire(semaphore, n);
        awaitWaiting(semaphore, waitingAfter);
        return caller;
    }

    /** Waits (polling, bounded) until {@code semaphore.waiting() == expected}. */
    static void awaitWaiting(WeightedSemaphore semaphore, int expected) {
        awaitTrue(() -> semaphore.waiting() == expected);
    }

    /** Waits (polling fast, bounded) until the condition holds. */
    static void awaitTrue(BooleanSupplier condition) {
        await().atMost(Duration.ofSeconds(10))
                .pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(1))
                .pollInSameThread()
                .until(condition::getAsBoolean);
    }

    /**
     * Busy-waits (bounded) until the condition holds: for races that need to act within microseconds of a state
     * change, faster than polling.
     */
    static void spinUntil(BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("condition not reached within 10 s");
            }
            Thread.onSpinWait();
        }
    }

    Thread thread() {
        return thread;
    }

    CompletableFuture<Boolean> outcome() {
        return outcome;
    }

    boolean isDone() {
        return outcome.isDone();
    }

    /** Waits (bounded) for the call to finish and returns what it returned, or throws what it threw (wrapped). */
    boolean join() {
        awaitTrue(outcome::isDone);
        return outcome.join();
    }

    /** Waits (bounded) for the call to finish and returns what it threw, or null if it returned. */
    Throwable joinFailure() {
        awaitTrue(outcome::isDone);
        return outcome.handle((result, failure) -> failure).join();
    }
}
