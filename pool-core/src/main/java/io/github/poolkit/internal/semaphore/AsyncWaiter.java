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
     * The caller's completion withdraws the request before it completes the future (CallerFuture), so that the stages
     * the completion runs (a fallback that acquires on this semaphore, say) find the line without it: withdrawn after
     * them, the request would still head the line while they run, and a fallback that waited there behind it, on the
     * thread whose completion is to withdraw it, would wait for good. A completion that bypasses the overrides
     * (completeAsync's own) withdraws it after all, as the stage registered in request() does.
     */

    private final SemaphoreLine line;
    private final CallerFuture future = new CallerFuture();
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
        // Any completion other than our grant that bypassed CallerFuture's overrides withdraws the request here. If
        // the grant, a refusal or an override settled it, the waiter is no longer WAITING and this is a no-op.
        waiter.future.whenComplete((permit, failure) -> waiter.withdrawFor(waiter.endedByCaller()));
        return waiter.future;
    }

    /** As {@link #withdrawFor(AcquireOutcome, boolean)}, handing off only for a timeout. */
    private void withdrawFor(AcquireOutcome outcome) {
        withdrawFor(outcome, outcome == AcquireOutcome.TIMEOUT);
    }

    /**
     * Takes the request out of the line for the caller, if it still waits there, and reports {@code outcome}. The
     * stages of the requests its leaving lets through run here (a canceller runs stages of futures anyway), unless
     * {@code handOff}: {@code orTimeout} and {@code completeOnTimeout} complete the future on the JDK's one delay
     * thread, which no caller's stage may hold up.
     */
    private void withdrawFor(AcquireOutcome outcome, boolean handOff) {
        if (isWaiting() && line.withdraw(this, handOff)) {
            SemaphoreReporter.settle(line.reporter, permits(), since, outcome);
        }
    }

    /**
     * The caller's future: whoever completes it but the line withdraws the request first (see the overview). Its
     * dependent futures are plain ones.
     */
    private final class CallerFuture extends CompletableFuture<Permit> {

        @Override
        public boolean complete(Permit value) {
            withdrawFor(AcquireOutcome.CANCELLED, true); // completeOnTimeout's path too, on the JDK's delay thread
            return super.complete(value);
        }

        @Override
        public boolean completeExceptionally(Throwable ex) {
            withdrawFor(ex instanceof TimeoutException ? AcquireOutcome.TIMEOUT : AcquireOutcome.CANCELLED);
            return super.completeExceptionally(ex);
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            withdrawFor(AcquireOutcome.CANCELLED);
            return super.cancel(mayInterruptIfRunning);
        }

        @Override
        public void obtrudeValue(Permit value) {
            withdrawFor(AcquireOutcome.CANCELLED);
            super.obtrudeValue(value);
        }

        @Override
        public void obtrudeException(Throwable ex) {
            withdrawFor(AcquireOutcome.CANCELLED);
            super.obtrudeException(ex);
        }

        @Override
        public <U> CompletableFuture<U> newIncompleteFuture() {
            return new CompletableFuture<>();
        }

        /** Completes it for the line: a grant. */
        boolean grant(Permit permit) {
            return super.complete(permit);
        }

        /** Fails it for the line: a refusal. */
        boolean refuse(Throwable refusal) {
            return super.completeExceptionally(refusal);
        }
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
        // the wait ends here, before the future's completion runs the caller's stages, whose time is not the wait's
        long until = SemaphoreReporter.clock(line.reporter);
        if (isRefused()) {
            // As for a grant: if the future was cancelled (or completed) first, the caller saw that, so report it
            boolean refused = future.refuse(SemaphoreErrors.tooLarge(n, line.size()));
            SemaphoreReporter.settle(line.reporter, n, since, until,
                    refused ? AcquireOutcome.REJECTED : endedByCaller());
        } else if (future.grant(line.permit(n))) {
            SemaphoreReporter.settle(line.reporter, n, since, until, AcquireOutcome.ACQUIRED);
        } else {
            line.giveBack(n); // the future was cancelled or completed first: give the grant back (I6)
            SemaphoreReporter.settle(line.reporter, n, since, until, endedByCaller());
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
