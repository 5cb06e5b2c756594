package io.github.poolkit.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

/** The lost signal of a lease reaches its holders' actions whatever their executor does. */
class LostSignalTest {

    /**
     * An executor that cannot take the task with an {@link Error} (no native thread left, say): the actions run on the
     * signalling thread rather than never, since {@code CompletableFuture} would swallow the error.
     */
    @Test
    void theActionsRunWhenTheExecutorFailsWithAnError() {
        LostSignal signal = new LostSignal(task -> {
            throw new OutOfMemoryError("unable to create native thread");
        });
        CompletableFuture<Void> lost = signal.minimalCompletionStage().toCompletableFuture();
        signal.signal();
        assertThat(lost).isCompleted();
    }
}
