package io.github.poolkit.autoconfigure.permits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

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
    }
}
