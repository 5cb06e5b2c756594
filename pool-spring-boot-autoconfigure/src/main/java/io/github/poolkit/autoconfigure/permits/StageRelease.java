package io.github.poolkit.autoconfigure.permits;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import io.github.poolkit.Permit;

/**
 * Gives a guarded method's permits back when the {@link CompletionStage} it returned completes, before anything its
 * caller chained to it runs.
 *
 * <p>A {@code CompletableFuture} runs the stages that depend on it last added, first run: a release added to the
 * method's own future would run after the caller's {@code thenCompose(r -> guarded.next())} (which then finds the
 * permits still held) and after Spring MVC has written the response (so the client's next request could be refused).
 * So the caller gets another {@code CompletableFuture}, completed with the method's outcome (its value, or the very
 * same exception, a cancellation included) once the permits are back. A caller that completes, cancels or times out
 * ({@code orTimeout}, {@code completeOnTimeout}) that one itself gives the permits back first, then completes it (so
 * its own chained stages, a retry say, find them free), and completes the method's future the same way, as it would
 * have completed that future itself; the work the method started for it runs on, as before. (A shared semaphore's
 * permits go back on another thread, as a round trip: the caller's future is completed once that round trip is done
 * when the method completes, and after it has started when the caller gives up.)
 *
 * <p>Only a plain {@code CompletableFuture} (or one this class returned, from a guarded method returned on by another)
 * is replaced: any other {@code CompletionStage} (a subclass, a {@code minimalCompletionStage}, another library's) is
 * returned as it is, its permits given back when it completes, after the stages chained to it before.
 *
 * <p>Invariant: the permits are given back exactly once ({@code released}), whichever of the two futures completes
 * first.
 */
final class StageRelease {

    private StageRelease() {
    }

    /** The release of a local semaphore, done by the time it is returned. */
    private static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);

    /**
     * @param stage      what the guarded method returned
     * @param guard      its guard, which closes the permit
     * @param permit     the permits it holds
     * @param acquiredAt when they were granted ({@link System#nanoTime()})
     * @return what the caller gets: a future completed once the permits are back, or {@code stage} itself
     */
    @SuppressWarnings("unchecked")
    static CompletionStage<?> holdUntilDone(CompletionStage<?> stage, PermitsGuard guard, Permit permit,
            long acquiredAt) {
        AtomicBoolean released = new AtomicBoolean();
        Supplier<CompletableFuture<?>> release = () -> released.compareAndSet(false, true)
                ? releaseNow(guard, permit, acquiredAt) : DONE;
        // another guarded method's future, returned on (a guarded controller returning its guarded service's) is
        // wrapped too: completing it completes the inner one, whose own permits go back first
        if (!(stage instanceof CallerFuture<?>) && stage.getClass() != CompletableFuture.class) {
            stage.whenComplete((value, failure) -> release.get());
            return stage;
        }
        CompletableFuture<Object> method = (CompletableFuture<Object>) stage;
        CompletableFuture<Object> caller = new CallerFuture<>(release::get);
        method.whenComplete((value, failure) -> release.get()
                .whenComplete((ignored, releaseFailure) -> settle(caller, value, failure)));
        caller.whenComplete((value, failure) -> settle(method, value, failure)); // a no-op once the method's is done
        return caller;
    }

    /**
     * Gives the permits back. A shared semaphore's close is a round trip: not on the thread that completed the stage
     * (an event loop, the JDK's timeout thread, or the very client's I/O thread that would have to read the answer).
     *
     * @return the release, done once the permits are back
     */
    private static CompletableFuture<?> releaseNow(PermitsGuard guard, Permit permit, long acquiredAt) {
        if (guard.sharedThroughStore()) {
            return CompletableFuture.runAsync(() -> guard.release(permit, acquiredAt));
        }
        guard.release(permit, acquiredAt);
        return DONE;
    }

    private static void settle(CompletableFuture<Object> future, @Nullable Object value, @Nullable Throwable failure) {
        if (failure == null) {
            future.complete(value);
        }
        else {
            future.completeExceptionally(failure);
        }
    }

    /**
     * The caller's future: completed, cancelled or timed out by the caller, it gives the permits back before it
     * completes, so before the stages chained to it run. Its dependent stages are plain futures.
     *
     * @param <T> the result type
     */
    private static final class CallerFuture<T> extends CompletableFuture<T> {

        private final Runnable release;

        CallerFuture(Runnable release) {
            this.release = release;
        }

        @Override
        public boolean complete(T value) {
            release.run();
            return super.complete(value);
        }

        @Override
        public boolean completeExceptionally(Throwable failure) {
            release.run();
            return super.completeExceptionally(failure);
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            release.run();
            return super.cancel(mayInterruptIfRunning);
        }

        @Override
        public CompletableFuture<T> completeAsync(Supplier<? extends T> supplier, Executor executor) {
            return super.completeAsync(() -> {
                try {
                    return supplier.get();
                }
                finally {
                    release.run();
                }
            }, executor);
        }

        @Override
        public void obtrudeValue(T value) {
            release.run();
            super.obtrudeValue(value);
        }

        @Override
        public void obtrudeException(Throwable failure) {
            release.run();
            super.obtrudeException(failure);
        }

        @Override
        public <U> CompletableFuture<U> newIncompleteFuture() {
            return new CompletableFuture<>();
        }
    }
}
