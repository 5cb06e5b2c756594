package io.github.poolkit.internal.semaphore;

import io.github.poolkit.Permit;
import io.github.poolkit.SemaphoreListener.AcquireOutcome;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.TimeoutException;

/**
 * A request from a {@code WeightedSemaphore}'s {@code acquireAsync} that could not be granted at once; woken by
 * completing its future. Internal; not part of poolkit's API.
 */
public final class AsyncWaiter extends SemaphoreWaiter {

    /*
     * Implementation overview.
     * Two parties settle the request and either may come first (I6 in SemaphoreLine): the line (grant or refusal,
     * then wake completes the future) and whoever completes the future otherwise (cancel, orTimeout, complete), which
     * withdraws the request. withdraw succeeds only while WAITING; a grant that loses the race to complete the future
     * gives its permits back. Either way the listener hears the outcome the future shows: a grant or a refusal that
     * lost the future to a cancel is reported CANCELLED, or TIMEOUT when the future was failed with a
     * TimeoutException (orTimeout: the caller's time ran out).
     */

    private final SemaphoreLine line;
    private final CompletableFuture<Permit> future = new CompletableFuture<>();
    private final long since;

    private AsyncWaiter(SemaphoreLine line, long permits, long since) {
        super(permits);
        this.line = line;
        this.since = since;
    }

    /**
     * Requests {@code n} permits in line after the fast path failed: grants them at once if nobody waits and they fit,
     * else queues the request.
     *
     * @param line the semaphore's line
     * @param n    the permits requested, {@code 0 <= n <= size}
     * @return a future completed with the granted permits, exceptionally if a shrink refuses the request
     * @throws IllegalArgumentException if the semaphore has shrunk below {@code n}
     */
    public static CompletableFuture<Permit> request(SemaphoreLine line, long n) {
        AsyncWaiter waiter = new AsyncWaiter(line, n, SemaphoreReporter.clock(line.reporter));
        if (line.grantOrEnqueue(waiter, waiter.since)) {
            SemaphoreReporter.settle(line.reporter, n, waiter.since, AcquireOutcome.ACQUIRED);
            return CompletableFuture.completedFuture(line.permit(n));
        }
        // Any completion other than our grant (cancel, orTimeout, complete by the caller) withdraws the request.
        // If the grant or a refusal completed it, the waiter is no longer WAITING and this is a no-op.
        waiter.future.whenComplete((permit, failure) -> {
            if (waiter.isWaiting() && line.withdraw(waiter)) {
                SemaphoreReporter.settle(line.reporter, n, waiter.since, waiter.endedByCaller());
            }
        });
        return waiter.future;
    }

    /** Completes the future, flat however deep wakes nest on this thread ({@link NestedWakes}). */
    @Override
    public void wake() {
        NestedWakes.run(this::complete);
    }

    @Override
    boolean wakeRunsCallersCode() {
        return true;
    }

    private void complete() {
        long n = permits();
        if (isRefused()) {
            // As for a grant: if the future was cancelled (or completed) first, the caller saw that, so report it
            boolean refused = future.completeExceptionally(SemaphoreErrors.tooLarge(n, line.size()));
            SemaphoreReporter.settle(line.reporter, n, since,
                    refused ? AcquireOutcome.REJECTED : endedByCaller());
        } else if (future.complete(line.permit(n))) {
            SemaphoreReporter.settle(line.reporter, n, since, AcquireOutcome.ACQUIRED);
        } else {
            line.giveBack(n); // the future was cancelled or completed first: give the grant back (I6)
            SemaphoreReporter.settle(line.reporter, n, since, endedByCaller());
        }
    }

    /**
     * {@return how the caller ended the request, the future being complete but not by this semaphore: TIMEOUT when
     * it was failed with a {@link TimeoutException} ({@code orTimeout}), else CANCELLED}
     */
    private AcquireOutcome endedByCaller() {
        return future.state() == Future.State.FAILED && future.exceptionNow() instanceof TimeoutException
                ? AcquireOutcome.TIMEOUT : AcquireOutcome.CANCELLED;
    }
}
