package io.github.poolkit.autoconfigure.permits;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.util.ClassUtils;

import io.github.poolkit.WeightedSemaphore;
import io.github.poolkit.annotation.Permits;
import io.github.poolkit.autoconfigure.PoolkitAutoConfiguration;

/**
 * {@link Permits} in an application without Reactor. Run by the build's {@code without-reactor} pass (the tag), whose
 * class path lacks Reactor and Reactive Streams altogether (a class loader that only hides them would still load them
 * through its parent), so that a reference to Reactor on a path every application takes fails here.
 */
@Tag("without-reactor")
@Timeout(30)
class PermitsWithoutReactorTests {

    @Test
    void guardsPlainAndCompletionStageMethods() {
        assertThat(ClassUtils.isPresent("reactor.core.publisher.Mono", null)).as("Reactor is absent").isFalse();
        assertThat(ClassUtils.isPresent("org.reactivestreams.Publisher", null)).isFalse();
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(PoolkitAutoConfiguration.class,
                        PermitsAutoConfiguration.class))
                .withPropertyValues("poolkit.semaphores.gpu.size=10").withBean(WithoutReactor.class).run(context -> {
                    assertThat(context).hasNotFailed();
                    WithoutReactor guarded = context.getBean(WithoutReactor.class);
                    WeightedSemaphore gpu = context.getBean("gpu", WeightedSemaphore.class);
                    assertThat(guarded.plain(gpu)).isEqualTo(2);
                    CompletableFuture<String> result = new CompletableFuture<>();
                    CompletableFuture<String> returned = guarded.stage(result);
                    assertThat(gpu.used()).isEqualTo(2);
                    result.complete("done");
                    assertThat(gpu.used()).isZero();
                    assertThat(returned).isCompletedWithValue("done");
                });
    }

    /** Every public method holds 2 permits of "gpu". */
    @Permits(value = "gpu", weight = "2")
    static class WithoutReactor {

        public long plain(WeightedSemaphore gpu) {
            return gpu.used();
        }

        public CompletableFuture<String> stage(CompletableFuture<String> result) {
            return result;
        }
    }
}
