package io.github.poolkit.redis;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The lost signal of one lease, as its {@code Permit} reads it ({@code Permit.of(.., lostSignal)}): {@code isValid()}
 * is {@code false} once it is done, and {@code lost()} hands out its {@link #minimalCompletionStage()}.
 *
 * <p>Invariants. It is completed by {@link #signal()} only, at the very moment the lease is marked lost (on whatever
 * thread learns it: the heartbeat, a release, Redis's I/O thread), so that {@code isValid()} is {@code false} as soon
 * as the semaphore knows, not only once an executor got round to it. The actions holders hang on the stages it hands
 * out never run on that thread: every stage handed out before the loss depends on one relay, made once (by a CAS)
 * and completed by one task on the {@code completions} executor (inline only if the executor throws), so those
 * actions run there, in the order stages of one future run; a stage handed out after the loss is already complete,
 * so its actions run on the caller's thread, as with any completed stage.
 */
final class LostSignal extends CompletableFuture<Void> {

    private final Executor completions;
    /** The relay of the stages handed out before the loss; null until the first. */
    private final AtomicReference<CompletableFuture<Void>> relay = new AtomicReference<>();

    /** @param completions where the holders' actions run once the lease is lost */
    LostSignal(Executor completions) {
        this.completions = completions;
    }

    /** Marks the lease lost, once: the Permit turns invalid now; the relay completes on the executor. */
    void signal() {
        complete(null);
    }

    /** {@return a stage that completes, on the completions executor, when the lease is lost} */
    @Override
    public CompletionStage<Void> minimalCompletionStage() {
        if (isDone()) {
            return super.minimalCompletionStage();
        }
        CompletableFuture<Void> mine = new CompletableFuture<>();
        if (relay.compareAndSet(null, mine)) {
            super.whenComplete((ignored, failure) -> {
                try {
                    completions.execute(() -> mine.complete(null));
                } catch (RuntimeException | Error refused) {
                    // shut down, full, failing, or out of threads: never leave the holders unheard (CompletableFuture
                    // would swallow what this action throws)
                    mine.complete(null);
                }
            });
        }
        return relay.get().minimalCompletionStage();
    }
}
