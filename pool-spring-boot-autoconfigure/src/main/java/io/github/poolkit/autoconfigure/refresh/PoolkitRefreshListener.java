package io.github.poolkit.autoconfigure.refresh;

import static io.github.poolkit.autoconfigure.PoolkitAutoConfiguration.WEIGHTED_SEMAPHORE;
import static io.github.poolkit.autoconfigure.PoolkitAutoConfiguration.WORKER_POOL;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.cloud.context.environment.EnvironmentChangeEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.core.env.Environment;

import io.github.poolkit.PermitSemaphore;
import io.github.poolkit.Pool;
import io.github.poolkit.PoolOptions;
import io.github.poolkit.autoconfigure.PoolTaskListeners;
import io.github.poolkit.autoconfigure.PoolkitKeys;
import io.github.poolkit.autoconfigure.SemaphoreListeners;
import io.github.poolkit.autoconfigure.actuate.InvalidSettingException;
import io.github.poolkit.autoconfigure.actuate.PoolkitBeans;
import io.github.poolkit.autoconfigure.actuate.SettingsChange;

/**
 * Applies changed {@code poolkit.*} keys in place when Spring Cloud reports them ({@link EnvironmentChangeEvent}:
 * a config-server refresh, a Kubernetes ConfigMap reload, {@code POST /actuator/refresh}).
 *
 * <p>Keys that can change live: a pool's {@code capacity} and the options its option table marks live
 * ({@link PoolOptions#OPTIONS}: {@code max-wait}, {@code max-blocking-tasks}, {@code nonblocking}), and a semaphore's
 * {@code size}. A key of {@code poolkit.pool} (or {@code poolkit.semaphore})
 * changes the primary bean and every named one that does not set that key itself, as at start-up. A value is read
 * as start-up reads it ({@code on}, {@code yes} and {@code 1} are true; a negative {@code max-wait} is refused). The
 * changes of one bean are checked together, with the same rules as the {@code pools} endpoint's writes; an invalid
 * value is logged as a WARN naming the key and the bean keeps its settings. Every other key (queue capacity, virtual
 * threads, pre-allocation, expiry, the scheduler's, ...) is logged as a WARN that names it and says a restart is
 * needed. A key
 * that was removed leaves the bean as it is, also with a WARN, and so does a key that no poolkit property binds (named
 * with the nearest one that does: with it, the next start-up would stop).
 *
 * <p>Only the beans poolkit created from these properties are changed; the application's own pools have no keys.
 */
public class PoolkitRefreshListener implements ApplicationListener<EnvironmentChangeEvent> {

    private static final Log logger = LogFactory.getLog(PoolkitRefreshListener.class);

    /** The keys a pool can change live, kebab-case, to the endpoint's field names (its capacity and live options). */
    private static final Map<String, String> POOL_FIELDS = SettingsChange.POOL_FIELDS.stream()
            .collect(Collectors.toMap(DataObjectPropertyName::toDashedForm, field -> field));

    /** The keys that can change live, kebab-case, by their uniform form (lower case, no dashes). */
    private static final Map<String, String> LIVE_LEAVES = Stream.concat(POOL_FIELDS.keySet().stream(),
            Stream.of("size")).collect(Collectors.toMap(leaf -> leaf.replace("-", ""), leaf -> leaf));

    private final Environment environment;
    private final PoolkitBeans beans;
    private final PoolTaskListeners poolListeners;
    private final SemaphoreListeners semaphoreListeners;
    private final PoolkitKeys keys = new PoolkitKeys();

    /**
     * Creates the listener.
     *
     * @param environment        where the new values are read
     * @param beans              the pools and semaphores
     * @param poolListeners      tells which pools poolkit created
     * @param semaphoreListeners tells which semaphores poolkit created
     */
    public PoolkitRefreshListener(Environment environment, PoolkitBeans beans, PoolTaskListeners poolListeners,
            SemaphoreListeners semaphoreListeners) {
        this.environment = environment;
        this.beans = beans;
        this.poolListeners = poolListeners;
        this.semaphoreListeners = semaphoreListeners;
    }

    @Override
    public void onApplicationEvent(EnvironmentChangeEvent event) {
        Binder binder = Binder.get(environment);
        Map<String, Changes> poolChanges = new TreeMap<>();
        Map<String, Changes> semaphoreChanges = new TreeMap<>();
        for (String key : event.getKeys()) {
            try {
                collect(key, binder, poolChanges, semaphoreChanges);
            }
            catch (RuntimeException ex) { // an unresolvable placeholder, say: this key only, never the whole refresh
                logger.warn("Property " + key + " could not be read and was ignored: " + ex.getMessage());
            }
        }
        Map<String, Pool> pools = beans.pools();
        poolChanges.forEach((bean, fields) -> apply(bean, fields, change -> change.applyTo(pools.get(bean))));
        Map<String, PermitSemaphore> semaphores = beans.semaphores();
        semaphoreChanges.forEach((bean, fields) -> apply(bean, fields,
                change -> change.applyTo(semaphores.get(bean))));
    }

    /** Adds what one changed key asks of the pools and semaphores poolkit made, or logs why it asks nothing. */
    private void collect(String key, Binder binder, Map<String, Changes> poolChanges,
            Map<String, Changes> semaphoreChanges) {
        PoolkitKey parsed = PoolkitKey.parse(key);
        if (parsed == null) {
            return;
        }
        String nearest = keys.nearestKnownKey(key);
        if (nearest != null) {
            logger.warn("Property " + key + " is not a poolkit property and was ignored (did you mean " + nearest
                    + "?); rename or remove it, or the next start-up stops on it");
            return;
        }
        String bean = null;
        if (parsed.name() != null) {
            Set<String> ofItsKind = parsed.kind().equals("pools") ? poolBeans() : semaphoreBeans();
            Set<String> ofTheOther = parsed.kind().equals("pools") ? semaphoreBeans() : poolBeans();
            bean = PoolkitKey.find(parsed.name(), ofItsKind);
            if (bean == null) {
                String other = PoolkitKey.find(parsed.name(), ofTheOther);
                logger.warn("Property " + key + " configures '" + parsed.name() + "', which "
                        + ((other != null) ? "is not a " + (parsed.kind().equals("pools") ? "pool" : "semaphore")
                                + "; change the key of its own kind" : "did not exist at start-up; restart the "
                                + "application to create it"));
                return;
            }
            if (bean.equals(WORKER_POOL) || bean.equals(WEIGHTED_SEMAPHORE)) { // as start-up, which stops on it
                String primaryKeys = bean.equals(WORKER_POOL) ? "poolkit.pool.*" : "poolkit.semaphore.*";
                logger.warn("Property " + key + " was ignored: '" + bean + "' is the bean name of one of poolkit's own"
                        + " beans, which " + primaryKeys + " configures; change that key instead, or the next start-up"
                        + " stops on this one");
                return;
            }
        }
        String value = binder.bind(ConfigurationPropertyName.adapt(key, '.'), Bindable.of(String.class))
                .orElse(null);
        if (value == null) {
            logger.warn("Property " + key + " was removed; the beans it configured keep their current value "
                    + "until a restart");
            return;
        }
        // blank is unset, as at start-up, where a named bean then takes poolkit.pool's (poolkit.semaphore's) value
        String primaryKey = (parsed.isPool() ? "poolkit.pool." : "poolkit.semaphore.") + parsed.leaf();
        boolean inherits = value.isBlank() && bean != null && isSet(binder, primaryKey);
        String source = inherits ? primaryKey : key;
        String text = inherits ? binder.bind(ConfigurationPropertyName.adapt(primaryKey, '.'),
                Bindable.of(String.class)).get() : value;
        if (parsed.isPool() && POOL_FIELDS.containsKey(parsed.leaf())) {
            String field = POOL_FIELDS.get(parsed.leaf());
            if (field.equals("capacity") && unlimited(binder, source)) {
                logger.warn("Property " + source + " changed to '" + text + "', an unlimited capacity, but a pool "
                        + "becomes unlimited only when it is created; restart the application to apply it");
                return;
            }
            Class<?> type = field.equals("capacity") ? Integer.class : PoolOptions.OPTIONS.stream()
                    .filter(option -> option.name().equals(field)).findFirst().orElseThrow().type();
            Changes.add(poolChanges, targets(binder, parsed.leaf(), bean, poolBeans(), WORKER_POOL, "poolkit.pools."),
                    field, source, text, () -> asStartUpBindsIt(binder, source, text, type));
        }
        else if (parsed.isSemaphore() && parsed.leaf().equals("size")) {
            Changes.add(semaphoreChanges, targets(binder, "size", bean, semaphoreBeans(), WEIGHTED_SEMAPHORE,
                    "poolkit.semaphores."), "size", source, text,
                    () -> asStartUpBindsIt(binder, source, text, Long.class));
        }
        else {
            logger.warn("Property " + key + " changed to '" + value + "' but cannot change while the application "
                    + "runs; restart the application to apply it");
        }
    }

    /**
     * @return whether the key binds, as start-up binds it, to a capacity of zero or less: a valid value, which makes
     *         the pool unlimited from the next start-up, but which no running pool can take
     */
    private static boolean unlimited(Binder binder, String key) {
        try {
            Integer capacity = binder.bind(ConfigurationPropertyName.adapt(key, '.'), Bindable.of(Integer.class))
                    .orElse(null);
            return capacity != null && capacity <= 0;
        }
        catch (BindException ex) {
            return false; // not a number: refused with the others
        }
    }

    /**
     * The value of a key bound to its type as start-up binds it (a boolean also as {@code on}, {@code yes} or
     * {@code 1}, a duration in any of Boot's formats), as the endpoint's text: so a refresh accepts what a restart
     * would, and refuses what it would refuse, such as a negative {@code max-wait}. A value start-up could not bind
     * either is passed on as it is, for the change to refuse with the endpoint's message.
     */
    private static String asStartUpBindsIt(Binder binder, String key, String value, Class<?> type) {
        Object bound;
        try {
            bound = binder.bind(ConfigurationPropertyName.adapt(key, '.'), Bindable.of(type)).orElse(null);
        }
        catch (BindException ex) {
            return value;
        }
        if (bound == null) {
            return value; // empty: unset, as at start-up (a duration of none)
        }
        if (bound instanceof Duration duration) {
            if (duration.isNegative()) {
                throw new IllegalArgumentException("'" + value + "' is negative: set it to 0 to fail at once, or"
                        + " remove it to wait without limit (from the next start-up)");
            }
            return duration.toString();
        }
        return String.valueOf(bound);
    }

    /**
     * The beans a key configures: the named one ({@code bean}), or, for a key of the primary's, the primary and every
     * named one that does not set the key itself (read under its name as start-up bound it, whatever its case).
     */
    private static Set<String> targets(Binder binder, String leaf, @Nullable String bean, Set<String> created,
            String primary, String namedPrefix) {
        if (bean != null) {
            return Set.of(bean);
        }
        Set<String> inheriting = new TreeSet<>();
        for (String named : created) {
            if (named.equals(primary) || !(isSet(binder, namedPrefix + named + "." + leaf)
                    || isSet(binder, namedPrefix.substring(0, namedPrefix.length() - 1) + "[" + named + "]." + leaf))) {
                inheriting.add(named);
            }
        }
        return inheriting;
    }

    /**
     * {@return whether a key is set} A named bean's key is asked for twice: with the name as is ({@code reportsPool},
     * as relaxed binding matches it) and in brackets (a name with dots of its own, {@code gpu.memory}). A blank value
     * is unset, as start-up binds it: the bean inherits.
     */
    private static boolean isSet(Binder binder, String key) {
        return binder.bind(ConfigurationPropertyName.adapt(key, '.'), Bindable.of(String.class))
                .map(value -> value.isBlank() ? null : value).isBound();
    }

    private Set<String> poolBeans() {
        Set<String> created = new TreeSet<>(beans.pools().keySet());
        created.removeIf(name -> !poolListeners.isReporting(name));
        return created;
    }

    private Set<String> semaphoreBeans() {
        Set<String> created = new TreeSet<>(beans.semaphores().keySet());
        created.removeIf(name -> !semaphoreListeners.isReporting(name));
        return created;
    }

    private static void apply(String bean, Changes changes, Consumer<SettingsChange> application) {
        Map<String, String> fields = changes.fields;
        if (!changes.problems.isEmpty()) {
            logger.warn("Could not apply " + fields + " to '" + bean + "' after a configuration refresh, nothing "
                    + "was changed: " + String.join("; ", changes.problems));
            return;
        }
        SettingsChange change = new SettingsChange(fields);
        try {
            application.accept(change);
            logger.info("Applied " + fields + " to '" + bean + "' after a configuration refresh");
        }
        catch (InvalidSettingException ex) {
            logger.warn("Could not apply " + fields + " to '" + bean + "' after a configuration refresh, nothing "
                    + "was changed: " + ex.getMessage());
        }
        catch (RuntimeException ex) { // a shared semaphore whose store does not answer, say: logged, never thrown
            logger.warn("Could not apply " + fields + " to '" + bean + "' after a configuration refresh; it may or "
                    + "may not have changed (check it at /actuator/pools/" + bean + "): " + ex, ex);
        }
    }

    /**
     * What a refresh asks of one bean: its fields as the endpoint names them, and the values among them that start-up
     * would refuse, for which the bean changes nothing at all (its changes are checked together).
     */
    private static final class Changes {

        private final Map<String, String> fields = new TreeMap<>();

        private final List<String> problems = new ArrayList<>();

        /** Adds one key's value to each of its targets: as start-up binds it, or as given with why it is refused. */
        static void add(Map<String, Changes> changes, Set<String> targets, String field, String key, String value,
                Supplier<String> bound) {
            String text = value;
            String problem = null;
            try {
                text = bound.get();
            }
            catch (IllegalArgumentException ex) {
                problem = key + ": " + ex.getMessage();
            }
            for (String target : targets) {
                Changes change = changes.computeIfAbsent(target, name -> new Changes());
                change.fields.put(field, text);
                if (problem != null) {
                    change.problems.add(problem);
                }
            }
        }
    }

    /**
     * A {@code poolkit.*} key, parsed.
     *
     * @param kind  {@code pool}, {@code pools}, {@code semaphore}, {@code semaphores} or anything else
     * @param name  the named bean for {@code pools}/{@code semaphores}, else {@code null}
     * @param leaf  the setting, kebab-case
     */
    record PoolkitKey(String kind, @Nullable String name, String leaf) {

        /**
         * Parses a key as Spring Boot reads it ({@link ConfigurationPropertyName#adapt}: any case, {@code _}, and
         * {@code [name]} for a map key), so that a named bean is found under the name start-up bound it with.
         */
        static @Nullable PoolkitKey parse(String key) {
            if (!key.regionMatches(true, 0, "poolkit.", 0, 8)) {
                return null;
            }
            ConfigurationPropertyName name = ConfigurationPropertyName.adapt(key, '.');
            int elements = name.getNumberOfElements();
            if (elements < 3) {
                return new PoolkitKey("", null, key.substring(8));
            }
            String kind = name.getElement(1, Form.UNIFORM);
            boolean named = kind.equals("pools") || kind.equals("semaphores");
            if (named && elements == 4) {
                String bean = name.getElement(2, Form.ORIGINAL);
                return new PoolkitKey(kind, bean, leaf(name, 3));
            }
            if (!named && elements == 3) {
                return new PoolkitKey(kind, null, leaf(name, 2));
            }
            return new PoolkitKey(named ? kind : "", null, key.substring(8)); // deeper: nothing changes live
        }

        /**
         * @return the setting an element names, kebab-case: a live one in whatever case and with or without dashes
         *         it was given (as start-up binds {@code CAPACITY} or {@code maxwait}), any other as given, dashed
         */
        private static String leaf(ConfigurationPropertyName name, int index) {
            return LIVE_LEAVES.getOrDefault(name.getElement(index, Form.UNIFORM),
                    DataObjectPropertyName.toDashedForm(name.getElement(index, Form.ORIGINAL)));
        }

        /**
         * @return the bean of {@code beans} that a key's name element means, as Spring Boot matches it (ignoring case
         *         and dashes), or {@code null}
         */
        static @Nullable String find(String element, Set<String> beans) {
            if (beans.contains(element)) {
                return element;
            }
            ConfigurationPropertyName wanted = ConfigurationPropertyName.adapt("x." + element, '.');
            for (String bean : beans) {
                if (ConfigurationPropertyName.adapt("x." + bean, '.').equals(wanted)) {
                    return bean;
                }
            }
            return null;
        }

        boolean isPool() {
            return kind.equals("pool") || (kind.equals("pools") && name != null);
        }

        boolean isSemaphore() {
            return kind.equals("semaphore") || (kind.equals("semaphores") && name != null);
        }
    }
}
