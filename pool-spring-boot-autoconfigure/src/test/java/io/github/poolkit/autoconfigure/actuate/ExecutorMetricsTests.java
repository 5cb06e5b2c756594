package io.github.poolkit.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.LazyInitializationBeanFactoryPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.autoconfigure.task.TaskSchedulingAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.task.TaskExecutorMetricsAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.task.SimpleAsyncTaskExecutor;
import org.springframework.scheduling.annotation.EnableScheduling;

import io.github.poolkit.autoconfigure.PoolkitAutoConfiguration;
import io.github.poolkit.autoconfigure.actuate.executors.ApplicationExecutors;

/**
 * Micrometer's executor meters for the application's executors that nobody meters yet, in a real
 * {@link SimpleMeterRegistry}, beside Spring Boot's own task-executor metrics: no meter registered twice.
 */
@Timeout(30)
class ExecutorMetricsTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
                    SimpleMetricsExportAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
                    TaskExecutionAutoConfiguration.class, TaskSchedulingAutoConfiguration.class,
                    TaskExecutorMetricsAutoConfiguration.class, PoolkitAutoConfiguration.class,
                    PoolMetricsAutoConfiguration.class, ExecutorMetricsAutoConfiguration.class))
            .withPropertyValues("poolkit.semaphore.enabled=false");

    /**
     * One executor under two bean names (a {@code @Bean} handing another bean's executor on) is metered once, under
     * the name of the bean that made it, although the other name comes first in alphabetical order: meters under both
     * counted each task twice in a sum over {@code name}, and a dashboard keyed on the defining bean's name would
     * lose its series under the other.
     */
    @Test
    void anExecutorUnderTwoBeanNamesIsMeteredOnceUnderTheNameOfTheBeanThatMadeIt() {
        runner.withUserConfiguration(OneExecutorTwoNames.class).run(context -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            assertThat(context.getBean("reports")).isSameAs(context.getBean("reportsPool"));
            assertThat(value(registry, "executor.pool.max", "reportsPool")).isEqualTo(3);
            assertThat(registry.find("executor.pool.max").tag("name", "reports").meters()).isEmpty();
            assertThat(registry.find("executor.completed").tag("name", "reports").meters()).isEmpty();
        });
    }

    /**
     * Handed on twice (each alias made from the one before), or two executors each under two names: each is metered
     * once, under the bean that made it.
     */
    @Test
    void anExecutorHandedOnTwiceIsMeteredUnderTheBeanThatMadeIt() {
        runner.withUserConfiguration(OneExecutorTwoNames.class, HandedOnAgain.class).run(context -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            assertThat(context.getBean("aReports")).isSameAs(context.getBean("reportsPool"));
            assertThat(value(registry, "executor.pool.max", "reportsPool")).isEqualTo(3);
            assertThat(value(registry, "executor.pool.max", "mailPool")).isEqualTo(2);
            for (String alias : new String[] {"reports", "aReports", "aMail"}) {
                assertThat(registry.find("executor.pool.max").tag("name", alias).meters()).as(alias).isEmpty();
            }
        });
    }

    /** The handed-on pool handed on again, and a second pool with an alias of its own. */
    @Configuration(proxyBeanMethods = false)
    static class HandedOnAgain {

        @Bean(destroyMethod = "")
        Executor aReports(@Qualifier("reports") Executor reports) {
            return reports;
        }

        @Bean(destroyMethod = "shutdownNow")
        ThreadPoolExecutor mailPool() {
            return new ThreadPoolExecutor(1, 2, 1, TimeUnit.SECONDS, new LinkedBlockingQueue<>(5));
        }

        @Bean(destroyMethod = "")
        Executor aMail(@Qualifier("mailPool") ThreadPoolExecutor mailPool) {
            return mailPool;
        }
    }

    /** A pool, and the same pool handed on under a second name. */
    @Configuration(proxyBeanMethods = false)
    static class OneExecutorTwoNames {

        @Bean(destroyMethod = "shutdownNow")
        ThreadPoolExecutor reportsPool() {
            return new ThreadPoolExecutor(1, 3, 1, TimeUnit.SECONDS, new LinkedBlockingQueue<>(5));
        }

        @Bean(destroyMethod = "")
        Executor reports(ThreadPoolExecutor reportsPool) {
            return reportsPool;
        }
    }

    @Test
    void metersTheApplicationsOwnExecutorsWithWhatTheyTell() {
        runner.withUserConfiguration(OwnExecutors.class).run(context -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            assertThat(value(registry, "executor.pool.max", "ownPool")).isEqualTo(3);
            assertThat(value(registry, "executor.pool.size", "ownPool")).isZero();
            assertThat(value(registry, "executor.active", "ownPool")).isZero();
            assertThat(value(registry, "executor.queued", "ownPool")).isZero();
            assertThat(value(registry, "executor.queue.remaining", "ownPool")).isEqualTo(5);
            assertThat(registry.get("executor.completed").tag("name", "ownPool").functionCounter().count()).isZero();
            context.getBean("ownPool", ThreadPoolExecutor.class).setMaximumPoolSize(4);
            assertThat(value(registry, "executor.pool.max", "ownPool")).as("read at each scrape").isEqualTo(4);
            assertThat(value(registry, "executor.pool.core", "ownPool")).isEqualTo(1);
            assertThat(registry.get("executor.pool.core").tag("name", "ownPool").gauge().getId().getBaseUnit())
                    .isEqualTo("threads");
            assertThat(value(registry, "executor.pool.core", "cached")).isZero();
            assertThat(registry.find("executor.pool.core").tag("name", "simple").meter()).as("no core size").isNull();
            // a thread per task: only its limit, Integer.MAX_VALUE when unlimited, as Micrometer writes it
            assertThat(value(registry, "executor.pool.max", "simple")).isEqualTo(Integer.MAX_VALUE);
            // a cached pool is unlimited too: -1 in the endpoint, Integer.MAX_VALUE here
            assertThat(value(registry, "executor.pool.max", "cached")).isEqualTo(Integer.MAX_VALUE);
            assertThat(registry.find("executor.active").tag("name", "simple").meter()).isNull();
            assertThat(registry.find("executor.completed").tag("name", "simple").meter()).isNull();
            assertThat(registry.find("executor.pool.max").tag("name", "custom").meter()).isNull();
            assertThat(registry.find("executor.pool.max").tag("name", "workerPool").gauge()).isNotNull();
        });
    }

    /** With lazy initialization, an executor bean nobody has asked for yet is metered too (created for it). */
    @Test
    void metersALazyExecutorToo() {
        runner.withUserConfiguration(OwnExecutors.class)
                .withInitializer(context -> context.addBeanFactoryPostProcessor(
                        new LazyInitializationBeanFactoryPostProcessor()))
                .run(context -> {
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    assertThat(registry.find("executor.pool.max").tag("name", "ownPool").gauge()).isNotNull();
                    assertThat(value(registry, "executor.pool.max", "ownPool")).isEqualTo(3);
                });
    }

    @Test
    void leavesSpringBootsOwnExecutorMetersAlone() {
        runner.withUserConfiguration(SchedulingConfig.class).run(context -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            assertThat(context).hasSingleBean(ExecutorMetrics.class);
            // Boot's ExecutorServiceMetrics registers executor.pool.core itself: ours is not added again
            assertThat(registry.find("executor.pool.core").tag("name", "applicationTaskExecutor").gauges())
                    .hasSize(1);
            assertThat(registry.find("executor.pool.max").tag("name", "applicationTaskExecutor").gauges())
                    .hasSize(1);
            // a second gauge of the same id would be Micrometer's first one anyway: the description tells whose it is
            assertThat(registry.get("executor.pool.max").tag("name", "applicationTaskExecutor").gauge().getId()
                    .getDescription()).as("Micrometer's, not poolkit's (which adds 'Integer.MAX_VALUE when unlimited')")
                    .isEqualTo("The maximum allowed number of threads in the pool");
            assertThat(registry.find("executor.pool.core").tag("name", "taskScheduler").gauge()).isNotNull();
        });
    }

    @Test
    void aMeterTheRegistryHoldsAlreadyIsNotRegisteredAgain() {
        runner.withUserConfiguration(OwnExecutors.class).run(context -> {
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            // of another type than the gauge the binder would register: Micrometer refuses such a second meter with
            // an exception (while a gauge of the same id would just be returned, which no test could tell apart)
            FunctionCounter.builder("executor.pool.max", this, owner -> 42).tag("name", "ownPool").register(registry);
            ExecutorMetrics metrics = new ExecutorMetrics(new ApplicationExecutors(context));
            metrics.bindTo(registry);
            assertThat(registry.get("executor.pool.max").tag("name", "ownPool").functionCounter().count())
                    .isEqualTo(42);
            assertThat(value(registry, "executor.queue.remaining", "ownPool")).isEqualTo(5);
            // the binder keeps its gauges' executors reachable (a gauge holds its object weakly), as a bean would be
            java.lang.ref.Reference.reachabilityFence(metrics);
        });
    }

    @Test
    void aGetterThatThrowsReadsNaN() {
        runner.withUserConfiguration(OwnExecutors.class).run(context -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            assertThat(value(registry, "executor.pool.max", "flaky")).isEqualTo(2);
            FlakyPool flaky = context.getBean("flaky", FlakyPool.class);
            flaky.broken = true;
            assertThat(value(registry, "executor.pool.max", "flaky")).isNaN();
        });
    }

    private static double value(MeterRegistry registry, String meter, String name) {
        return registry.get(meter).tag("name", name).gauge().value();
    }

    @Configuration(proxyBeanMethods = false)
    @EnableScheduling
    static class SchedulingConfig {
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnExecutors {

        @Bean(destroyMethod = "shutdownNow")
        ThreadPoolExecutor ownPool() {
            return new ThreadPoolExecutor(1, 3, 1, TimeUnit.MINUTES, new LinkedBlockingQueue<>(5));
        }

        @Bean(destroyMethod = "shutdownNow")
        FlakyPool flaky() {
            return new FlakyPool();
        }

        @Bean(destroyMethod = "shutdownNow")
        ExecutorService cached() {
            return Executors.newCachedThreadPool();
        }

        @Bean
        SimpleAsyncTaskExecutor simple() {
            return new SimpleAsyncTaskExecutor();
        }

        @Bean
        Executor custom() {
            return Runnable::run;
        }
    }

    /** A pool whose maximum getter throws once it is told to. */
    static final class FlakyPool extends ThreadPoolExecutor {

        volatile boolean broken;

        FlakyPool() {
            super(1, 2, 1, TimeUnit.MINUTES, new LinkedBlockingQueue<>());
        }

        @Override
        public int getMaximumPoolSize() {
            if (broken) {
                throw new IllegalStateException("broken getter");
            }
            return super.getMaximumPoolSize();
        }
    }
}
