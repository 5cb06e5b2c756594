package io.github.poolkit.autoconfigure.actuate;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;

import io.github.poolkit.WorkerPool;
import io.github.poolkit.autoconfigure.actuate.executors.ApplicationExecutors;

/**
 * Auto-configuration of the executor meters of the application's other executors ({@link ExecutorMetrics}) when
 * Micrometer is on the class path and a {@link MeterRegistry} bean exists. It runs after Spring Boot's own
 * task-executor metrics, whose meters it leaves alone.
 */
@AutoConfiguration(after = { MetricsAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
        SimpleMetricsExportAutoConfiguration.class },
        afterName = "org.springframework.boot.micrometer.metrics.autoconfigure.task.TaskExecutorMetricsAutoConfiguration")
@ConditionalOnClass({ WorkerPool.class, MeterBinder.class })
@ConditionalOnBean(MeterRegistry.class)
public class ExecutorMetricsAutoConfiguration {

    /** Created by Spring. */
    public ExecutorMetricsAutoConfiguration() {
    }

    @Bean
    @ConditionalOnMissingBean
    ExecutorMetrics executorMetrics(ApplicationContext context) {
        return new ExecutorMetrics(new ApplicationExecutors(context));
    }
}
