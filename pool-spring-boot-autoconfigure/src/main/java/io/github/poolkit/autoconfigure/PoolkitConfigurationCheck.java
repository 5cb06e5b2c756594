package io.github.poolkit.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.AbstractBindHandler;
import org.springframework.boot.context.properties.bind.BindContext;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Bindable.BindRestriction;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

import io.github.poolkit.autoconfigure.PoolkitProperties.Algorithm;
import io.github.poolkit.autoconfigure.PoolkitProperties.Scope;
import io.github.poolkit.autoconfigure.redis.ClusterSemaphoreChecks;

/**
 * Checks the whole {@code poolkit.*} configuration once, before any bean definition of poolkit's exists, and stops
 * start-up with every problem at once: keys that no property binds ({@link PoolkitKeys}), values that cannot be
 * converted to their property's type, and values the beans could not be created with, by the same rules the beans
 * apply when they are created ({@link PoolSettings#problems}, {@link PoolkitFactory}'s checks, and
 * {@link ClusterSemaphoreChecks} when the pool-redis module is present). One problem is thrown
 * as an {@link InvalidPoolkitPropertyException}, several as an {@link InvalidPoolkitConfigurationException}.
 *
 * <p>Only the entries whose bean is enabled are checked for values that cannot be used (a disabled entry's values are
 * never used), but a named pool checks the values it inherits from {@code poolkit.pool}. Each property is reported
 * once, even when several pools inherit it. It runs while {@link NamedBeansRegistrar} registers the named beans, or,
 * in an application whose bean definitions were made ahead of time, from {@link RunTimeConfigurationCheck}; the beans
 * repeat their own checks when they are created.
 */
final class PoolkitConfigurationCheck {

    /** The switches {@link PoolkitAutoConfiguration}'s conditions read. */
    private static final List<String> CONDITION_SWITCHES = List.of("poolkit.pool.enabled",
            "poolkit.semaphore.enabled", "poolkit.scheduler.enabled");

    private PoolkitConfigurationCheck() {
    }

    /**
     * @param environment the application's environment
     * @param classLoader the class loader, to tell whether cluster semaphores are supported
     * @param more        further problems of the properties as bound, reported with the rest
     * @return the properties as bound, when nothing is wrong
     * @throws InvalidPoolkitPropertyException      if one property is wrong
     * @throws InvalidPoolkitConfigurationException if several are
     */
    static PoolkitProperties check(Environment environment, ClassLoader classLoader,
            Function<PoolkitProperties, List<InvalidPoolkitPropertyException>> more) {
        Map<String, InvalidPoolkitPropertyException> problems = new LinkedHashMap<>();
        new PoolkitKeys().unknownKeys(environment).forEach(problem -> add(problems, problem));
        switchProblems(environment).forEach(problem -> add(problems, problem));
        Binder binder = Binder.get(environment);
        // as Spring Boot binds the PoolkitProperties bean: a value of "poolkit" itself (POOLKIT=...) is no property
        PoolkitProperties properties = binder.bind(PoolkitKeys.PREFIX, Bindable.of(PoolkitProperties.class)
                .withBindRestrictions(BindRestriction.NO_DIRECT_PROPERTY), new Collecting(problems))
                .orElseGet(PoolkitProperties::new);
        boolean virtualThreadsByDefault = binder.bind("spring.threads.virtual.enabled", Boolean.class)
                .orElse(false);
        poolProblems(properties, virtualThreadsByDefault).forEach(problem -> add(problems, problem));
        idleBounds(properties).forEach(problem -> add(problems, problem));
        semaphoreProblems(properties, classLoader).forEach(problem -> add(problems, problem));
        if (properties.getScheduler().isEnabled()) {
            PoolkitFactory.schedulerProblems(properties).forEach(problem -> add(problems, problem));
        }
        more.apply(properties).forEach(problem -> add(problems, problem));
        InvalidPoolkitConfigurationException.throwIfAny(new ArrayList<>(problems.values()));
        return properties;
    }

    /**
     * The switches that decide at start-up whether the default pool, semaphore and scheduler exist are read by a
     * condition, which takes {@code true} (any case) as on and every other value as off, while binding takes
     * {@code yes}, {@code on} and {@code 1} as true too: a value other than {@code true} or {@code false} would turn
     * the bean off while the configuration reads as on, so it is reported.
     */
    private static List<InvalidPoolkitPropertyException> switchProblems(Environment environment) {
        List<InvalidPoolkitPropertyException> problems = new ArrayList<>();
        for (String key : CONDITION_SWITCHES) {
            String value = environment.getProperty(key);
            if (value != null && !value.equalsIgnoreCase("true") && !value.equalsIgnoreCase("false")) {
                problems.add(new InvalidPoolkitPropertyException(key, value, "this switch takes true or false only"
                        + " (it is read when the application starts, where any other value turns the bean off)",
                        "set " + key + " to true or false"));
            }
        }
        return problems;
    }

    private static void add(Map<String, InvalidPoolkitPropertyException> problems,
            InvalidPoolkitPropertyException problem) {
        problems.putIfAbsent(problem.getProperty(), problem);
    }

    private static List<InvalidPoolkitPropertyException> poolProblems(PoolkitProperties properties,
            boolean virtualThreadsByDefault) {
        List<InvalidPoolkitPropertyException> problems = new ArrayList<>();
        PoolProperties primary = properties.getPool();
        if (primary.isEnabled()) {
            problems.addAll(PoolSettings.primary(PoolkitAutoConfiguration.WORKER_POOL, primary)
                    .problems(virtualThreadsByDefault));
        }
        properties.getPools().forEach((name, pool) -> {
            if (pool.isEnabled()) {
                problems.addAll(PoolSettings.named(name, pool, primary).problems(virtualThreadsByDefault));
            }
        });
        return problems;
    }

    private static List<InvalidPoolkitPropertyException> semaphoreProblems(PoolkitProperties properties,
            ClassLoader classLoader) {
        List<InvalidPoolkitPropertyException> problems = new ArrayList<>();
        if (properties.getSemaphore().isEnabled()) {
            sizeProblems(problems, properties, null, properties.getSemaphore().getSize());
        }
        properties.getSemaphores().forEach((name, semaphore) -> {
            collect(problems, () -> checkUniqueName(properties, name));
            if (!semaphore.isEnabled()) {
                return;
            }
            if (semaphore.getScope() == Scope.CLUSTER) {
                if (ClassUtils.isPresent(NamedBeansRegistrar.CLUSTER_SEMAPHORE_CLASS, classLoader)) {
                    problems.addAll(ClusterSemaphoreChecks.problems(properties, name));
                }
                else {
                    problems.add(noClusterSupport(name));
                }
                collect(problems, () -> requireFixedSize(name, semaphore));
                return;
            }
            sizeProblems(problems, properties, name,
                    (semaphore.getSize() != null) ? semaphore.getSize() : properties.getSemaphore().getSize());
        });
        return problems;
    }

    /**
     * Adds the problems of a local semaphore's size and of its adaptive bounds. With a size that is itself at fault,
     * the bounds are checked without it (as if unlimited), so that a bound wrong whatever the size is still named
     * ({@code min: 0}) and none is blamed for the size's fault.
     */
    private static void sizeProblems(List<InvalidPoolkitPropertyException> problems, PoolkitProperties properties,
            @Nullable String name, long size) {
        int before = problems.size();
        collect(problems, () -> PoolkitFactory.checkSize(PoolkitFactory.sizeProperty(properties, name), size));
        long usable = (problems.size() == before) ? size : Long.MAX_VALUE;
        PoolkitFactory.semaphoreAdaptive(properties, name, usable, problems);
    }

    private static void collect(List<InvalidPoolkitPropertyException> problems, Runnable check) {
        try {
            check.run();
        }
        catch (InvalidPoolkitPropertyException ex) {
            problems.add(ex);
        }
    }

    /**
     * Adaptive bounds that no algorithm uses, which would be ignored without a word: set on an enabled entry without
     * an algorithm of its own or inherited, or on {@code poolkit.pool.adaptive} when some pool is enabled but none has
     * an algorithm (a named pool that sets one inherits them). Beside an explicit {@code none} they may stay
     * (checked by the entry).
     */
    private static List<InvalidPoolkitPropertyException> idleBounds(PoolkitProperties properties) {
        List<InvalidPoolkitPropertyException> problems = new ArrayList<>();
        PoolProperties primary = properties.getPool();
        boolean inherited = properties.getPools().values().stream()
                .anyMatch(pool -> pool.isEnabled() && pool.getAdaptive().getAlgorithm() != null);
        boolean anyPool = primary.isEnabled() || properties.getPools().values().stream()
                .anyMatch(PoolProperties::isEnabled);
        if (anyPool && !inherited) { // its enabled switch is never inherited, its bounds are: by the named pools
            idleBounds(problems, "poolkit.pool.adaptive.", primary.getAdaptive(), true);
        }
        if (primary.getAdaptive().getAlgorithm() == null) {
            properties.getPools().forEach((name, pool) -> {
                if (pool.isEnabled()) {
                    idleBounds(problems, "poolkit.pools." + name + ".adaptive.", pool.getAdaptive(), true);
                }
            });
        }
        if (properties.getSemaphore().isEnabled()) {
            idleBounds(problems, "poolkit.semaphore.adaptive.", properties.getSemaphore().getAdaptive(), true);
        }
        properties.getSemaphores().forEach((name, semaphore) -> {
            if (semaphore.isEnabled()) {
                idleBounds(problems, "poolkit.semaphores." + name + ".adaptive.", semaphore.getAdaptive(),
                        semaphore.getScope() != Scope.CLUSTER);
            }
        });
        return problems;
    }

    /** @param canAdapt whether an algorithm may be set there (a cluster semaphore cannot be adaptive) */
    private static void idleBounds(List<InvalidPoolkitPropertyException> problems, String prefix,
            AdaptiveProperties adaptive, boolean canAdapt) {
        if (adaptive.getAlgorithm() != null) {
            return;
        }
        Map<String, Integer> bounds = new LinkedHashMap<>();
        bounds.put("min", adaptive.getMin());
        bounds.put("max", adaptive.getMax());
        bounds.forEach((bound, value) -> {
            if (value != null) {
                String key = prefix + bound;
                problems.add(new InvalidPoolkitPropertyException(key, value, "an adaptive bound without an algorithm"
                        + " is ignored: the limit stays fixed", canAdapt ? "set " + prefix + "algorithm to gradient"
                        + " or aimd, or remove " + key : "remove " + key + " (a cluster semaphore's size cannot be"
                        + " adaptive)"));
            }
        });
    }

    /**
     * A named pool or semaphore (of any scope) under the name of one of poolkit's own beans would never be made (the
     * name is taken before named beans are registered): reported, naming the key and the keys of poolkit's beans. A
     * name the application's own bean takes is not reported here: that bean wins, with a WARN.
     *
     * @param properties the bound properties
     * @param poolkits   whether a bean name is one of poolkit's own beans
     * @return one problem per such key
     */
    static List<InvalidPoolkitPropertyException> poolkitsOwnNames(PoolkitProperties properties,
            Predicate<String> poolkits) {
        List<InvalidPoolkitPropertyException> problems = new ArrayList<>();
        BiConsumer<String, String> check = (group, name) -> {
            if (poolkits.test(name)) {
                problems.add(new InvalidPoolkitPropertyException(group + name, name, "'" + name + "' is the bean name"
                        + " of one of poolkit's own beans, so this one would never be made", "give it another name"
                        + " (poolkit.pool.*, poolkit.semaphore.* and poolkit.scheduler.* configure poolkit's primary"
                        + " pool, semaphore and scheduler)"));
            }
        };
        properties.getPools().forEach((name, pool) -> {
            if (pool.isEnabled()) {
                check.accept("poolkit.pools.", name);
            }
        });
        properties.getSemaphores().forEach((name, semaphore) -> {
            if (semaphore.isEnabled()) {
                check.accept("poolkit.semaphores.", name);
            }
        });
        return problems;
    }

    /** A pool and a semaphore of one name would be two beans of that name. */
    private static void checkUniqueName(PoolkitProperties properties, String name) {
        InvalidPoolkitPropertyException.check(!properties.getPools().containsKey(name), "poolkit.semaphores." + name,
                name, "poolkit.pools." + name + " configures a pool of the same name, and both would be beans named '"
                        + name + "'",
                "rename the pool or the semaphore: bean names must be unique");
    }

    /** A cluster semaphore does not collect the hold times an adaptive size follows. */
    private static void requireFixedSize(String name, NamedSemaphoreProperties semaphore) {
        String property = "poolkit.semaphores." + name + ".adaptive.algorithm";
        Algorithm algorithm = semaphore.getAdaptive().getAlgorithm();
        InvalidPoolkitPropertyException.check(algorithm == null || algorithm == Algorithm.NONE,
                property, (algorithm != null) ? algorithm.name().toLowerCase(Locale.ROOT) : null,
                "an adaptive size needs the hold times of every holder, which a cluster semaphore (scope: cluster)"
                        + " does not collect: only local semaphores can be adaptive",
                "remove " + property + " (or set it to none), or set poolkit.semaphores." + name
                        + ".scope to local");
    }

    private static InvalidPoolkitPropertyException noClusterSupport(String name) {
        String property = "poolkit.semaphores." + name + ".scope";
        return new InvalidPoolkitPropertyException(property, "cluster", "a cluster semaphore is shared through Redis by"
                + " poolkit's pool-redis module, which is not on the class path", "add the dependencies"
                + " io.github.poolkit:pool-redis and org.springframework.boot:spring-boot-starter-data-redis, or set "
                + property + " to local");
    }

    /**
     * Records a value that cannot be converted to its property's type and binds on without it, so that every such
     * value is found in one pass.
     */
    private static final class Collecting extends AbstractBindHandler {

        private final Map<String, InvalidPoolkitPropertyException> problems;

        Collecting(Map<String, InvalidPoolkitPropertyException> problems) {
            this.problems = problems;
        }

        @Override
        public Object onFailure(ConfigurationPropertyName name, Bindable<?> target, BindContext context,
                Exception error) throws Exception {
            ConfigurationProperty property = context.getConfigurationProperty();
            if (property == null) {
                // a value given to a group of keys: the binder tried the keys under it since, which forgot the value
                property = find(name, context);
            }
            if (property == null) {
                return super.onFailure(name, target, context, error);
            }
            Class<?> type = target.getType().resolve(Object.class);
            String key = name.toString();
            if (isGroup(type)) {
                // the property's own name: an empty group (YAML's "pool:" with nothing under it) fails its parent
                add(problems, PoolkitKeys.groupValue(property.getName().toString(), property));
            }
            else {
                add(problems, new InvalidPoolkitPropertyException(key, property.getValue(),
                        "cannot be converted to " + type.getSimpleName() + origin(property),
                        "set " + key + " to " + expected(type)));
            }
            return null;
        }

        private static ConfigurationProperty find(ConfigurationPropertyName name, BindContext context) {
            for (ConfigurationPropertySource source : context.getSources()) {
                ConfigurationProperty property = source.getConfigurationProperty(name);
                if (property != null) {
                    return property;
                }
            }
            return null;
        }

        /** Poolkit's own property classes and the maps of named entries hold keys, never a value. */
        private static boolean isGroup(Class<?> type) {
            return Map.class.isAssignableFrom(type) || (!type.isEnum()
                    && type.getPackageName().equals(PoolkitProperties.class.getPackageName()));
        }

        private static String origin(ConfigurationProperty property) {
            return (property.getOrigin() != null) ? " (set in " + property.getOrigin() + ")" : "";
        }

        private static String expected(Class<?> type) {
            if (type == Duration.class) {
                return "a duration such as 500ms or 30s";
            }
            if (type == Boolean.class || type == boolean.class) {
                return "true or false";
            }
            if (type.isEnum()) {
                return "one of " + Arrays.stream(type.getEnumConstants())
                        .map(constant -> constant.toString().toLowerCase(Locale.ROOT))
                        .collect(Collectors.joining(", "));
            }
            if (Number.class.isAssignableFrom(ClassUtils.resolvePrimitiveIfNecessary(type))) {
                return "a whole number such as 8";
            }
            return "a valid " + type.getSimpleName();
        }
    }
}
