package io.github.poolkit.autoconfigure;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.config.ConstructorArgumentValues.ValueHolder;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.util.ClassUtils;

import io.github.poolkit.WeightedSemaphore;
import io.github.poolkit.WorkerPool;
import io.github.poolkit.autoconfigure.PoolkitProperties.Scope;

/**
 * Compares the named pools and semaphores an application was processed ahead of time with (their bean definitions,
 * made by {@link NamedBeansRegistrar} and pool-redis's registrar when {@code process-aot} ran), and its primary pool,
 * semaphore and scheduler (whose {@code enabled} switches are conditions, decided then), with the ones the
 * configuration it runs with asks for. The set of such beans is fixed at build time, so a difference is reported as a
 * problem, never followed silently: a named bean whose keys are gone or disabled would still be created (and fail
 * without its keys), and a name configured only at run time would have no bean.
 *
 * <p>A name configured at run time whose bean name the application's own bean definition takes is no problem: the
 * registrar leaves such a name to the application's bean at build time too.
 */
final class AheadOfTimeBeans {

    /** What a named bean is: the group of keys it comes from and what the messages call it. */
    private enum Kind {
        POOL("poolkit.pools", "pool"), SEMAPHORE("poolkit.semaphores", "semaphore"),
        CLUSTER_SEMAPHORE("poolkit.semaphores", "cluster semaphore");

        final String group;
        final String noun;

        Kind(String group, String noun) {
            this.group = group;
            this.noun = noun;
        }
    }

    /**
     * A primary bean, which {@link PoolkitAutoConfiguration} creates when its switch is on: a condition, decided when
     * process-aot ran.
     */
    private enum Primary {
        POOL(PoolkitAutoConfiguration.WORKER_POOL, "poolkit.pool.enabled", "pool"),
        SEMAPHORE(PoolkitAutoConfiguration.WEIGHTED_SEMAPHORE, "poolkit.semaphore.enabled", "semaphore"),
        SCHEDULER(PoolkitAutoConfiguration.DELAY_SCHEDULER, "poolkit.scheduler.enabled", "scheduler");

        final String bean;
        final String key;
        final String noun;

        Primary(String bean, String key, String noun) {
            this.bean = bean;
            this.key = key;
            this.noun = noun;
        }

        boolean enabled(PoolkitProperties properties) {
            return switch (this) {
                case POOL -> properties.getPool().isEnabled();
                case SEMAPHORE -> properties.getSemaphore().isEnabled();
                case SCHEDULER -> properties.getScheduler().isEnabled();
            };
        }
    }

    private AheadOfTimeBeans() {
    }

    /**
     * @param beanFactory     the bean factory, holding the definitions made ahead of time
     * @param properties      the run-time configuration, as bound
     * @param clusterSupported whether the pool-redis module is present (without it, a cluster semaphore is reported by
     *                        the configuration check already)
     * @return one problem per name whose bean and configuration differ
     */
    static List<InvalidPoolkitPropertyException> problems(ConfigurableListableBeanFactory beanFactory,
            PoolkitProperties properties, boolean clusterSupported) {
        Map<String, Kind> built = built(beanFactory);
        Map<String, Kind> configured = configured(properties, clusterSupported);
        List<InvalidPoolkitPropertyException> problems = new ArrayList<>();
        built.forEach((name, kind) -> {
            if (configured.get(name) != kind) {
                problems.add(changed(name, kind, properties));
            }
        });
        configured.forEach((name, kind) -> {
            if (!built.containsKey(name) && !takenByTheApplication(beanFactory, name)) {
                problems.add(added(name, kind));
            }
        });
        problems.addAll(PoolkitConfigurationCheck.poolkitsOwnNames(properties, name -> builtByPoolkit(beanFactory,
                name)));
        for (Primary primary : Primary.values()) {
            boolean made = builtByPoolkit(beanFactory, primary.bean);
            // not made although enabled: the application's own bean of that name (a definition, a singleton, or a
            // parent context's) took its place then, as it does now
            if (made != primary.enabled(properties) && (made || !beanFactory.containsBean(primary.bean))) {
                problems.add(switched(primary, made));
            }
        }
        return problems;
    }

    /** Whether the bean's definition is {@link PoolkitAutoConfiguration}'s (not the application's own bean). */
    private static boolean builtByPoolkit(ConfigurableListableBeanFactory beanFactory, String name) {
        return builtByPoolkit(n -> beanFactory.containsBeanDefinition(n) ? beanFactory.getBeanDefinition(n) : null,
                name);
    }

    /**
     * Tells whether a bean is one of poolkit's own (made by a method of {@link PoolkitAutoConfiguration}, whatever
     * bean name that class has), not the application's bean of that name.
     *
     * @param definitions the bean definitions by name, {@code null} for a name without one
     * @param name        a bean name
     * @return whether that name is defined by poolkit's auto-configuration
     */
    static boolean builtByPoolkit(Function<String, @Nullable BeanDefinition> definitions, String name) {
        BeanDefinition definition = definitions.apply(name);
        String factory = (definition != null) ? definition.getFactoryBeanName() : null;
        BeanDefinition factoryDefinition = (factory != null) ? definitions.apply(factory) : null;
        if (factoryDefinition == null) {
            return false;
        }
        // by name: an auto-configuration read from its bytecode (AutoConfiguration.imports) is not loaded yet when
        // the named beans are registered, so its definition has a class name but no resolvable type
        String className = factoryDefinition.getBeanClassName();
        String poolkits = PoolkitAutoConfiguration.class.getName();
        return (className != null && (className.equals(poolkits) || className.startsWith(poolkits + "$$")))
                || ClassUtils.getUserClass(factoryDefinition.getResolvableType().resolve(Object.class))
                        == PoolkitAutoConfiguration.class;
    }

    private static InvalidPoolkitPropertyException switched(Primary primary, boolean made) {
        String processed = "the application was processed ahead of time (AOT) " + (made ? "with" : "without")
                + " poolkit's primary " + primary.noun + " (the bean '" + primary.bean + "'), ";
        return made
                ? new InvalidPoolkitPropertyException(primary.key, false, processed + "which it creates whatever "
                        + primary.key + " says at run time", "leave " + primary.key + " as it was when process-aot"
                        + " ran (true or unset), or run process-aot again with " + primary.key + "=false")
                : new InvalidPoolkitPropertyException(primary.key, true, processed + "as " + primary.key + " was"
                        + " false then, so it has no such bean", "set " + primary.key + " to false as when process-aot"
                        + " ran, or run process-aot again with this configuration");
    }

    private static boolean takenByTheApplication(ConfigurableListableBeanFactory beanFactory, String name) {
        return beanFactory.containsBeanDefinition(name)
                || (beanFactory instanceof BeanDefinitionRegistry registry && registry.isAlias(name));
    }

    /** The named beans among the definitions: a poolkit factory's, with the bean name as the factory's argument. */
    private static Map<String, Kind> built(ConfigurableListableBeanFactory beanFactory) {
        Map<String, Kind> built = new LinkedHashMap<>();
        for (String name : beanFactory.getBeanDefinitionNames()) {
            BeanDefinition definition = beanFactory.getBeanDefinition(name);
            ValueHolder argument = definition.getConstructorArgumentValues().getIndexedArgumentValue(0, String.class);
            if (definition.getFactoryBeanName() == null || argument == null || !name.equals(argument.getValue())) {
                continue;
            }
            Class<?> type = definition.getResolvableType().resolve(Object.class);
            if (PoolkitFactory.BEAN_NAME.equals(definition.getFactoryBeanName())) {
                if (type == WorkerPool.class) {
                    built.put(name, Kind.POOL);
                }
                else if (type == WeightedSemaphore.class) {
                    built.put(name, Kind.SEMAPHORE);
                }
            }
            else if (type.getName().equals(NamedBeansRegistrar.CLUSTER_SEMAPHORE_CLASS)) {
                built.put(name, Kind.CLUSTER_SEMAPHORE);
            }
        }
        return built;
    }

    /** The named beans the run-time configuration asks for, as the registrars would register them. */
    private static Map<String, Kind> configured(PoolkitProperties properties, boolean clusterSupported) {
        Map<String, Kind> configured = new LinkedHashMap<>();
        properties.getPools().forEach((name, pool) -> {
            if (pool.isEnabled()) {
                configured.put(name, Kind.POOL);
            }
        });
        properties.getSemaphores().forEach((name, semaphore) -> {
            if (!semaphore.isEnabled() || properties.getPools().containsKey(name)) {
                return; // a name of a pool and a semaphore both is reported by the configuration check
            }
            if (semaphore.getScope() != Scope.CLUSTER) {
                configured.put(name, Kind.SEMAPHORE);
            }
            else if (clusterSupported) {
                configured.put(name, Kind.CLUSTER_SEMAPHORE);
            }
        });
        return configured;
    }

    private static InvalidPoolkitPropertyException changed(String name, Kind kind, PoolkitProperties properties) {
        String key = kind.group + "." + name;
        String built = "the application was processed ahead of time (AOT) with the " + kind.noun + " '" + name
                + "', whose bean it creates whatever the configuration it runs with says";
        String fix = "configure " + key + " as when process-aot ran, or run process-aot again with this"
                + " configuration: the named pools and semaphores are fixed then";
        if (kind == Kind.POOL) {
            PoolProperties pool = properties.getPools().get(name);
            return (pool == null) ? gone(key, name, built, fix)
                    : new InvalidPoolkitPropertyException(key + ".enabled", false, built + ", but here it is disabled",
                            fix);
        }
        NamedSemaphoreProperties semaphore = properties.getSemaphores().get(name);
        if (semaphore == null) {
            return gone(key, name, built, fix);
        }
        if (!semaphore.isEnabled()) {
            return new InvalidPoolkitPropertyException(key + ".enabled", false, built + ", but here it is disabled",
                    fix);
        }
        return new InvalidPoolkitPropertyException(key + ".scope", semaphore.getScope().name().toLowerCase(
                Locale.ROOT), built + ", but here its scope differs", fix);
    }

    private static InvalidPoolkitPropertyException gone(String key, String name, String built, String fix) {
        return new InvalidPoolkitPropertyException(key, name, built + ", but here no key under " + key + " is set",
                fix);
    }

    private static InvalidPoolkitPropertyException added(String name, Kind kind) {
        String key = kind.group + "." + name;
        return new InvalidPoolkitPropertyException(key, name, "the application was processed ahead of time (AOT)"
                + " without the " + kind.noun + " '" + name + "', so it has no such bean: the named pools and"
                + " semaphores are fixed when process-aot runs", "run process-aot again with this configuration, or"
                + " remove " + key);
    }
}
