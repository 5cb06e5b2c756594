package io.github.poolkit.autoconfigure.refresh;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.cloud.context.environment.EnvironmentChangeEvent;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

import io.github.poolkit.autoconfigure.PoolTaskListeners;
import io.github.poolkit.autoconfigure.PoolkitAutoConfiguration;
import io.github.poolkit.autoconfigure.SemaphoreListeners;
import io.github.poolkit.autoconfigure.actuate.PoolkitBeans;

/**
 * Auto-configuration of the live refresh of {@code poolkit.*} keys ({@link PoolkitRefreshListener}) when Spring
 * Cloud's {@code spring-cloud-context} is on the classpath.
 */
@AutoConfiguration(after = PoolkitAutoConfiguration.class)
@ConditionalOnClass(EnvironmentChangeEvent.class)
@ConditionalOnBean({ PoolTaskListeners.class, SemaphoreListeners.class })
public class PoolkitRefreshAutoConfiguration {

    /** Created by Spring. */
    public PoolkitRefreshAutoConfiguration() {
    }

    @Bean
    @ConditionalOnMissingBean
    PoolkitRefreshListener poolkitRefreshListener(Environment environment, ListableBeanFactory beanFactory,
            PoolTaskListeners poolTaskListeners, SemaphoreListeners semaphoreListeners) {
        return new PoolkitRefreshListener(environment, new PoolkitBeans(beanFactory), poolTaskListeners,
                semaphoreListeners);
    }
}
