package io.github.poolkit.autoconfigure;

import java.util.List;
import java.util.function.Function;

import org.springframework.beans.factory.BeanClassLoaderAware;
import org.springframework.beans.factory.config.SingletonBeanRegistry;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * A place that runs {@link PoolkitConfigurationCheck}, given what it needs by Spring: the environment it checks and the
 * class loader that tells whether the pool-redis module is present. There are two: {@link NamedBeansRegistrar}, while
 * it registers the named beans, and {@link RunTimeConfigurationCheck}, in an application whose bean definitions were
 * made ahead of time (where the registrar ran at build time). Each check marks the bean factory, so that the
 * configuration is checked once per application context.
 */
abstract class ConfigurationChecker implements EnvironmentAware, BeanClassLoaderAware {

    /**
     * The mark: a singleton registered by hand. Such singletons are not part of what AOT processing generates, so an
     * application started from generated definitions lacks it.
     */
    private static final String CHECKED = ConfigurationChecker.class.getName() + ".checked";

    private Environment environment;
    private ClassLoader classLoader;

    @Override
    public void setEnvironment(Environment environment) {
        this.environment = environment;
    }

    @Override
    public void setBeanClassLoader(ClassLoader classLoader) {
        this.classLoader = classLoader;
    }

    /**
     * Checks the whole {@code poolkit.*} configuration and marks {@code beanFactory} as checked.
     *
     * @param beanFactory the bean factory (or registry) of the context being refreshed
     * @return the properties as bound, when nothing is wrong
     * @throws InvalidPoolkitPropertyException      if one property is wrong
     * @throws InvalidPoolkitConfigurationException if several are
     */
    final PoolkitProperties checkConfiguration(Object beanFactory) {
        return checkConfiguration(beanFactory, properties -> List.of());
    }

    /**
     * Checks the whole {@code poolkit.*} configuration, and what {@code more} finds in it, and marks
     * {@code beanFactory} as checked.
     *
     * @param beanFactory the bean factory (or registry) of the context being refreshed
     * @param more        further problems of the properties as bound, reported with the rest
     * @return the properties as bound, when nothing is wrong
     * @throws InvalidPoolkitPropertyException      if one property is wrong
     * @throws InvalidPoolkitConfigurationException if several are
     */
    final PoolkitProperties checkConfiguration(Object beanFactory,
            Function<PoolkitProperties, List<InvalidPoolkitPropertyException>> more) {
        PoolkitProperties properties = PoolkitConfigurationCheck.check(environment, classLoader, more);
        if (beanFactory instanceof SingletonBeanRegistry singletons && !singletons.containsSingleton(CHECKED)) {
            singletons.registerSingleton(CHECKED, new Checked()); // a type of its own: no getBeansOfType finds it
        }
        return properties;
    }

    /** {@return whether the pool-redis module, which cluster semaphores need, is present} */
    final boolean clusterSupported() {
        return ClassUtils.isPresent(NamedBeansRegistrar.CLUSTER_SEMAPHORE_CLASS, classLoader);
    }

    /** The mark's object, of a type nobody looks up. */
    private static final class Checked {
    }

    /** {@return whether the configuration of {@code beanFactory}'s context was checked already} */
    static boolean checked(SingletonBeanRegistry beanFactory) {
        return beanFactory.containsSingleton(CHECKED);
    }
}
