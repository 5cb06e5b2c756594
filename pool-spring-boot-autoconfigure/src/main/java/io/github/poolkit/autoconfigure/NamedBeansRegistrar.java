package io.github.poolkit.autoconfigure;

import java.util.Map;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;

import io.github.poolkit.WeightedSemaphore;
import io.github.poolkit.WorkerPool;
import io.github.poolkit.autoconfigure.PoolkitProperties.Scope;

/**
 * Registers one bean per key of {@code poolkit.pools} ({@link WorkerPool}) and of {@code poolkit.semaphores}
 * ({@link WeightedSemaphore}), the key being the bean name. The keys are bound by {@link PoolkitConfigurationCheck}
 * straight from the {@link Environment}, because bean definitions must exist before any bean (and so before
 * {@link PoolkitProperties}) is created; the beans themselves are built later by {@link PoolkitFactory} from the bound
 * properties.
 *
 * <p>Each definition names a factory method of the {@link PoolkitFactory} bean with the key as its argument (never an
 * instance supplier), so that Spring's AOT engine can turn it into code; in an AOT-processed application the set of
 * named beans is therefore the one configured at build time, as with any other bean condition.
 *
 * <p>Before anything is registered, {@link PoolkitConfigurationCheck} checks the whole {@code poolkit.*} configuration
 * and stops start-up with every problem it finds (unknown keys, unconvertible or unusable values, a pool and a
 * semaphore of the same name, a cluster semaphore without the pool-redis module). An application started from
 * definitions made ahead of time skips this class and runs the same check through {@link RunTimeConfigurationCheck}.
 *
 * <p>An entry with {@code enabled: false} is skipped, and so is a name already taken by another bean definition (the
 * application's bean wins; logged at WARN, naming the key and the bean); one of poolkit's own beans' names is
 * reported by the check, which stops start-up. A semaphore of {@code scope: cluster} is left
 * to the pool-redis module's auto-configuration.
 *
 * <p>Pool beans get {@code release} as their destroy method instead of the inferred {@code close()}, which would wait
 * without a limit: {@link PoolkitLifecycle} has already released them with a timeout by then, and a second
 * {@code release()} is a no-op.
 */
class NamedBeansRegistrar extends ConfigurationChecker implements ImportBeanDefinitionRegistrar {

    /** The class that the pool-redis module brings; a cluster semaphore needs it. */
    static final String CLUSTER_SEMAPHORE_CLASS = "io.github.poolkit.redis.RedisPermitSemaphore";

    private static final Log logger = LogFactory.getLog(NamedBeansRegistrar.class);

    @Override
    public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
        PoolkitProperties properties = checkConfiguration(registry, bound -> PoolkitConfigurationCheck
                .poolkitsOwnNames(bound, name -> AheadOfTimeBeans.builtByPoolkit(
                        n -> registry.containsBeanDefinition(n) ? registry.getBeanDefinition(n) : null, name)));
        Map<String, PoolProperties> pools = properties.getPools();
        Map<String, NamedSemaphoreProperties> semaphores = properties.getSemaphores();
        pools.forEach((name, pool) -> {
            if (pool.isEnabled()) {
                register(registry, "poolkit.pools." + name, name, WorkerPool.class, "namedPool", "release");
            }
        });
        semaphores.forEach((name, semaphore) -> {
            if (!semaphore.isEnabled()) {
                return;
            }
            if (semaphore.getScope() == Scope.CLUSTER) {
                return; // registered by pool-redis's PoolkitRedisAutoConfiguration
            }
            register(registry, "poolkit.semaphores." + name, name, WeightedSemaphore.class, "namedSemaphore", "");
        });
    }

    private static void register(BeanDefinitionRegistry registry, String key, String name, Class<?> type,
            String factoryMethod, String destroyMethod) {
        String takenBy = TakenBeanNames.takenBy(registry, name);
        if (takenBy != null) {
            logger.warn(key + " is ignored: the name '" + name + "' is taken by " + takenBy + ", which poolkit leaves"
                    + " alone; rename the key to get a " + type.getSimpleName() + " bean of that name");
            return;
        }
        RootBeanDefinition definition = new RootBeanDefinition(type);
        definition.setFactoryBeanName(PoolkitFactory.BEAN_NAME);
        definition.setUniqueFactoryMethodName(factoryMethod);
        definition.getConstructorArgumentValues().addIndexedArgumentValue(0, name);
        definition.setDestroyMethodName(destroyMethod);
        registry.registerBeanDefinition(name, definition);
    }
}
