package io.github.poolkit.autoconfigure.redis;

import io.github.poolkit.autoconfigure.InvalidPoolkitPropertyException;
import io.github.poolkit.autoconfigure.PoolkitLifecycle;
import io.github.poolkit.autoconfigure.PoolkitProperties;
import io.github.poolkit.autoconfigure.SemaphoreListeners;
import io.github.poolkit.redis.RedisPermitSemaphore;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.beans.factory.NoSuchBeanDefinitionException;
import org.springframework.beans.factory.NoUniqueBeanDefinitionException;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Builds the cluster semaphore beans registered by {@link ClusterSemaphoresRegistrar} from the bound
 * {@link PoolkitProperties}, on the application's {@link RedisConnectionFactory}.
 *
 * <p>On context close it closes them (withdrawing their waiting requests) after the web server and poolkit's pools
 * have drained, whose work may still hold or take permits, and before the connection factory stops: the factory is
 * a lifecycle bean that shuts its Lettuce client down in {@code stop()}, before any bean is destroyed. So this
 * factory's phase is below {@link PoolkitLifecycle#PHASE} (a higher phase stops earlier), and it depends on the
 * connection factory, whose stop therefore stops it first.
 *
 * <p>A context {@code stop()} closes them too, and a later {@code start()} does not reopen them (their connection
 * factory makes a new Lettuce client then): a cluster semaphore is for a context that runs until it is closed.
 */
public class ClusterSemaphoreFactory implements SmartLifecycle {

    private final PoolkitProperties properties;
    private final ConfigurableListableBeanFactory beans;
    private final SemaphoreListeners semaphoreListeners;
    private final List<RedisPermitSemaphore> created = new CopyOnWriteArrayList<>();
    private volatile boolean running;

    ClusterSemaphoreFactory(PoolkitProperties properties, ConfigurableListableBeanFactory beans,
            SemaphoreListeners semaphoreListeners) {
        this.properties = properties;
        this.beans = beans;
        this.semaphoreListeners = semaphoreListeners;
    }

    /**
     * Connects the cluster semaphore {@code name} ({@code poolkit.semaphores.<name>}).
     *
     * @param name the key, which is also the bean name and the semaphore's name in Redis
     * @return the semaphore
     * @throws IllegalStateException if the application has no Redis connection factory
     * @throws InvalidPoolkitPropertyException if its size or lease time cannot be used
     */
    public RedisPermitSemaphore create(String name) {
        List<InvalidPoolkitPropertyException> problems = ClusterSemaphoreChecks.problems(properties, name);
        if (!problems.isEmpty()) {
            throw problems.get(0);
        }
        long size = ClusterSemaphoreChecks.size(properties, name);
        Duration leaseTime = properties.getSemaphores().get(name).getLeaseTime();
        String factoryName = connectionFactoryName(name);
        RedisConnectionFactory redis = beans.getBean(factoryName, RedisConnectionFactory.class);
        // stopped and destroyed before its connection factory, so that close() can still withdraw waiting requests
        beans.registerDependentBean(factoryName, name);
        beans.registerDependentBean(factoryName, ClusterSemaphoresRegistrar.FACTORY);
        if (redis instanceof LettuceConnectionFactory lettuce && !lettuce.isRunning()) {
            lettuce.start();
        }
        // the metrics listener, as a local semaphore's: the acquire timer is attached to it once meters are bound
        RedisPermitSemaphore semaphore = RedisPermitSemaphore.builder(redis, name).size(size)
                .leaseTime(leaseTime).listener(semaphoreListeners.listenerFor(name)).build();
        created.add(semaphore);
        return semaphore;
    }

    /**
     * The name of the application's Redis connection factory, chosen as Spring injects one (autowire candidates only,
     * then {@code @Primary}, {@code @Fallback} and priority).
     */
    private String connectionFactoryName(String semaphore) {
        try {
            return beans.resolveNamedBean(RedisConnectionFactory.class).getBeanName();
        }
        catch (NoUniqueBeanDefinitionException ex) {
            throw new IllegalStateException("poolkit.semaphores." + semaphore + ".scope=cluster needs one Redis"
                    + " connection factory, but the application has several, " + ex.getBeanNamesFound() + ", and no"
                    + " single @Primary one: mark the one to use @Primary");
        }
        catch (NoSuchBeanDefinitionException ex) {
            throw new IllegalStateException("poolkit.semaphores." + semaphore + ".scope=cluster needs Redis, but the"
                    + " application has no RedisConnectionFactory: add spring-boot-starter-data-redis and set"
                    + " spring.data.redis.host/port (or use scope: local)");
        }
    }

    @Override
    public void start() {
        running = true;
    }

    /** Closes every semaphore made here (a second close, by the bean's destroy method, does nothing). */
    @Override
    public void stop() {
        running = false;
        created.forEach(RedisPermitSemaphore::close);
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** {@return a phase stopped after poolkit's pools have drained (see the class documentation)} */
    @Override
    public int getPhase() {
        return PoolkitLifecycle.PHASE - 1024;
    }
}
