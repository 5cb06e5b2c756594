package io.github.poolkit.autoconfigure;

import org.springframework.beans.factory.BeanClassLoaderAware;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.config.SingletonBeanRegistry;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.PriorityOrdered;
import org.springframework.core.env.Environment;

/**
 * Runs {@link PoolkitConfigurationCheck} in an application whose bean definitions were made ahead of time (Spring's
 * AOT processing, a native image), before any bean is created, so that such an application too stops start-up with
 * every problem of the configuration it runs with at once. There {@link NamedBeansRegistrar}, which runs the check in
 * a regular application while it registers the named beans, ran at build time against the build's configuration;
 * without this, the first poolkit bean to fail would report its own problem only, and an unknown key none.
 *
 * <p>In a regular application the registrar has already checked the same environment (it marks the bean factory,
 * {@link #markChecked}) and this does nothing.
 */
final class RunTimeConfigurationCheck implements BeanFactoryPostProcessor, PriorityOrdered, EnvironmentAware,
        BeanClassLoaderAware {

    /**
     * A singleton the registrar leaves in the bean factory it registered into. Singletons registered by hand are not
     * part of what AOT processing generates, so an application started from generated definitions lacks it.
     */
    private static final String CHECKED = RunTimeConfigurationCheck.class.getName() + ".checked";

    private Environment environment;
    private ClassLoader classLoader;

    /** Records that the configuration of the bean factory behind {@code registry} has been checked. */
    static void markChecked(Object registry) {
        if (registry instanceof SingletonBeanRegistry singletons && !singletons.containsSingleton(CHECKED)) {
            singletons.registerSingleton(CHECKED, Boolean.TRUE);
        }
    }

    @Override
    public void setEnvironment(Environment environment) {
        this.environment = environment;
    }

    @Override
    public void setBeanClassLoader(ClassLoader classLoader) {
        this.classLoader = classLoader;
    }

    @Override
    public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
        if (!beanFactory.containsSingleton(CHECKED)) {
            PoolkitConfigurationCheck.check(environment, classLoader);
            markChecked(beanFactory);
        }
    }

    @Override
    public int getOrder() {
        return HIGHEST_PRECEDENCE;
    }
}
