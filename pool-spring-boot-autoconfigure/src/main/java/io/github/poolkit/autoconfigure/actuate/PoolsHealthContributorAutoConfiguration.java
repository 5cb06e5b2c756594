package io.github.poolkit.autoconfigure.actuate;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

import io.github.poolkit.WorkerPool;
import io.github.poolkit.autoconfigure.PoolOverdueLog;
import io.github.poolkit.autoconfigure.PoolkitAutoConfiguration;

/**
 * Auto-configuration of the {@code pools} health contributor ({@link PoolsHealthIndicator}) when Spring Boot's health
 * support is on the classpath; switched off with {@code management.health.pools.enabled=false}.
 */
@AutoConfiguration(after = PoolkitAutoConfiguration.class)
@ConditionalOnClass({ WorkerPool.class, HealthIndicator.class, ConditionalOnEnabledHealthIndicator.class })
@ConditionalOnEnabledHealthIndicator("pools")
public class PoolsHealthContributorAutoConfiguration {

    /** Created by Spring. */
    public PoolsHealthContributorAutoConfiguration() {
    }

    /** The bean name gives the contributor its name: "pools". */
    @Bean
    @ConditionalOnMissingBean(name = "poolsHealthIndicator")
    PoolsHealthIndicator poolsHealthIndicator(ListableBeanFactory beanFactory,
            ObjectProvider<PoolOverdueLog> overdueLog) {
        return new PoolsHealthIndicator(new PoolkitBeans(beanFactory), overdueLog.getIfAvailable());
    }
}
