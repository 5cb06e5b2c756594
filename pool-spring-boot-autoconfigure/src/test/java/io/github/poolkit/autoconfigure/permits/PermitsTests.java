package io.github.poolkit.autoconfigure.permits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.github.poolkit.Permit;
import io.github.poolkit.PermitSemaphore;
import io.github.poolkit.PoolOverloadException;
import io.github.poolkit.WeightedSemaphore;
import io.github.poolkit.annotation.Permits;
import io.github.poolkit.autoconfigure.PoolkitAutoConfiguration;

/** {@link Permits} around real beans and real semaphores: acquire, wait, fail fast, and release on every path. */
@Timeout(30)
class PermitsTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(PoolkitAutoConfiguration.class, PermitsAutoConfiguration.class))
            .withPropertyValues("poolkit.semaphores.gpu.size=10", "poolkit.semaphore.size=3", "test.wait=5s")
            .withBean(Guarded.class);

    @Test
    void holdsTheWeightWhileTheMethodRunsAndReleasesOnReturn() {
        runner.run(context -> {
            Guarded guarded = context.getBean(Guarded.class);
            WeightedSemaphore gpu = context.getBean("gpu", WeightedSemaphore.class);
            assertThat(guarded.usedDuring(7, gpu)).isEqualTo(7);
            assertThat(gpu.used()).isZero();
        });
    }

    @Test
    void failsFastNamingSemaphoreWeightAndWait() {
        runner.run(context -> {
            Guarded guarded = context.getBean(Guarded.class);
            WeightedSemaphore gpu = context.getBean("gpu", WeightedSemaphore.class);
            gpu.acquire(8);
            assertThatThrownBy(() -> guarded.usedDuring(3, gpu)).isInstanceOf(PoolOverloadException.class)
                    .hasMessageContaining("3 permits of semaphore 'gpu'").hasMessageContaining("maxWait 0ms")
                    .hasMessageContaining("Guarded.usedDuring");
            assertThatThrownBy(() -> guarded.usedDuring(11, gpu)).isInstanceOf(PoolOverloadException.class)
                    .hasMessageContaining("more than the semaphore's size of 10");
            assertThat(gpu.used()).isEqualTo(8);
        });
    }

    @Test
    void releasesWhenTheMethodThrows() {
        runner.run(context -> {
            Guarded guarded = context.getBean(Guarded.class);
            assertThatThrownBy(guarded::fails).isInstanceOf(IllegalStateException.class);
            assertThat(context.getBean("weightedSemaphore", WeightedSemaphore.class).used()).isZero();
        });
    }

    @Test
    void usesThePrimarySemaphoreByDefault() {
        runner.run(context -> {
            Guarded guarded = context.getBean(Guarded.class);
            WeightedSemaphore primary = context.getBean("weightedSemaphore", WeightedSemaphore.class);
            assertThat(guarded.onPrimary(primary)).isEqualTo(1);
            primary.acquire(3);
            assertThatThrownBy(() -> guarded.onPrimary(primary)).isInstanceOf(PoolOverloadException.class)
                    .hasMessageContaining("semaphore '(primary)'");
        });
    }

    @Test
    void holdsUntilAReturnedStageCompletes() {
        runner.run(context -> {
            Guarded guarded = context.getBean(Guarded.class);
            WeightedSemaphore gpu = context.getBean("gpu", WeightedSemaphore.class);
            CompletableFuture<String> result = new CompletableFuture<>();
            assertThat(guarded.async(4, result)).isSameAs(result);
            assertThat(gpu.used()).isEqualTo(4);
            result.completeExceptionally(new IllegalStateException("expected by the test"));
            assertThat(gpu.used()).isZero();
        });
    }

    @Test
    void waitsInLineUpToMaxWait() {
        runner.run(context -> {
            Guarded guarded = context.getBean(Guarded.class);
            WeightedSemaphore gpu = context.getBean("gpu", WeightedSemaphore.class);
            gpu.acquire(8);
            CompletableFuture<Long> waiter = CompletableFuture.supplyAsync(() -> guarded.patient(5, gpu));
            Awaitility.await().atMost(10, TimeUnit.SECONDS).until(() -> gpu.waiting() == 1);
            assertThat(waiter).isNotDone();
            gpu.release(8);
            assertThat(waiter.get(10, TimeUnit.SECONDS)).isEqualTo(5);
            assertThat(gpu.used()).isZero();
        });
    }

    /** A shrink below the weight while the call waits refuses it as an overload (a 429), as any refusal. */
    @Test
    void aShrinkBelowTheWeightWhileTheCallWaitsIsAnOverload() {
        runner.run(context -> {
            Guarded guarded = context.getBean(Guarded.class);
            WeightedSemaphore gpu = context.getBean("gpu", WeightedSemaphore.class);
            gpu.acquire(8);
            CompletableFuture<Long> waiter = CompletableFuture.supplyAsync(() -> guarded.patient(5, gpu));
            Awaitility.await().atMost(10, TimeUnit.SECONDS).until(() -> gpu.waiting() == 1);
            gpu.resize(4);
            assertThat(waiter).failsWithin(10, TimeUnit.SECONDS).withThrowableThat()
                    .havingCause().isInstanceOf(PoolOverloadException.class)
                    .withMessageContaining("5 permits of semaphore 'gpu'")
                    .withMessageContaining("more than the semaphore's size of 4, so they can never come")
                    .havingCause().isInstanceOf(IllegalArgumentException.class);
            gpu.release(8);
        });
    }

    /**
     * A close that fails (a shared store that does not answer) never replaces the method's result or exception: it is
     * logged, and the store gets the permits back when their lease runs out.
     */
    @Test
    void aReleaseThatFailsLeavesTheMethodsOutcomeAlone() {
        runner.withBean("flaky", PermitSemaphore.class, ClosingFails::new).run(context -> {
            Guarded guarded = context.getBean(Guarded.class);
            assertThat(guarded.onFlaky()).isEqualTo("done");
            assertThatThrownBy(guarded::failsOnFlaky).isInstanceOf(IllegalStateException.class)
                    .hasMessage("the method's own failure");
        });
    }

    /** A returned stage's completion does not wait for a shared store: the permit is closed on another thread. */
    @Test
    void aSharedSemaphoresPermitIsClosedOffTheThreadThatCompletesTheStage() {
        runner.withBean("flaky", PermitSemaphore.class, ClosingFails::new).run(context -> {
            ClosingFails flaky = context.getBean("flaky", ClosingFails.class);
            CompletableFuture<String> result = new CompletableFuture<>();
            CompletableFuture<String> returned = context.getBean(Guarded.class).asyncOnFlaky(result);
            Thread completer = new Thread(() -> result.complete("done"), "completer");
            completer.start();
            assertThat(returned.get(10, TimeUnit.SECONDS)).isEqualTo("done");
            Awaitility.await().atMost(10, TimeUnit.SECONDS).until(() -> flaky.closedOn.size() == 1);
            assertThat(flaky.closedOn).doesNotContain("completer");
        });
    }

    @Test
    void aWeightThatIsNotAWholeNumberIsRefusedClearly() {
        runner.run(context -> assertThatThrownBy(() -> context.getBean(Guarded.class).badWeight("x"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("weight '#p0' gave x, not a whole number of permits"));
    }

    @Test
    void anUnknownSemaphoreIsNamedWithTheFix() {
        runner.run(context -> assertThatThrownBy(() -> context.getBean(Guarded.class).unknown())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("@Permits on Guarded.unknown: no single semaphore bean named 'nope'")
                .hasMessageContaining("poolkit.semaphores.nope.size"));
    }

    /** A bean with guarded methods. */
    static class Guarded {

        @Permits(value = "gpu", weight = "#size")
        public long usedDuring(int size, WeightedSemaphore gpu) {
            return gpu.used();
        }

        @Permits
        public long onPrimary(WeightedSemaphore primary) {
            return primary.used();
        }

        @Permits
        public void fails() {
            throw new IllegalStateException("expected by the test");
        }

        @Permits(value = "gpu", weight = "#p0")
        public CompletableFuture<String> async(int size, CompletableFuture<String> result) {
            return result;
        }

        @Permits(value = "gpu", weight = "#size", maxWait = "${test.wait}")
        public long patient(int size, WeightedSemaphore gpu) {
            return gpu.used();
        }

        @Permits(value = "gpu", weight = "#p0")
        public void badWeight(String text) {
        }

        @Permits("nope")
        public void unknown() {
        }

        @Permits("flaky")
        public String onFlaky() {
            return "done";
        }

        @Permits("flaky")
        public CompletableFuture<String> asyncOnFlaky(CompletableFuture<String> result) {
            return result;
        }

        @Permits("flaky")
        public void failsOnFlaky() {
            throw new IllegalStateException("the method's own failure");
        }
    }

    /** A shared semaphore, as far as {@code @Permits} can tell, whose permits cannot be given back (its store down). */
    static final class ClosingFails implements PermitSemaphore {

        private final WeightedSemaphore store = new WeightedSemaphore(4);
        /** The threads that tried to give permits back. */
        final List<String> closedOn = new CopyOnWriteArrayList<>();

        @Override
        public Permit tryAcquirePermit(long n, Duration timeout) throws InterruptedException {
            return store.tryAcquire(n, timeout) ? Permit.of(n, 1, () -> {
                closedOn.add(Thread.currentThread().getName());
                throw new IllegalStateException("store unreachable: the release was not confirmed");
            }) : null;
        }

        @Override
        public void acquire(long n) throws InterruptedException {
            store.acquire(n);
        }

        @Override
        public Permit acquirePermit(long n) throws InterruptedException {
            return store.acquirePermit(n);
        }

        @Override
        public CompletableFuture<Permit> acquireAsync(long n) {
            return store.acquireAsync(n);
        }

        @Override
        public boolean tryAcquire(long n) {
            return store.tryAcquire(n);
        }

        @Override
        public boolean tryAcquire(long n, Duration timeout) throws InterruptedException {
            return store.tryAcquire(n, timeout);
        }

        @Override
        public void release(long n) {
            store.release(n);
        }

        @Override
        public void resize(long size) {
            store.resize(size);
        }

        @Override
        public long size() {
            return store.size();
        }

        @Override
        public long used() {
            return store.used();
        }

        @Override
        public long available() {
            return store.available();
        }

        @Override
        public int waiting() {
            return store.waiting();
        }

        @Override
        public String scope() {
            return "cluster";
        }
    }
}
