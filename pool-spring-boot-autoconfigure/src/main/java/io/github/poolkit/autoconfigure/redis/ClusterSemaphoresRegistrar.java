package io.github.poolkit.autoconfigure.redis;

import io.github.poolkit.autoconfigure.NamedSemaphoreProperties;
import io.github.poolkit.autoconfigure.PoolkitProperties.Scope;
import io.github.poolkit.autoconfigure.TakenBeanNames;
import io.github.poolkit.redis.RedisPermitSemaphore;
import java.util.Map;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.EnvironmentAware;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;

/**
 * Registers one {@link RedisPermitSemaphore} bean definition per {@code poolkit.semaphores.<name>} with
 * {@code scope: cluster} (and not {@code enabled: false}); the key is the bean name. The keys are read with a
 * {@link Binder} from the environment, because bean definitions exist before any bean. Each definition names a
 * factory method ({@link ClusterSemaphoreFactory#create(String)} with the name as its argument) rather than an
 * instance supplier, so that Spring's AOT engine can turn it into code. A name already taken by another bean
 * definition is left to that bean (logged). The destroy method {@code close} stops renewing and closes the
 * connections; leases still held expire after the lease time.
 */
class ClusterSemaphoresRegistrar implements ImportBeanDefinitionRegistrar, EnvironmentAware {

    /** The bean name of the {@link ClusterSemaphoreFactory}. */
    static final String FACTORY = "poolkitClusterSemaphoreFactory";

    private static final Log logger = LogFactory.getLog(ClusterSemaphoresRegistrar.class);

    private Environment environment;

    @Override
    public void setEnvironment(Environment environment) {
        this.environment = environment;
    }

    @Override
    public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
        Map<String, NamedSemaphoreProperties> semaphores = Binder.get(environment)
                .bind("poolkit.semaphores", Bindable.mapOf(String.class, NamedSemaphoreProperties.class))
                .orElse(Map.of());
        semaphores.forEach((name, semaphore) -> {
            if (!semaphore.isEnabled() || semaphore.getScope() != Scope.CLUSTER) {
                return;
            }
            String takenBy = TakenBeanNames.takenBy(registry, name);
            if (takenBy != null) {
                logger.warn("poolkit.semaphores." + name + " is ignored: the name '" + name + "' is taken by "
                        + takenBy + ", which poolkit leaves alone; rename the key to get a cluster semaphore bean of"
                        + " that name");
                return;
            }
            RootBeanDefinition definition = new RootBeanDefinition(RedisPermitSemaphore.class);
            definition.setFactoryBeanName(FACTORY);
            definition.setFactoryMethodName("create");
            definition.getConstructorArgumentValues().addIndexedArgumentValue(0, name);
            definition.setDestroyMethodName("close");
            registry.registerBeanDefinition(name, definition);
        });
    }
}
