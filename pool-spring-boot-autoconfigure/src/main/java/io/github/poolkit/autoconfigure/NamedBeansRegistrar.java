package io.github.poolkit.autoconfigure;

import java.util.Map;
import java.util.function.Function;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.EnvironmentAware;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;

import io.github.poolkit.WeightedSemaphore;
import io.github.poolkit.WorkerPool;
import io.github.poolkit.autoconfigure.PoolkitProperties.NamedPool;
import io.github.poolkit.autoconfigure.PoolkitProperties.NamedSemaphore;

/**
 * Registers one bean per key of {@code poolkit.pools} ({@link WorkerPool}) and of {@code poolkit.semaphores}
 * ({@link WeightedSemaphore}), the key being the bean name. The keys are read with a {@link Binder} straight from the
 * {@link Environment}, because bean definitions must exist before any bean (and so before {@link PoolkitProperties})
 * is created; the beans themselves are built later by {@link PoolkitFactory} from the bound properties.
 *
 * <p>An entry with {@code enabled: false} is skipped, and so is a name already taken by another bean definition (the
 * user's bean wins; this is logged). A pool and a semaphore of the same name stop start-up with an
 * {@link InvalidPoolkitPropertyException}.
 *
 * <p>Pool beans get {@code release} as their destroy method instead of the inferred {@code close()}, which would
 * wait without a limit: {@link PoolkitLifecycle} has already released them with a timeout by then, and a second
 * {@code release()} is a no-op.
 */
class NamedBeansRegistrar implements ImportBeanDefinitionRegistrar, EnvironmentAware, BeanFactoryAware {

    private static final Log logger = LogFactory.getLog(NamedBeansRegistrar.class);

    private Environment environment;
    private BeanFactory beanFactory;

    @Override
    public void setEnvironment(Environment environment) {
        this.environment = environment;
    }

    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
        this.beanFactory = beanFactory;
    }

    @Override
    public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
        Binder binder = Binder.get(environment);
        Map<String, NamedPool> pools = binder.bind("poolkit.pools", Bindable.mapOf(String.class, NamedPool.class))
                .orElse(Map.of());
        Map<String, NamedSemaphore> semaphores = binder
                .bind("poolkit.semaphores", Bindable.mapOf(String.class, NamedSemaphore.class))
                .orElse(Map.of());
        for (String name : semaphores.keySet()) {
            InvalidPoolkitPropertyException.check(!pools.containsKey(name), "poolkit.semaphores." + name, name,
                    "poolkit.pools." + name + " configures a pool of the same name, and both would be beans named '"
                            + name + "'",
                    "rename the pool or the semaphore: bean names must be unique");
        }
        pools.forEach((name, pool) -> {
            if (pool.isEnabled()) {
                register(registry, name, WorkerPool.class, factory -> factory.namedPool(name), "release");
            }
        });
        semaphores.forEach((name, semaphore) -> {
            // scope: cluster entries are registered by PoolkitRedisAutoConfiguration
            if (semaphore.isEnabled() && semaphore.getScope() != PoolkitProperties.Scope.CLUSTER) {
                register(registry, name, WeightedSemaphore.class, factory -> factory.namedSemaphore(name), "");
            }
        });
    }

    private <T> void register(BeanDefinitionRegistry registry, String name, Class<T> type,
            Function<PoolkitFactory, T> create, String destroyMethod) {
        if (registry.containsBeanDefinition(name) || registry.isAlias(name)) {
            logger.info("Bean '" + name + "' is already defined; poolkit leaves it alone and ignores the "
                    + type.getSimpleName() + " configured for that name");
            return;
        }
        RootBeanDefinition definition = new RootBeanDefinition(type,
                () -> create.apply(beanFactory.getBean(PoolkitFactory.class)));
        definition.setDestroyMethodName(destroyMethod);
        registry.registerBeanDefinition(name, definition);
    }
}
