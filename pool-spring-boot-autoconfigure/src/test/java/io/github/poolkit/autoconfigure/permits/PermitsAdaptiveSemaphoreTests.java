package io.github.poolkit.autoconfigure.permits;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.github.poolkit.WeightedSemaphore;
import io.github.poolkit.annotation.Permits;
import io.github.poolkit.autoconfigure.PoolkitAutoConfiguration;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

/**
 * {@link Permits} on a semaphore made adaptive by {@code poolkit.semaphores.<name>.adaptive.*}: every form of a
 * guarded method (blocking with and without a wait, {@code CompletionStage}, {@code Mono} and {@code Flux} with and
 * without a wait) holds a permit of the semaphore's own and closes it, so its hold time reaches the limit and the size
 * follows.
 *
 * <p>Why the size must be exactly 2 after three calls, whatever the timing: {@code aimd} with {@code min=1} starts at
 * {@code L = 1}. The first sample (one permit in use, so {@code 1 * 2 >= L}) sets the round-trip baseline to its own
 * time, so it cannot be a slowdown: {@code L = 1 + 1/1 = 2}. The second (in use {@code 1 * 2 >= 2}) gives
 * {@code L = 2.5} unless slow; the third has {@code 2 < 2.5}, so only a slowdown could move it. A slowdown needs the
 * short-term time above twice the baseline, and each sample moves the short-term time by at most 1/8 of itself
 * ({@code RttBaseline}), so two samples cannot: {@code floor(L)} is 2 after each of them. A semaphore fed nothing
 * stays at 1. (Each form ran 20 times in a row, twice, before the repetitions were cut to 3: a context per run.)
 */
@Timeout(60)
class PermitsAdaptiveSemaphoreTests {

    private static final Duration PATIENCE = Duration.ofSeconds(10);

    private static final int CALLS = 3;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(PoolkitAutoConfiguration.class, PermitsAutoConfiguration.class))
            .withPropertyValues("poolkit.semaphores.x.adaptive.algorithm=aimd", "poolkit.semaphores.x.adaptive.min=1",
                    "poolkit.semaphores.x.adaptive.max=8")
            .withBean(Guarded.class);

    @RepeatedTest(3)
    void aBlockingMethodThatDoesNotWaitFeedsTheLimit() {
        callsMoveTheSize(Guarded::failFast);
    }

    @RepeatedTest(3)
    void aBlockingMethodThatMayWaitFeedsTheLimit() {
        callsMoveTheSize(Guarded::patient);
    }

    @RepeatedTest(3)
    void aCompletionStageMethodFeedsTheLimit() {
        callsMoveTheSize(guarded -> assertThat(guarded.stage()).isCompletedWithValue("done"));
    }

    @RepeatedTest(3)
    void aMonoThatDoesNotWaitFeedsTheLimit() {
        callsMoveTheSize(guarded -> StepVerifier.create(guarded.monoFailFast()).expectNext("done").expectComplete()
                .verify(PATIENCE));
    }

    @RepeatedTest(3)
    void aMonoThatMayWaitFeedsTheLimit() {
        callsMoveTheSize(guarded -> StepVerifier.create(guarded.monoPatient()).expectNext("done").expectComplete()
                .verify(PATIENCE));
    }

    @RepeatedTest(3)
    void aFluxThatDoesNotWaitFeedsTheLimit() {
        callsMoveTheSize(guarded -> StepVerifier.create(guarded.fluxFailFast()).expectNext(1, 2).expectComplete()
                .verify(PATIENCE));
    }

    /** Calls the method {@link #CALLS} times, one after another, each after the last one's permit came back. */
    private void callsMoveTheSize(Consumer<Guarded> call) {
        runner.run(context -> {
            WeightedSemaphore x = context.getBean("x", WeightedSemaphore.class);
            Guarded guarded = context.getBean(Guarded.class);
            assertThat(x.size()).isEqualTo(1);
            for (int i = 0; i < CALLS; i++) {
                call.accept(guarded);
                Awaitility.await().atMost(PATIENCE).until(() -> x.used() == 0);
            }
            assertThat(x.size()).as("the size after %d calls through @Permits", CALLS).isEqualTo(2);
        });
    }

    static class Guarded {

        @Permits("x")
        public String failFast() {
            return "done";
        }

        @Permits(value = "x", maxWait = "5s")
        public String patient() {
            return "done";
        }

        @Permits(value = "x", maxWait = "5s")
        public CompletableFuture<String> stage() {
            return CompletableFuture.completedFuture("done");
        }

        @Permits("x")
        public Mono<String> monoFailFast() {
            return Mono.just("done");
        }

        @Permits(value = "x", maxWait = "5s")
        public Mono<String> monoPatient() {
            return Mono.just("done");
        }

        @Permits("x")
        public Flux<Integer> fluxFailFast() {
            return Flux.just(1, 2);
        }
    }
}
