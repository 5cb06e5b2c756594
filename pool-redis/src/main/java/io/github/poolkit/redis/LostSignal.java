package io.github.poolkit.redis;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * The lost signal of one lease, as its {@code Permit} reads it ({@code Permit.of(.., lostSignal)}): {@code isValid()}
 * is {@code false} once it is done, and {@code lost()} hands out its {@link #minimalCompletionStage()}.
 *
 * <p>Invariants. It is completed by {@link #signal()} only, at the very moment the lease is marked lost (on whatever
 * thread learns it: the heartbeat, a release, Redis's I/O thread), so that {@code isValid()} is {@code false} as soon
 * as the semaphore knows, not only once an executor got round to it. The actions holders hang on a stage it hands out
 * never run on that thread: a stage handed out before the loss is a relay completed on the {@code completions}
 * executor (inline only if the executor refuses); one handed out after it is already complete, so its actions run on
 * the caller's thread, as with any completed stage.
 */
final class LostSignal extends CompletableFuture<Void> {

    private final Executor completions;

    /** @param completions where the holders' actions run once the lease is lost */
    LostSignal(Executor completions) {
        this.completions = completions;
    }

    /** Marks the lease lost, once: the Permit turns invalid now; the relays complete on the executor. */
    void signal() {
        complete(null);
    }

    /** {@return a stage that completes, on the completions executor, when the lease is lost} */
    @Override
    public CompletionStage<Void> minimalCompletionStage() {
        if (isDone()) {
            return super.minimalCompletionStage();
        }
        CompletableFuture<Void> relay = new CompletableFuture<>();
        super.whenComplete((ignored, failure) -> {
            try {
                completions.execute(() -> relay.complete(null));
            } catch (RejectedExecutionException e) {
                relay.complete(null);
            }
        });
        return relay.minimalCompletionStage();
    }
}
