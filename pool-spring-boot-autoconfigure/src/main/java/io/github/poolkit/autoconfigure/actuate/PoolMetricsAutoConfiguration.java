package io.github.poolkit.autoconfigure.actuate;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.context.annotation.Bean;

import io.github.poolkit.WorkerPool;
import io.github.poolkit.autoconfigure.PoolBeanListeners;
import io.github.poolkit.autoconfigure.PoolkitAutoConfiguration;
import io.github.poolkit.autoconfigure.SemaphoreListeners;

/**
 * Auto-configuration of poolkit's Micrometer meters ({@link PoolMetrics}) when Micrometer is on the classpath and a
 * {@link MeterRegistry} bean exists; Spring Boot binds the {@link MeterBinder} to every registry.
 */
@AutoConfiguration(after = { MetricsAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
        SimpleMetricsExportAutoConfiguration.class, PoolkitAutoConfiguration.class })
@ConditionalOnClass({ WorkerPool.class, MeterBinder.class })
@ConditionalOnBean({ MeterRegistry.class, PoolBeanListeners.class, SemaphoreListeners.class })
public class PoolMetricsAutoConfiguration {

    /** Created by Spring. */
    public PoolMetricsAutoConfiguration() {
    }

    @Bean
    @ConditionalOnMissingBean
    PoolMetrics poolMetrics(ListableBeanFactory beanFactory, PoolBeanListeners poolBeanListeners,
            SemaphoreListeners semaphoreListeners) {
        return new PoolMetrics(PoolkitBeans.includingLazy(beanFactory), poolBeanListeners, semaphoreListeners);
    }
}
