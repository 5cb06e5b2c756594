package io.github.poolkit.autoconfigure.redis;

import io.github.poolkit.autoconfigure.PoolkitAutoConfiguration;
import io.github.poolkit.autoconfigure.PoolkitProperties;
import io.github.poolkit.autoconfigure.SemaphoreListeners;
import io.github.poolkit.redis.RedisPermitSemaphore;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.ImportRuntimeHints;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * Cluster-wide semaphores: one {@link RedisPermitSemaphore} bean per {@code poolkit.semaphores.<name>} with
 * {@code scope: cluster}, named after the key and injectable as {@link io.github.poolkit.PermitSemaphore}, on the Redis
 * that the application configures with {@code spring.data.redis.*}. Each one's size comes from
 * {@code poolkit.semaphores.<name>.size} (default {@code poolkit.semaphore.size}) and its lease time from
 * {@code poolkit.semaphores.<name>.lease-time} (default 30 s).
 *
 * <p>Active when {@code io.github.poolkit:pool-redis} and Spring Data Redis are on the classpath, with poolkit's own
 * auto-configuration (it backs off when that one is excluded or backed off); runs after Spring
 * Boot's Redis auto-configuration, whose {@link RedisConnectionFactory} it uses (Lettuce). A cluster semaphore
 * connects when its bean is created, so the application does not start while its Redis is unreachable.
 */
@AutoConfiguration(after = PoolkitAutoConfiguration.class,
        afterName = "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration")
@ConditionalOnClass({RedisPermitSemaphore.class, RedisConnectionFactory.class})
@ConditionalOnBean({ PoolkitProperties.class, SemaphoreListeners.class }) // backs off with poolkit's own
@Import(ClusterSemaphoresRegistrar.class)
@ImportRuntimeHints(ClusterSemaphoreRuntimeHints.class)
public class PoolkitRedisAutoConfiguration {

    /** Created by Spring. */
    public PoolkitRedisAutoConfiguration() {
    }

    @Bean(name = ClusterSemaphoresRegistrar.FACTORY)
    ClusterSemaphoreFactory poolkitClusterSemaphoreFactory(PoolkitProperties properties,
            ConfigurableListableBeanFactory beans, SemaphoreListeners semaphoreListeners) {
        return new ClusterSemaphoreFactory(properties, beans, semaphoreListeners);
    }
}
