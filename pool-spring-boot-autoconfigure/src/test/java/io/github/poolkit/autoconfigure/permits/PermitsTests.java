package io.github.poolkit.autoconfigure.permits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.github.poolkit.PoolOverloadException;
import io.github.poolkit.WeightedSemaphore;
import io.github.poolkit.annotation.Permits;
import io.github.poolkit.autoconfigure.FlakySemaphore;
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
                    .hasMessageContaining("semaphore 'weightedSemaphore'"); // the primary, by its bean name
        });
    }

    @Test
    void holdsUntilAReturnedStageCompletes() {
        runner.run(context -> {
            Guarded guarded = context.getBean(Guarded.class);
            WeightedSemaphore gpu = context.getBean("gpu", WeightedSemaphore.class);
            CompletableFuture<String> result = new CompletableFuture<>();
            CompletableFuture<String> returned = guarded.async(4, result);
            assertThat(gpu.used()).isEqualTo(4);
            IllegalStateException failure = new IllegalStateException("expected by the test");
            result.completeExceptionally(failure);
            assertThat(gpu.used()).isZero();
            assertThat(returned).isCompletedExceptionally();
            assertThatThrownBy(returned::get).isInstanceOf(ExecutionException.class).cause().isSameAs(failure);
            CompletableFuture<String> ok = new CompletableFuture<>();
            CompletableFuture<String> okReturned = guarded.async(2, ok);
            ok.complete("done");
            assertThat(okReturned).isCompletedWithValue("done");
            assertThat(gpu.used()).isZero();
        });
    }

    /**
     * The permits are back before the stages the caller chained to the returned future run: a chain of two guarded
     * calls on a semaphore of one permit, the second started by the first's completion, is not refused (a release
     * added to the method's own future ran after the caller's stages, last added, first run).
     */
    @Test
    void thePermitsAreBackBeforeTheCallersNextStageRuns() {
        runner.run(context -> {
            Guarded guarded = context.getBean(Guarded.class);
            WeightedSemaphore primary = context.getBean("weightedSemaphore", WeightedSemaphore.class);
            CompletableFuture<String> first = new CompletableFuture<>();
            CompletableFuture<String> second = new CompletableFuture<>();
            CompletableFuture<String> chain = guarded.all(first).thenCompose(r -> guarded.all(second));
            assertThat(primary.used()).isEqualTo(3);
            first.complete("first");
            assertThat(chain).as("not refused").isNotCompletedExceptionally();
            assertThat(primary.used()).isEqualTo(3);
            second.complete("second");
            assertThat(chain).isCompletedWithValue("second");
            assertThat(primary.used()).isZero();
        });
    }

    /**
     * A caller that cancels (or completes, or times out) the returned future gives the permits back and completes the
     * method's own future the same way, as it did when it held that future itself.
     */
    @Test
    void aCallerThatCancelsTheReturnedFutureGivesThePermitsBack() {
        runner.run(context -> {
            Guarded guarded = context.getBean(Guarded.class);
            WeightedSemaphore gpu = context.getBean("gpu", WeightedSemaphore.class);
            CompletableFuture<String> result = new CompletableFuture<>();
            CompletableFuture<String> returned = guarded.async(4, result);
            assertThat(returned.cancel(true)).isTrue();
            assertThat(gpu.used()).isZero();
            assertThat(result.isCancelled()).as("the method's own future").isTrue();
            result.complete("late"); // changes nothing: no second release
            assertThat(gpu.used()).isZero();
            CompletableFuture<String> completed = new CompletableFuture<>();
            assertThat(guarded.async(3, completed).complete("mine")).isTrue();
            assertThat(completed).isCompletedWithValue("mine");
            assertThat(gpu.used()).isZero();
        });
    }

    /**
     * A caller that gives up on the returned future (times it out, completes or cancels it) gives the permits back
     * before the stages it chained to it run: a retry chained to the failure finds them free.
     */
    @Test
    void aCallerThatGivesUpGivesThePermitsBackBeforeItsOwnNextStage() {
        runner.run(context -> {
            Guarded guarded = context.getBean(Guarded.class);
            WeightedSemaphore primary = context.getBean("weightedSemaphore", WeightedSemaphore.class);
            CompletableFuture<String> never = new CompletableFuture<>();
            CompletableFuture<String> retried = new CompletableFuture<>();
            CompletableFuture<String> first = guarded.all(never);
            CompletableFuture<String> chain = first.exceptionallyCompose(failure -> guarded.all(retried));
            assertThat(first.completeExceptionally(new TimeoutException("the caller gave up"))).isTrue();
            assertThat(chain).as("the retry was not refused").isNotDone();
            assertThat(never).as("the method's own future, completed the same way").isCompletedExceptionally();
            retried.complete("retried");
            assertThat(chain).isCompletedWithValue("retried");
            assertThat(primary.used()).isZero();
        });
    }

    /**
     * A guarded method that returns another guarded method's future (a guarded controller returning its guarded
     * service's) gives its own permits back before the caller's next stage too.
     */
    @Test
    void aGuardedFutureReturnedOnByAnotherGuardedMethodIsBackBeforeTheNextStage() {
        runner.withBean(Outer.class).run(context -> {
            Guarded guarded = context.getBean(Guarded.class);
            Outer outer = context.getBean(Outer.class);
            WeightedSemaphore primary = context.getBean("weightedSemaphore", WeightedSemaphore.class);
            WeightedSemaphore gpu = context.getBean("gpu", WeightedSemaphore.class);
            CompletableFuture<String> inner = new CompletableFuture<>();
            CompletableFuture<String> next = new CompletableFuture<>();
            CompletableFuture<String> chain = outer.onPrimary(guarded, inner).thenCompose(r -> guarded.all(next));
            assertThat(primary.used()).isEqualTo(3);
            assertThat(gpu.used()).isEqualTo(2);
            inner.complete("inner");
            assertThat(chain).as("the next call found the primary's permits free").isNotDone();
            assertThat(gpu.used()).isZero();
            next.complete("next");
            assertThat(chain).isCompletedWithValue("next");
            assertThat(primary.used()).isZero();
        });
    }

    /** Holds all of the primary semaphore while it returns a guarded method's future. */
    static class Outer {

        @Permits(weight = "3")
        public CompletableFuture<String> onPrimary(Guarded guarded, CompletableFuture<String> inner) {
            return guarded.async(2, inner);
        }
    }

    /** A stage that is no plain {@code CompletableFuture} is returned as it is, held until it completes. */
    @Test
    void anotherKindOfStageIsReturnedAsItIs() {
        runner.run(context -> {
            Guarded guarded = context.getBean(Guarded.class);
            WeightedSemaphore gpu = context.getBean("gpu", WeightedSemaphore.class);
            CompletableFuture<String> source = new CompletableFuture<>();
            CompletionStage<String> minimal = source.minimalCompletionStage();
            assertThat((Object) guarded.stage(minimal)).isSameAs(minimal);
            assertThat(gpu.used()).isEqualTo(5);
            source.complete("done");
            assertThat(gpu.used()).isZero();
        });
    }

    @Test
    void waitsInLineUpToMaxWait() {
        runner.run(context -> {
            WeightedSemaphore gpu = context.getBean("gpu", WeightedSemaphore.class);
            CompletableFuture<Long> waiter = patientCallInLine(context.getBean(Guarded.class), gpu);
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
            WeightedSemaphore gpu = context.getBean("gpu", WeightedSemaphore.class);
            CompletableFuture<Long> waiter = patientCallInLine(context.getBean(Guarded.class), gpu);
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
        runner.withBean("flaky", FlakySemaphore.class, () -> new FlakySemaphore(4)).run(context -> {
            Guarded guarded = context.getBean(Guarded.class);
            FlakySemaphore flaky = context.getBean(FlakySemaphore.class);
            assertThat(guarded.onFlaky(flaky)).isEqualTo("done");
            flaky.reconnect();
            assertThatThrownBy(() -> guarded.failsOnFlaky(flaky)).isInstanceOf(IllegalStateException.class)
                    .hasMessage("the method's own failure");
            assertThat(flaky.releasesOn).hasSize(2);
        });
    }

    /** A returned stage's completion does not wait for a shared store: the permit is closed on another thread. */
    @Test
    void aSharedSemaphoresPermitIsClosedOffTheThreadThatCompletesTheStage() {
        runner.withBean("flaky", FlakySemaphore.class, () -> new FlakySemaphore(4)).run(context -> {
            FlakySemaphore flaky = context.getBean(FlakySemaphore.class);
            CompletableFuture<String> result = new CompletableFuture<>();
            CompletableFuture<String> returned = context.getBean(Guarded.class).asyncOnFlaky(result);
            CountDownLatch roundTrip = new CountDownLatch(1);
            flaky.slowRelease = roundTrip;
            Thread completer = new Thread(() -> result.complete("done"), "completer");
            completer.start();
            completer.join(10_000);
            assertThat(returned).as("not before the permits are back").isNotDone();
            roundTrip.countDown();
            assertThat(returned.get(10, TimeUnit.SECONDS)).isEqualTo("done");
            assertThat(flaky.releasesOn).as("given back before the caller's future completed").hasSize(1)
                    .doesNotContain("completer");
        });
    }

    @Test
    void aWeightThatIsNotAWholeNumberIsRefusedClearly() {
        runner.run(context -> assertThatThrownBy(() -> context.getBean(Guarded.class).badWeight("x"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("weight '#p0' gave x, not a whole number of permits"));
    }

    @Test
    void aWeightTooLargeForALongIsRefusedNotCutToItsLowBits() {
        BigInteger wraps = BigInteger.TWO.pow(64).add(BigInteger.valueOf(3)); // its low 64 bits are 3
        runner.run(context -> {
            assertThatThrownBy(() -> context.getBean(Guarded.class).badWeight(wraps))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("gave " + wraps + ", not a whole number of permits that fits in a long");
            assertThatThrownBy(() -> context.getBean(Guarded.class).badWeight(Double.NaN))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a whole number");
            assertThatThrownBy(() -> context.getBean(Guarded.class).badWeight(1e19))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("fits in a long");
            assertThatThrownBy(() -> context.getBean(Guarded.class).badWeight(new BigDecimal("2.5")))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a whole number");
            assertThatThrownBy(() -> context.getBean(Guarded.class).badWeight(new Fraction(2.5)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a whole number");
            assertThat(context.getBean("gpu", WeightedSemaphore.class).used()).isZero();
        });
    }

    @Test
    void aWholeWeightOfAnyNumberTypeIsTaken() {
        runner.run(context -> {
            Guarded guarded = context.getBean(Guarded.class);
            WeightedSemaphore gpu = context.getBean("gpu", WeightedSemaphore.class);
            assertThat(guarded.weighed(new BigDecimal("4.00"), gpu)).isEqualTo(4);
            assertThat(guarded.weighed(BigInteger.valueOf(6), gpu)).isEqualTo(6);
            assertThat(guarded.weighed(2.0, gpu)).isEqualTo(2);
            assertThat(guarded.weighed(new AtomicLong(7), gpu)).isEqualTo(7);
            assertThat(gpu.used()).isZero();
        });
    }

    @Test
    void anUnknownSemaphoreIsNamedWithTheFix() {
        runner.run(context -> assertThatThrownBy(() -> context.getBean(Guarded.class).unknown())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("@Permits on Guarded.unknown: no single semaphore bean named 'nope'")
                .hasMessageContaining("poolkit.semaphores.nope.size"));
    }

    /** {@return a call for 5 permits of {@code gpu}, waiting in line behind 8 taken here} */
    private static CompletableFuture<Long> patientCallInLine(Guarded guarded, WeightedSemaphore gpu)
            throws InterruptedException {
        gpu.acquire(8);
        CompletableFuture<Long> waiter = CompletableFuture.supplyAsync(() -> guarded.patient(5, gpu));
        Awaitility.await().atMost(10, TimeUnit.SECONDS).until(() -> gpu.waiting() == 1);
        return waiter;
    }

    /** A {@code Number} of a kind poolkit does not know, as a library's mutable double is. */
    static final class Fraction extends Number {

        private static final long serialVersionUID = 1L;

        private final double value;

        Fraction(double value) {
            this.value = value;
        }

        @Override
        public int intValue() {
            return (int) value;
        }

        @Override
        public long longValue() {
            return (long) value;
        }

        @Override
        public float floatValue() {
            return (float) value;
        }

        @Override
        public double doubleValue() {
            return value;
        }

        @Override
        public String toString() {
            return Double.toString(value);
        }
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

        @Permits(weight = "3")
        public CompletableFuture<String> all(CompletableFuture<String> result) {
            return result;
        }

        @Permits(value = "gpu", weight = "5")
        public CompletionStage<String> stage(CompletionStage<String> result) {
            return result;
        }

        @Permits(value = "gpu", weight = "#size", maxWait = "${test.wait}")
        public long patient(int size, WeightedSemaphore gpu) {
            return gpu.used();
        }

        @Permits(value = "gpu", weight = "#p0")
        public void badWeight(Object weight) {
        }

        @Permits(value = "gpu", weight = "#p0")
        public long weighed(Object weight, WeightedSemaphore gpu) {
            return gpu.used();
        }

        @Permits("nope")
        public void unknown() {
        }

        @Permits("flaky")
        public String onFlaky(FlakySemaphore flaky) {
            flaky.disconnect(); // its store goes down while the method runs: the permits cannot be given back
            return "done";
        }

        @Permits("flaky")
        public CompletableFuture<String> asyncOnFlaky(CompletableFuture<String> result) {
            return result;
        }

        @Permits("flaky")
        public void failsOnFlaky(FlakySemaphore flaky) {
            flaky.disconnect();
            throw new IllegalStateException("the method's own failure");
        }
    }
}
