package io.github.poolkit.autoconfigure.permits;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.github.poolkit.Permit;
import io.github.poolkit.PoolOverloadException;
import io.github.poolkit.WeightedSemaphore;
import io.github.poolkit.annotation.Permits;
import io.github.poolkit.autoconfigure.FlakySemaphore;
import io.github.poolkit.autoconfigure.PoolkitAutoConfiguration;
import io.github.poolkit.autoconfigure.actuate.PoolMetricsAutoConfiguration;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Hooks;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

/**
 * {@link Permits} on methods returning {@code Mono} and {@code Flux}: permits are acquired when the result is
 * subscribed (no thread blocked), held while it runs, and released exactly once on complete, error and cancel,
 * including a cancel while the request still waits in line.
 */
@Timeout(60)
class ReactivePermitsTests {

    private static final Duration PATIENCE = Duration.ofSeconds(10);

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(PoolkitAutoConfiguration.class, PermitsAutoConfiguration.class))
            .withPropertyValues("poolkit.semaphores.gpu.size=10").withBean(Streams.class);

    private final List<Throwable> dropped = new CopyOnWriteArrayList<>();

    @AfterEach
    void resetHooks() {
        Hooks.resetOnErrorDropped();
    }

    @Test
    void acquiresAtSubscriptionNotAtTheCallAndReleasesOnComplete() {
        runner.run(context -> {
            Streams streams = context.getBean(Streams.class);
            WeightedSemaphore gpu = context.getBean("gpu", WeightedSemaphore.class);
            Mono<Long> usedWhileRunning = streams.patient(4, Mono.fromCallable(gpu::used));
            assertThat(gpu.used()).isZero();
            StepVerifier.create(usedWhileRunning).expectNext(4L).expectComplete().verify(PATIENCE);
            awaitUsed(gpu, 0);
            StepVerifier.create(usedWhileRunning).expectNext(4L).expectComplete().verify(PATIENCE);
            awaitUsed(gpu, 0);
        });
    }

    @Test
    void holdsWhileTheMonoRunsAndReleasesOnError() {
        runner.run(context -> {
            Streams streams = context.getBean(Streams.class);
            WeightedSemaphore gpu = context.getBean("gpu", WeightedSemaphore.class);
            Sinks.One<String> work = Sinks.one();
            StepVerifier.create(streams.brief(3, work.asMono()))
                    .then(() -> assertThat(gpu.used()).isEqualTo(3))
                    .then(() -> work.tryEmitError(new IllegalStateException("expected by the test")))
                    .expectErrorMessage("expected by the test").verify(PATIENCE);
            awaitUsed(gpu, 0);
        });
    }

    @Test
    void eachSubscriptionHoldsItsOwnPermitsUntilCancelled() {
        runner.run(context -> {
            Streams streams = context.getBean(Streams.class);
            WeightedSemaphore gpu = context.getBean("gpu", WeightedSemaphore.class);
            Mono<String> never = streams.brief(3, Mono.never());
            Disposable first = never.subscribe();
            Disposable second = never.subscribe();
            awaitUsed(gpu, 6);
            first.dispose();
            awaitUsed(gpu, 3);
            second.dispose();
            awaitUsed(gpu, 0);
        });
    }

    @Test
    void aFluxHoldsItsPermitsUntilItsLastItem() {
        runner.run(context -> {
            Streams streams = context.getBean(Streams.class);
            WeightedSemaphore gpu = context.getBean("gpu", WeightedSemaphore.class);
            Sinks.Many<Long> items = Sinks.many().unicast().onBackpressureBuffer();
            StepVerifier.create(streams.items(2, items.asFlux().map(i -> gpu.used())))
                    .then(() -> items.tryEmitNext(0L)).expectNext(2L)
                    .then(() -> items.tryEmitNext(0L)).expectNext(2L)
                    .then(items::tryEmitComplete).expectComplete().verify(PATIENCE);
            awaitUsed(gpu, 0);
        });
    }

    @Test
    void waitsInLineWithoutAThreadAndRunsOnceGranted() {
        runner.run(context -> {
            Streams streams = context.getBean(Streams.class);
            WeightedSemaphore gpu = context.getBean("gpu", WeightedSemaphore.class);
            gpu.acquire(8);
            StepVerifier.create(streams.patient(4, Mono.fromCallable(gpu::used)))
                    .then(() -> Awaitility.await().atMost(PATIENCE).until(() -> gpu.waiting() == 1))
                    .then(() -> gpu.release(8))
                    .expectNext(4L).expectComplete().verify(PATIENCE);
            awaitUsed(gpu, 0);
        });
    }

    @Test
    void permitsThatDoNotComeWithinMaxWaitErrorWithPoolOverloadException() {
        runner.run(context -> {
            Streams streams = context.getBean(Streams.class);
            WeightedSemaphore gpu = context.getBean("gpu", WeightedSemaphore.class);
            AtomicBoolean ran = new AtomicBoolean();
            gpu.acquire(10);
            StepVerifier.create(streams.brief(3, Mono.fromCallable(() -> ran.getAndSet(true) + "")))
                    .expectErrorSatisfies(error -> assertThat(error).isInstanceOf(PoolOverloadException.class)
                            .hasMessage("3 permits of semaphore 'gpu' (maxWait 200ms): not granted within 200ms; "
                                    + "@Permits on Streams.brief"))
                    .verify(PATIENCE);
            Awaitility.await().atMost(PATIENCE).until(() -> gpu.waiting() == 0);
            gpu.release(10);
            assertThat(gpu.used()).isZero();
            assertThat(ran).isFalse();
        });
    }

    /** A wait that {@code maxWait} ends is timed as a timeout by {@code poolkit.semaphore.acquire}, not a cancel. */
    @Test
    void permitsThatDoNotComeWithinMaxWaitAreTimedAsATimeout() {
        runner.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
                SimpleMetricsExportAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
                PoolMetricsAutoConfiguration.class)).run(context -> {
                    Streams streams = context.getBean(Streams.class);
                    WeightedSemaphore gpu = context.getBean("gpu", WeightedSemaphore.class);
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    gpu.acquire(10);
                    StepVerifier.create(streams.brief(3, Mono.just("work")))
                            .expectError(PoolOverloadException.class).verify(PATIENCE);
                    Timer timeouts = registry.get("poolkit.semaphore.acquire").tag("name", "gpu")
                            .tag("outcome", "timeout").timer();
                    Awaitility.await().atMost(PATIENCE).until(() -> timeouts.count() == 1);
                    assertThat(timeouts.totalTime(TimeUnit.MILLISECONDS)).isGreaterThanOrEqualTo(200);
                    assertThat(registry.get("poolkit.semaphore.acquire").tag("name", "gpu")
                            .tag("outcome", "cancelled").timer().count()).isZero();
                    gpu.release(10);
                });
    }

    @Test
    void failsAtOnceWithoutMaxWaitAndForAWeightThatCanNeverCome() {
        runner.run(context -> {
            Streams streams = context.getBean(Streams.class);
            WeightedSemaphore gpu = context.getBean("gpu", WeightedSemaphore.class);
            gpu.acquire(8);
            StepVerifier.create(streams.items(4, Flux.just(1L)))
                    .expectErrorSatisfies(error -> assertThat(error).isInstanceOf(PoolOverloadException.class)
                            .hasMessageContaining("(maxWait 0ms): not granted within 0ms"))
                    .verify(PATIENCE);
            gpu.release(8);
            StepVerifier.create(streams.patient(11, Mono.just(1L)))
                    .expectErrorSatisfies(error -> assertThat(error).isInstanceOf(PoolOverloadException.class)
                            .hasMessageContaining("more than the semaphore's size of 10, so they can never come"))
                    .verify(PATIENCE);
            assertThat(gpu.used()).isZero();
        });
    }

    @Test
    void aCancelWhileWaitingWithdrawsTheRequestAndNothingIsGrantedToIt() {
        runner.run(context -> {
            Streams streams = context.getBean(Streams.class);
            WeightedSemaphore gpu = context.getBean("gpu", WeightedSemaphore.class);
            AtomicBoolean ran = new AtomicBoolean();
            gpu.acquire(10);
            Disposable waiting = streams.patient(4, Mono.fromCallable(() -> ran.getAndSet(true) ? 1L : 0L))
                    .subscribe();
            Awaitility.await().atMost(PATIENCE).until(() -> gpu.waiting() == 1);
            waiting.dispose();
            Awaitility.await().atMost(PATIENCE).until(() -> gpu.waiting() == 0);
            gpu.release(10);
            assertThat(gpu.used()).isZero();
            assertThat(ran).isFalse();
        });
    }

    /**
     * Many subscriptions at once, from several threads, each completing, failing or cancelled at a random moment
     * (while waiting or while running): the work always runs with its permits held, and in the end exactly the
     * permit the test holds itself is in use, so none leaked and none was released twice.
     */
    @RepeatedTest(5)
    void noPermitLeaksAndNoneIsReleasedTwiceUnderConcurrentCompleteErrorAndCancel(RepetitionInfo repetition) {
        Hooks.onErrorDropped(dropped::add);
        runner.run(context -> {
            Streams streams = context.getBean(Streams.class);
            WeightedSemaphore gpu = context.getBean("gpu", WeightedSemaphore.class);
            gpu.acquire(1); // held throughout: a second release of anybody's permits would show as used() < 1
            int subscriptions = 60;
            Random random = new Random(repetition.getCurrentRepetition()); // the same mix in every run
            CountDownLatch ended = new CountDownLatch(subscriptions);
            AtomicInteger ranWithoutPermits = new AtomicInteger();
            List<Disposable> running = new CopyOnWriteArrayList<>();
            for (int i = 0; i < subscriptions; i++) {
                long weight = 1 + random.nextInt(3);
                int ending = random.nextInt(3);
                Mono<Long> work = Mono.fromCallable(() -> {
                    if (gpu.used() < weight + 1) {
                        ranWithoutPermits.incrementAndGet();
                    }
                    if (ending == 1) {
                        throw new IllegalStateException("expected by the test");
                    }
                    return weight;
                }).delayElement(Duration.ofMillis(random.nextInt(3)), Schedulers.parallel());
                Mono<Long> guarded = streams.patient(weight, work);
                running.add(Mono.defer(() -> guarded).subscribeOn(Schedulers.parallel())
                        .doFinally(signal -> ended.countDown())
                        .subscribe(value -> { }, error -> { }));
                if (ending == 2) {
                    Disposable victim = running.get(i);
                    Schedulers.parallel().schedule(victim::dispose, random.nextInt(3), TimeUnit.MILLISECONDS);
                }
            }
            assertThat(ended.await(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
            Awaitility.await().atMost(PATIENCE).until(() -> gpu.used() == 1 && gpu.waiting() == 0);
            Awaitility.await().during(Duration.ofMillis(50)).atMost(PATIENCE)
                    .until(() -> gpu.used() == 1 && gpu.waiting() == 0);
            assertThat(ranWithoutPermits).hasValue(0);
            gpu.release(1);
            assertThat(gpu.used()).isZero();
        });
        assertThat(dropped).isEmpty();
    }

    private static void awaitUsed(WeightedSemaphore semaphore, long used) {
        Awaitility.await().atMost(PATIENCE).until(() -> semaphore.used() == used);
    }

    @Test
    void aRetryTakesItsPermitsAfterTheFailedSubscriptionGaveItsBack() {
        runner.run(context -> {
            Streams streams = context.getBean(Streams.class);
            AtomicInteger attempts = new AtomicInteger();
            // its signals come from another thread, as a remote call's do (Reactor then resubscribes at once)
            Flux<Long> flaky = Flux.defer(() -> attempts.incrementAndGet() < 3
                    ? Flux.<Long>error(new IllegalStateException("transient")) : Flux.just(1L, 2L))
                    .publishOn(Schedulers.boundedElastic());
            // all 10 permits, not waiting: a retry that asked before the failed attempt gave its back is refused
            StepVerifier.create(streams.items(10, flaky).retry(3)).expectNext(1L, 2L).expectComplete()
                    .verify(PATIENCE);
            assertThat(attempts).hasValue(3);
            awaitUsed(context.getBean("gpu", WeightedSemaphore.class), 0);
        });
    }

    @Test
    void aMonoGivesItsPermitsBackBeforeItsValueGoesOn() {
        runner.run(context -> {
            Streams streams = context.getBean(Streams.class);
            // the second call subscribes on the first one's value: the first holds its 10 permits no longer
            Mono<Long> chained = streams.now(10, Mono.just(1L)).flatMap(first -> streams.now(10, Mono.just(first + 1)));
            StepVerifier.create(chained).expectNext(2L).expectComplete().verify(PATIENCE);
            StepVerifier.create(streams.now(10, Mono.just(7L)).repeat(2)).expectNext(7L, 7L, 7L).expectComplete()
                    .verify(PATIENCE);
            awaitUsed(context.getBean("gpu", WeightedSemaphore.class), 0);
        });
    }

    @Test
    void aRequestTheSemaphoreCancelsItselfFailsTheSubscriptionRatherThanHangIt() {
        runner.withBean("selfCancelling", FlakySemaphore.class, SelfCancelling::new).run(context -> {
            StepVerifier.create(context.getBean(Streams.class).onSelfCancelling())
                    .expectError(CancellationException.class).verify(PATIENCE);
        });
    }

    /** A semaphore of another kind that cancels every asynchronous request it is given. */
    static final class SelfCancelling extends FlakySemaphore {

        SelfCancelling() {
            super(4);
        }

        @Override
        public CompletableFuture<Permit> acquireAsync(long n) {
            CompletableFuture<Permit> request = new CompletableFuture<>();
            request.cancel(false);
            return request;
        }
    }

    /** A bean with guarded reactive methods; each returns the work it is given. */
    static class Streams {

        @Permits(value = "selfCancelling", maxWait = "1s")
        public Mono<String> onSelfCancelling() {
            return Mono.just("never");
        }

        @Permits(value = "gpu", weight = "#weight")
        public Mono<Long> now(long weight, Mono<Long> work) {
            return work;
        }

        @Permits(value = "gpu", weight = "#weight", maxWait = "30s")
        public Mono<Long> patient(long weight, Mono<Long> work) {
            return work;
        }

        @Permits(value = "gpu", weight = "#weight", maxWait = "200ms")
        public Mono<String> brief(long weight, Mono<String> work) {
            return work;
        }

        @Permits(value = "gpu", weight = "#weight")
        public Flux<Long> items(long weight, Flux<Long> items) {
            return items;
        }
    }
}
