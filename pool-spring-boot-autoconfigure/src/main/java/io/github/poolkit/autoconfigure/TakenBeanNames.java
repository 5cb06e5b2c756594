package io.github.poolkit.autoconfigure;

import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.HierarchicalBeanFactory;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.SingletonBeanRegistry;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;

/**
 * Tells whether a name that the configuration gives a named pool or semaphore is taken already, as
 * {@code @ConditionalOnMissingBean(name = ...)} tells it for the primary beans: by a bean definition or an alias, by a
 * singleton the application registered in code, or by a bean of a parent context. Such a bean is the application's
 * and poolkit leaves it alone; registering a definition over a singleton would destroy it, and a child context that
 * made its own would double the bound of the parent's. Public for the starter's own redis package only; not an API.
 */
public final class TakenBeanNames {

    private TakenBeanNames() {
    }

    /**
     * Tells what takes a bean name, if anything.
     *
     * @param registry where the named bean would be registered
     * @param name     the bean name
     * @return what takes the name, for a log line ({@code "the application's bean 'x' (...)"}), or {@code null} when
     *         it is free
     */
    public static @Nullable String takenBy(BeanDefinitionRegistry registry, String name) {
        if (registry.containsBeanDefinition(name)) {
            BeanDefinition existing = registry.getBeanDefinition(name);
            String description = existing.getResourceDescription();
            return "the application's bean '" + name + "' (" + ((description != null) ? description
                    : (existing.getBeanClassName() != null) ? existing.getBeanClassName() : "defined in code") + ")";
        }
        if (registry.isAlias(name)) {
            return "the application's bean '" + name + "' (an alias)";
        }
        if (registry instanceof SingletonBeanRegistry singletons && singletons.containsSingleton(name)) {
            return "the application's bean '" + name + "' (a singleton registered in code)";
        }
        BeanFactory parent = (registry instanceof HierarchicalBeanFactory hierarchical)
                ? hierarchical.getParentBeanFactory() : null;
        if (parent != null && parent.containsBean(name)) {
            return "the bean '" + name + "' of the parent context, which serves this context too";
        }
        return null;
    }
}
