package io.github.poolkit.autoconfigure;

import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.PriorityOrdered;

/**
 * Runs {@link PoolkitConfigurationCheck} in an application whose bean definitions were made ahead of time (Spring's
 * AOT processing, a native image), before any bean is created, so that such an application too stops start-up with
 * every problem of the configuration it runs with at once. There {@link NamedBeansRegistrar}, which runs the check in
 * a regular application while it registers the named beans, ran at build time against the build's configuration;
 * without this, the first poolkit bean to fail would report its own problem only, and an unknown key none.
 *
 * <p>It also reports the named pools and semaphores that the run-time configuration adds, removes or disables
 * compared with the build's ({@link AheadOfTimeBeans}): their bean definitions were made at build time.
 *
 * <p>In a regular application the registrar has already checked the same environment and marked the bean factory
 * ({@link ConfigurationChecker}), and this does nothing.
 */
final class RunTimeConfigurationCheck extends ConfigurationChecker implements BeanFactoryPostProcessor,
        PriorityOrdered {

    @Override
    public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
        if (!checked(beanFactory)) {
            checkConfiguration(beanFactory,
                    properties -> AheadOfTimeBeans.problems(beanFactory, properties, clusterSupported()));
        }
    }

    @Override
    public int getOrder() {
        return HIGHEST_PRECEDENCE;
    }
}
