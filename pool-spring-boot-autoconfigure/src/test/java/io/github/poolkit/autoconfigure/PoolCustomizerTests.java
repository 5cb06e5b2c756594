package io.github.poolkit.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;

import io.github.poolkit.InvalidOptionException;
import io.github.poolkit.OverdueTask;
import io.github.poolkit.PoolListener;
import io.github.poolkit.WorkerPool;

/**
 * {@link PoolCustomizer} beans are applied, in {@code @Order}, to every pool poolkit creates (the scheduler's
 * included), after the properties: they see the properties' values and have the last word.
 */
class PoolCustomizerTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(PoolkitAutoConfiguration.class))
            .withPropertyValues("poolkit.semaphore.enabled=false");

    @Test
    void everyPoolIsCustomizedInOrderAfterItsProperties() {
        runner.withUserConfiguration(Customizers.class)
                .withPropertyValues("poolkit.pool.queue-capacity=7", "poolkit.pool.max-wait=1s",
                        "poolkit.pools.reports.capacity=2")
                .run(context -> {
                    List<String> calls = context.getBean(Customizers.class).calls;
                    // creation order of the beans may vary; the order of the customizers per bean may not
                    assertThat(calls).containsExactlyInAnyOrder("early:workerPool:7", "late:workerPool",
                            "early:reports:7", "late:reports", "early:delayScheduler:0", "late:delayScheduler");
                    for (String bean : List.of("workerPool", "reports", "delayScheduler")) {
                        assertThat(calls.indexOf("early:" + bean + ":" + (bean.equals("delayScheduler") ? 0 : 7)))
                                .isLessThan(calls.indexOf("late:" + bean));
                    }
                    // the later customizer overrides the earlier one, which overrode the property
                    assertThat(context.getBean("workerPool", WorkerPool.class).options().maxWait())
                            .isEqualTo(Duration.ofMillis(300));
                    assertThat(context.getBean("reports", WorkerPool.class).options().maxWait())
                            .isEqualTo(Duration.ofMillis(300));
                });
    }

    /**
     * An option a customizer made invalid is blamed on the customizers, in the builder's terms they used, not on a
     * property that was never set (there is no {@code poolkit.pool.thread-factory}).
     */
    @Test
    void anInvalidOptionACustomizerSetIsBlamedOnTheCustomizersNotOnAProperty() {
        runner.withPropertyValues("poolkit.pool.virtual-threads=true")
                .withBean(PoolCustomizer.class, () -> (name, options) -> options.threadFactory(Thread.ofPlatform()
                        .factory()))
                .run(context -> {
                    assertThat(context).hasFailed();
                    Throwable failure = context.getStartupFailure();
                    while (failure.getCause() != null && !(failure instanceof IllegalStateException
                            && failure.getMessage().contains("PoolCustomizer"))) {
                        failure = failure.getCause();
                    }
                    assertThat(failure).isInstanceOf(IllegalStateException.class)
                            .hasMessageContaining("The PoolCustomizer beans left pool 'workerPool' with an invalid"
                                    + " option (its properties alone are valid)")
                            .hasMessageContaining("threadFactory")
                            .hasMessageNotContaining("poolkit.pool.thread-factory")
                            .hasCauseInstanceOf(InvalidOptionException.class);
                });
    }

    @Test
    void aCustomizerCanTargetOnePoolByItsBeanName() {
        runner.withUserConfiguration(OnlyReports.class).withPropertyValues("poolkit.pools.reports.capacity=2")
                .run(context -> {
                    assertThat(context.getBean("reports", WorkerPool.class).options().queueCapacity()).isEqualTo(-1);
                    assertThat(context.getBean("workerPool", WorkerPool.class).options().queueCapacity()).isZero();
                });
    }

    /**
     * A listener a customizer sets is told as well as poolkit's own, not instead: the overdue report still reaches
     * poolkit's log (the endpoint's {@code recentOverdue}, the WARN, the event, the meters) and the application's
     * listener.
     */
    @Test
    void aListenerSetByACustomizerIsToldAsWellAsPoolkits() {
        List<String> heard = new CopyOnWriteArrayList<>();
        PoolListener own = new PoolListener() {
            @Override
            public void taskFinished(long waitedNanos, long ranNanos, Throwable failure) {
                heard.add("finished");
            }

            @Override
            public void taskOverdue(OverdueTask task) {
                heard.add("overdue " + task.task());
            }
        };
        runner.withPropertyValues("poolkit.pools.reports.capacity=2", "poolkit.pools.reports.run-timeout=100ms")
                .withBean(PoolCustomizer.class, () -> (name, options) -> {
                    if (name.equals("reports")) {
                        options.listener(own);
                    }
                }).run(context -> {
                    WorkerPool reports = context.getBean("reports", WorkerPool.class);
                    PoolOverdueLog log = context.getBean(PoolOverdueLog.class);
                    CountDownLatch release = new CountDownLatch(1);
                    reports.execute(new Runnable() {
                        @Override
                        public void run() {
                            try {
                                release.await();
                            }
                            catch (InterruptedException ex) {
                                Thread.currentThread().interrupt();
                            }
                        }

                        @Override
                        public String toString() {
                            return "slow-report";
                        }
                    });
                    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> log.recent(reports).size() == 1);
                    Awaitility.await().atMost(Duration.ofSeconds(10))
                            .until(() -> heard.contains("overdue slow-report"));
                    release.countDown();
                    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> heard.contains("finished"));
                });
    }

    @Configuration(proxyBeanMethods = false)
    static class Customizers {

        final List<String> calls = new CopyOnWriteArrayList<>();

        @Bean
        @Order(2)
        PoolCustomizer late() {
            return (beanName, options) -> {
                calls.add("late:" + beanName);
                options.maxWait(Duration.ofMillis(300));
            };
        }

        @Bean
        @Order(1)
        PoolCustomizer early() {
            return (beanName, options) -> {
                calls.add("early:" + beanName + ":" + options.build().queueCapacity());
                options.maxWait(Duration.ofMillis(100));
            };
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OnlyReports {

        @Bean
        PoolCustomizer unboundedReportsQueue() {
            return (beanName, options) -> {
                if (beanName.equals("reports")) {
                    options.queueCapacity(-1);
                }
            };
        }
    }
}
