package io.github.poolkit.autoconfigure;

import static io.github.poolkit.autoconfigure.InvalidPoolkitPropertyException.check;

import java.beans.PropertyDescriptor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.springframework.beans.BeanUtils;
import org.springframework.beans.BeanWrapper;
import org.springframework.beans.PropertyAccessorFactory;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;
import org.jspecify.annotations.Nullable;

import io.github.poolkit.InvalidOptionException;
import io.github.poolkit.PoolOption;
import io.github.poolkit.PoolOptions;
import io.github.poolkit.WorkerPool;

/**
 * The effective settings of one worker-pool bean: a named pool's own keys over {@code poolkit.pool}'s, and keys unset
 * in both left to the core library's defaults (only the starter's own default, {@link #DEFAULT_CAPACITY}, lives here;
 * an unset {@code shutdown-timeout} stays unset, see {@link PoolkitLifecycle#deadline()}).
 *
 * <p>The option rules are not restated here: the core library checks the options it is given and throws an
 * {@link InvalidOptionException} naming the option; {@link #translate} turns that into an
 * {@link InvalidPoolkitPropertyException} naming the property the value came from ({@code poolkit.pools.<name>.key}
 * when the named pool sets it, {@code poolkit.pool.key} when it inherits it).
 *
 * <p>Immutable; reads its two {@link PoolProperties}s, which are not changed after binding.
 */
final class PoolSettings {

    /** The prefix of the primary pool's keys, which named pools inherit. */
    static final String PRIMARY_PREFIX = "poolkit.pool";

    /** The capacity of a pool whose {@code capacity} is unset. */
    static final int DEFAULT_CAPACITY = 256;

    /** The properties of a pool (those named as an option of the core library bind it). */
    private static final Set<String> BOUND = Arrays.stream(BeanUtils.getPropertyDescriptors(PoolProperties.class))
            .filter(property -> property.getReadMethod() != null && property.getWriteMethod() != null)
            .map(PropertyDescriptor::getName)
            .collect(Collectors.toUnmodifiableSet());

    final String beanName;

    /** Where keys set on this entry live ({@code poolkit.pool} or {@code poolkit.pools.<name>}). */
    private final String prefix;
    private final PoolProperties own;
    private final PoolProperties primary;

    private PoolSettings(String beanName, String prefix, PoolProperties own, PoolProperties primary) {
        this.beanName = beanName;
        this.prefix = prefix;
        this.own = own;
        this.primary = primary;
    }

    /**
     * @param beanName the bean name of the primary pool
     * @param pool     {@code poolkit.pool}
     * @return the primary pool's settings
     */
    static PoolSettings primary(String beanName, PoolProperties pool) {
        return new PoolSettings(beanName, PRIMARY_PREFIX, pool, pool);
    }

    /**
     * @param name    the key under {@code poolkit.pools}, which is also the bean name
     * @param own     {@code poolkit.pools.<name>}
     * @param primary {@code poolkit.pool}, for the keys {@code own} leaves unset
     * @return the named pool's settings
     */
    static PoolSettings named(String name, PoolProperties own, PoolProperties primary) {
        return new PoolSettings(name, "poolkit.pools." + name, own, primary);
    }

    /**
     * @param beanName  the scheduler's bean name
     * @param scheduler {@code poolkit.scheduler}, whose overdue keys ({@code run-timeout}, {@code queue-timeout},
     *                  {@code interrupt-overdue}) override those of {@code poolkit.pool} key by key
     * @param pool      {@code poolkit.pool}, for the overdue keys the scheduler leaves unset
     * @return the settings the scheduler's {@link #overdueOptions} come from (its other keys are not a pool's)
     */
    static PoolSettings scheduler(String beanName, SchedulerProperties scheduler, PoolProperties pool) {
        PoolProperties own = new PoolProperties();
        own.setRunTimeout(scheduler.getRunTimeout());
        own.setQueueTimeout(scheduler.getQueueTimeout());
        own.setInterruptOverdue(scheduler.getInterruptOverdue());
        return new PoolSettings(beanName, "poolkit.scheduler", own, pool);
    }

    /** @return the own value of a key, else the inherited one, else {@code null} (unset) */
    private <T> T value(Function<PoolProperties, T> key) {
        T value = key.apply(own);
        return (value != null) ? value : key.apply(primary);
    }

    private static <T> void ifSet(T value, Consumer<T> setter) {
        if (value != null) {
            setter.accept(value);
        }
    }

    /** @return the capacity; zero or negative means unlimited */
    int capacity() {
        Integer capacity = value(PoolProperties::getCapacity);
        return (capacity != null) ? capacity : DEFAULT_CAPACITY;
    }

    /**
     * @return this pool's shutdown timeout, its own or inherited, or {@code null} when set on neither
     * @throws InvalidPoolkitPropertyException if it is negative
     */
    Duration shutdownTimeout() {
        Duration timeout = value(PoolProperties::getShutdownTimeout);
        if (timeout != null) {
            String property = property("shutdownTimeout");
            check(!timeout.isNegative(), property, timeout, "the shutdown timeout cannot be negative",
                    "set " + property + " to zero or a positive duration such as 30s, or leave it unset");
        }
        return timeout;
    }

    /**
     * @param virtualThreadsByDefault whether tasks run on virtual threads when {@code virtual-threads} is unset
     *                                (the value of {@code spring.threads.virtual.enabled})
     * @return a builder with the keys that are set and the bean name as the pool's name; the core library's
     *         defaults for the rest
     * @throws InvalidPoolkitPropertyException if the core library refuses a value
     */
    PoolOptions.Builder toOptions(boolean virtualThreadsByDefault) {
        PoolOptions.Builder options = PoolOptions.builder().name(beanName);
        adaptive(); // bounds first: InvalidPoolkitPropertyException naming the adaptive key
        try {
            apply(options, virtualThreadsByDefault, Set.of());
        }
        catch (InvalidOptionException ex) {
            throw translate(ex);
        }
        return options;
    }

    /**
     * Sets the overdue keys ({@code run-timeout}, {@code queue-timeout}, {@code interrupt-overdue}) that are set: a
     * pool's (or the scheduler's) own or inherited from {@code poolkit.pool}.
     *
     * @param options the options to add them to
     * @return {@code options}
     */
    PoolOptions.Builder overdueOptions(PoolOptions.Builder options) {
        ifSet(value(PoolProperties::getRunTimeout), options::runTimeout);
        ifSet(value(PoolProperties::getQueueTimeout), options::queueTimeout);
        ifSet(value(PoolProperties::getInterruptOverdue), options::interruptOverdue);
        return options;
    }

    /** Sets this pool's values of every option but {@code skipped} on {@code options}. */
    private void apply(PoolOptions.Builder options, boolean virtualThreadsByDefault, Set<String> skipped) {
        setters(virtualThreadsByDefault).forEach((option, setter) -> {
            if (!skipped.contains(option)) {
                setter.accept(options);
            }
        });
    }

    /**
     * Checks every value of this pool against the core library's rules, as {@link WorkerPool#create} will. The rules
     * stop at the first invalid option, so each one found is left out (at its default) and the rest checked again,
     * until they pass or the option at fault is none of this pool's keys; an option is never blamed alone for a
     * problem that another key resolves ({@code expiry} negative with {@code disable-purge}).
     *
     * @param virtualThreadsByDefault as for {@link #toOptions}
     * @return every problem found, each naming its property; empty when the pool can be created
     */
    List<InvalidPoolkitPropertyException> problems(boolean virtualThreadsByDefault) {
        List<InvalidPoolkitPropertyException> problems = new ArrayList<>();
        try {
            shutdownTimeout();
        }
        catch (InvalidPoolkitPropertyException ex) {
            problems.add(ex);
        }
        adaptive(problems);
        problems.addAll(optionProblems(virtualThreadsByDefault, Set.of(), capacity()));
        return problems;
    }

    /**
     * Checks the scheduler's overdue keys ({@link #overdueOptions}) as {@link #problems} checks a pool's options:
     * every one at fault is reported, not only the first.
     *
     * @param workers the scheduler's workers, as the capacity the options are checked with
     * @return every problem found, each naming its property; empty when the keys are valid
     */
    List<InvalidPoolkitPropertyException> overdueProblems(int workers) {
        Set<String> others = new HashSet<>(setters(false).keySet());
        others.removeAll(Set.of(PoolOptions.RUN_TIMEOUT.name(), PoolOptions.QUEUE_TIMEOUT.name(),
                PoolOptions.INTERRUPT_OVERDUE.name()));
        return optionProblems(false, others, workers);
    }

    /** The core library's refusals of this pool's options but {@code left}, one after another ({@link #problems}). */
    private List<InvalidPoolkitPropertyException> optionProblems(boolean virtualThreadsByDefault, Set<String> left,
            int capacity) {
        List<InvalidPoolkitPropertyException> problems = new ArrayList<>();
        Set<String> options = setters(virtualThreadsByDefault).keySet();
        Set<String> skipped = new HashSet<>(left);
        while (true) {
            InvalidOptionException refusal = refusal(virtualThreadsByDefault, skipped, capacity);
            if (refusal == null) {
                return problems;
            }
            problems.add(translate(refusal));
            String rule = ruleOf(refusal.option(), options);
            if (rule == null || !skipped.add(rule)) {
                return problems;
            }
        }
    }

    /**
     * @return the option to leave out so that the check goes on past {@code refused}: the option itself, or for
     *         {@code capacity} (no option, refused only as too large to pre-allocate for) {@code preAlloc}, whose rule
     *         it is; {@code null} for anything else, which ends the check
     */
    private static @Nullable String ruleOf(String refused, Set<String> options) {
        if (options.contains(refused)) {
            return refused;
        }
        return refused.equals("capacity") ? PoolOptions.PRE_ALLOC.name() : null;
    }

    /** @return the core library's refusal of this pool's options less {@code skipped}, or {@code null} */
    private InvalidOptionException refusal(boolean virtualThreadsByDefault, Set<String> skipped, int capacity) {
        PoolOptions.Builder options = PoolOptions.builder();
        try {
            apply(options, virtualThreadsByDefault, skipped);
            options.build().validate(capacity);
            return null;
        }
        catch (InvalidOptionException ex) {
            return ex;
        }
    }

    /**
     * @return one setter per option of the core library's option table that a property of the same name binds, by
     *         the option's name, each applying this pool's value (own or inherited) when it is set; plus
     *         {@code virtualThreads}, which follows {@code spring.threads.virtual.enabled} when unset, and
     *         {@code adaptiveCapacity}, built from the {@code adaptive} keys
     */
    private Map<String, Consumer<PoolOptions.Builder>> setters(boolean virtualThreadsByDefault) {
        Map<String, Consumer<PoolOptions.Builder>> setters = new LinkedHashMap<>();
        for (PoolOption<?> option : PoolOptions.OPTIONS) {
            if (option == PoolOptions.VIRTUAL_THREADS) {
                Object virtualThreads = value(pool -> read(pool, option.name()));
                setters.put(option.name(), options -> option.set(options,
                        (virtualThreads != null) ? virtualThreads : virtualThreadsByDefault));
            }
            else if (option == PoolOptions.ADAPTIVE_CAPACITY) {
                setters.put(option.name(), options -> ifSet(adaptiveOrNull(), a -> option.set(options, a.toLimit())));
            }
            else if (BOUND.contains(option.name())) {
                setters.put(option.name(), options -> ifSet(value(pool -> read(pool, option.name())),
                        value -> option.set(options, value)));
            }
        }
        return setters;
    }

    /** @return the value of a property of {@code pool} by its path ({@code maxWait}, {@code adaptive.min}), if any */
    private static @Nullable Object read(PoolProperties pool, String path) {
        BeanWrapper bean = PropertyAccessorFactory.forBeanPropertyAccess(pool);
        return bean.isReadableProperty(path) ? bean.getPropertyValue(path) : null;
    }

    /** {@link #adaptive()}, or {@code null} when its bounds are invalid (reported on their own, {@link #problems}). */
    private @Nullable AdaptiveSettings adaptiveOrNull() {
        try {
            return adaptive();
        }
        catch (InvalidPoolkitPropertyException ex) {
            return null;
        }
    }

    /**
     * @return the adaptive capacity's settings (own keys over {@code poolkit.pool.adaptive}'s; max defaults to the
     *         capacity), or {@code null} when the algorithm is unset or {@code none}
     * @throws InvalidPoolkitPropertyException if the bounds are invalid
     */
    @Nullable AdaptiveSettings adaptive() {
        List<InvalidPoolkitPropertyException> problems = new ArrayList<>();
        AdaptiveSettings settings = adaptive(problems);
        InvalidPoolkitPropertyException.throwFirst(problems);
        return settings;
    }

    /** As {@link #adaptive()}, adding every bound at fault to {@code problems} (then {@code null}). */
    private @Nullable AdaptiveSettings adaptive(List<InvalidPoolkitPropertyException> problems) {
        Integer capacity = value(PoolProperties::getCapacity);
        Integer max = value(p -> p.getAdaptive().getMax());
        return AdaptiveSettings.resolve(value(p -> p.getAdaptive().getAlgorithm()),
                value(p -> p.getAdaptive().getMin()), property("adaptive.min"),
                max, (max != null) ? property("adaptive.max") : prefix + ".adaptive.max",
                (capacity() > 0) ? capacity() : DEFAULT_CAPACITY,
                (capacity != null) ? "the capacity, " + property("capacity") : "the default capacity", problems);
    }

    /**
     * @param ex the core library's refusal of an option of this pool
     * @return the same refusal, naming the property the value came from; where the fix involves another key (an
     *         adaptive capacity needs a bounded capacity without pre-alloc, interrupt-overdue needs a run-timeout),
     *         the fix names that key too, in the configuration's terms rather than the builder's
     */
    InvalidPoolkitPropertyException translate(InvalidOptionException ex) {
        boolean adaptive = ex.option().equals(PoolOptions.ADAPTIVE_CAPACITY.name()); // set by the adaptive keys
        String path = adaptive ? "adaptive.algorithm" : ex.option();
        String property = property(path);
        String problem = DataObjectPropertyName.toDashedForm(path) + " " + ex.problem();
        if (adaptive) {
            PoolkitProperties.Algorithm algorithm = value(p -> p.getAdaptive().getAlgorithm());
            String other = (capacity() <= 0) ? "set " + property("capacity") + " to a positive number"
                    : "set " + property("preAlloc") + " to false";
            return new InvalidPoolkitPropertyException(property,
                    (algorithm != null) ? algorithm.name().toLowerCase(Locale.ROOT) : null, problem,
                    other + ", or set " + property + " to none");
        }
        if (ex.option().equals(PoolOptions.INTERRUPT_OVERDUE.name())) {
            String runTimeout = property.substring(0, property.lastIndexOf('.')) + ".run-timeout";
            return new InvalidPoolkitPropertyException(property, ex.value(), problem,
                    "set " + runTimeout + " (such as 30s), or set " + property + " to false");
        }
        return new InvalidPoolkitPropertyException(property, ex.value(), problem,
                "change " + property + ": " + configurationFix(ex, property));
    }

    /**
     * The core library words its fixes for its builder ({@code preAlloc(false)}, {@code Duration.ZERO},
     * {@code null}); a configuration has keys and values instead, and no {@code null}: an unset key is the off value.
     *
     * @param ex       the core library's refusal of an option of this pool
     * @param property the key the refused value came from
     * @return the fix in the configuration's terms, the other keys it names beside {@code property}
     */
    private String configurationFix(InvalidOptionException ex, String property) {
        String beside = property.substring(0, property.lastIndexOf('.') + 1);
        return switch (ex.option()) {
            case "maxWait" -> "set it to 0 to fail at once, or remove it to wait without limit";
            case "runTimeout", "queueTimeout" -> "set it to a positive duration such as 30s, or remove it to "
                    + (inherits(ex.option(), property) ? "inherit " + PRIMARY_PREFIX + "."
                    + DataObjectPropertyName.toDashedForm(ex.option())
                    + " (a timeout set there cannot be turned off for one pool)" : "turn it off");
            case "expiry" -> "set it to a positive duration (0 means the default, 1s), or set "
                    + other("disablePurge", beside) + " to true";
            case "preAlloc" -> (capacity() <= 0)
                    ? "set " + other("capacity", beside) + " to a positive number, or set it to false"
                    : "set it to false, or set " + other("virtualThreads", beside) + " to false";
            case "capacity" -> "set it to at most " + PoolOptions.MAX_PREALLOC_CAPACITY + ", or set "
                    + other("preAlloc", beside) + " to false";
            default -> ex.fix();
        };
    }

    /**
     * @param path   the other option a fix names
     * @param beside the prefix of the key the refused value came from, such as {@code poolkit.pool.}
     * @return the key that sets that option for this pool: its own when set there (it wins over
     *         {@code poolkit.pool}'s), else {@code poolkit.pool}'s when set there, else the one beside the refused key
     */
    private String other(String path, String beside) {
        BeanWrapper bean = PropertyAccessorFactory.forBeanPropertyAccess(own);
        if (bean.getPropertyValue(path) != null) {
            return prefix + "." + DataObjectPropertyName.toDashedForm(path);
        }
        boolean setOnPrimary = PropertyAccessorFactory.forBeanPropertyAccess(primary).getPropertyValue(path) != null;
        return (setOnPrimary ? PRIMARY_PREFIX + "." : beside) + DataObjectPropertyName.toDashedForm(path);
    }

    /** @return whether {@code property}, a key of this pool's own, would inherit a value once removed */
    private boolean inherits(String path, String property) {
        return !property.startsWith(PRIMARY_PREFIX + ".")
                && PropertyAccessorFactory.forBeanPropertyAccess(primary).getPropertyValue(path) != null;
    }

    /**
     * @param path a property of a pool, such as {@code queueCapacity} (as the core library's builder spells an
     *             option) or {@code adaptive.min}
     * @return the full property key its value came from, such as {@code poolkit.pools.reports.queue-capacity}
     */
    String property(String path) {
        BeanWrapper bean = PropertyAccessorFactory.forBeanPropertyAccess(own);
        boolean setOnOwn = !bean.isReadableProperty(path) || bean.getPropertyValue(path) != null;
        return (setOnOwn ? prefix : PRIMARY_PREFIX) + "." + DataObjectPropertyName.toDashedForm(path);
    }
}
