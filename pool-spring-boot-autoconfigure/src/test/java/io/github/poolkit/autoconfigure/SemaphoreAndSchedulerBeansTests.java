package io.github.poolkit.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.poolkit.DelayScheduler;
import io.github.poolkit.WeightedSemaphore;
import io.github.poolkit.WorkerPool;

/**
 * The weighted-semaphore beans (primary and named, with inheritance of the size) and the delay scheduler: defaults,
 * {@code enabled: false}, the user's own beans, and the scheduler's place in the shutdown order.
 */
@Timeout(30)
class SemaphoreAndSchedulerBeansTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(PoolkitAutoConfiguration.class));

    @Test
    void defaultsGiveAllThreePrimaryBeans() {
        runner.run(context -> {
            assertThat(context).hasSingleBean(WorkerPool.class).hasSingleBean(WeightedSemaphore.class)
                    .hasSingleBean(DelayScheduler.class);
            assertThat(context.getBean("weightedSemaphore", WeightedSemaphore.class).size()).isEqualTo(64);
            assertThat(context).hasBean("delayScheduler");
        });
    }

    @Test
    void namedSemaphoresInheritTheSizeUnlessSet() {
        runner.withPropertyValues("poolkit.semaphore.size=10", "poolkit.semaphores.gpu-memory.size=16384",
                "poolkit.semaphores.disk.enabled=true").run(context -> {
                    assertThat(context.getBeansOfType(WeightedSemaphore.class))
                            .containsOnlyKeys("weightedSemaphore", "gpu-memory", "disk");
                    assertThat(context.getBean("gpu-memory", WeightedSemaphore.class).size()).isEqualTo(16384);
                    assertThat(context.getBean("disk", WeightedSemaphore.class).size()).isEqualTo(10);
                    assertThat(context.getBean(WeightedSemaphore.class)).isSameAs(context.getBean("weightedSemaphore"));
                });
    }

    @Test
    void semaphoresCanBeSwitchedOff() {
        runner.withPropertyValues("poolkit.semaphore.enabled=false", "poolkit.semaphores.a.size=1",
                "poolkit.semaphores.b.enabled=false")
                .run(context -> assertThat(context.getBeansOfType(WeightedSemaphore.class)).containsOnlyKeys("a"));
    }

    @Test
    void schedulerRunsJobsAndCanBeSwitchedOff() {
        runner.withPropertyValues("poolkit.scheduler.workers=2").run(context -> {
            CompletableFuture<String> ran = new CompletableFuture<>();
            context.getBean(DelayScheduler.class).scheduleOnce(() -> ran.complete(Thread.currentThread().getName()),
                    Duration.ofMillis(10));
            assertThat(ran.get(10, TimeUnit.SECONDS)).startsWith("delayScheduler");
        });
        runner.withPropertyValues("poolkit.scheduler.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(DelayScheduler.class));
    }

    @Test
    void usersOwnSemaphoreAndSchedulerWin() {
        runner.withUserConfiguration(UserBeans.class).withPropertyValues("poolkit.semaphores.gpu-memory.size=5")
                .run(context -> {
                    assertThat(context.getBean("weightedSemaphore", WeightedSemaphore.class).size()).isEqualTo(7);
                    assertThat(context.getBean("gpu-memory", WeightedSemaphore.class).size()).isEqualTo(8);
                    assertThat(context.getBean("delayScheduler")).isSameAs(context.getBean(UserBeans.class).scheduler);
                });
    }

    @Test
    void schedulerAndPoolsStopAcceptingTogetherOnClose() throws Exception {
        CompletableFuture<String> outcome = new CompletableFuture<>();
        runner.run(context -> {
            WorkerPool pool = context.getBean(WorkerPool.class);
            DelayScheduler scheduler = context.getBean(DelayScheduler.class);
            // A one-shot job still pending at close runs when due, but the pools refuse work by then.
            scheduler.scheduleOnce(() -> {
                try {
                    pool.execute(() -> outcome.complete("ran on the pool"));
                }
                catch (RuntimeException ex) {
                    outcome.complete("rejected: " + ex.getClass().getSimpleName());
                }
            }, Duration.ofMillis(100));
            context.close();
            assertThat(scheduler.isShutdown()).isTrue();
            assertThat(pool.isClosed()).isTrue();
        });
        assertThat(outcome.get(10, TimeUnit.SECONDS)).isEqualTo("rejected: PoolClosedException");
    }

    @Configuration(proxyBeanMethods = false)
    static class UserBeans {

        final DelayScheduler scheduler = DelayScheduler.create(1);

        @Bean
        WeightedSemaphore weightedSemaphore() {
            return new WeightedSemaphore(7);
        }

        @Bean("gpu-memory")
        WeightedSemaphore gpuMemory() {
            return new WeightedSemaphore(8);
        }

        @Bean(destroyMethod = "shutdown")
        DelayScheduler delayScheduler() {
            return scheduler;
        }
    }
}
