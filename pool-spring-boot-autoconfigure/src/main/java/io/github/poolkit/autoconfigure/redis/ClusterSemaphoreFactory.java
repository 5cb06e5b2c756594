package io.github.poolkit.autoconfigure.redis;

import io.github.poolkit.autoconfigure.PoolkitProperties;
import io.github.poolkit.autoconfigure.PoolkitProperties.NamedSemaphore;
import io.github.poolkit.redis.RedisPermitSemaphore;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Builds the cluster semaphore beans registered by {@link ClusterSemaphoresRegistrar} from the bound
 * {@link PoolkitProperties}, on the application's {@link RedisConnectionFactory}.
 */
public class ClusterSemaphoreFactory {

    private final PoolkitProperties properties;
    private final ObjectProvider<RedisConnectionFactory> connectionFactory;

    ClusterSemaphoreFactory(PoolkitProperties properties, ObjectProvider<RedisConnectionFactory> connectionFactory) {
        this.properties = properties;
        this.connectionFactory = connectionFactory;
    }

    /**
     * Connects the cluster semaphore {@code name} ({@code poolkit.semaphores.<name>}).
     *
     * @param name the key, which is also the bean name and the semaphore's name in Redis
     * @return the semaphore
     * @throws IllegalStateException if the application has no Redis connection factory
     */
    public RedisPermitSemaphore create(String name) {
        NamedSemaphore settings = properties.getSemaphores().get(name);
        long size = settings.getSize() != null ? settings.getSize() : properties.getSemaphore().getSize();
        RedisConnectionFactory redis = connectionFactory.getIfAvailable();
        if (redis == null) {
            throw new IllegalStateException("poolkit.semaphores." + name + ".scope=cluster needs Redis, but the"
                    + " application has no RedisConnectionFactory: add spring-boot-starter-data-redis and set"
                    + " spring.data.redis.host/port (or use scope: local)");
        }
        if (redis instanceof LettuceConnectionFactory lettuce && !lettuce.isRunning()) {
            lettuce.start();
        }
        return RedisPermitSemaphore.builder(redis, name).size(size).leaseTime(settings.getLeaseTime()).build();
    }
}
