package io.github.poolkit.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;

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

    @Test
    void aCustomizerCanTargetOnePoolByItsBeanName() {
        runner.withUserConfiguration(OnlyReports.class).withPropertyValues("poolkit.pools.reports.capacity=2")
                .run(context -> {
                    assertThat(context.getBean("reports", WorkerPool.class).options().queueCapacity()).isEqualTo(-1);
                    assertThat(context.getBean("workerPool", WorkerPool.class).options().queueCapacity()).isZero();
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
