package io.github.poolkit.autoconfigure;

import static io.github.poolkit.autoconfigure.InvalidPoolkitPropertyException.check;

import java.time.Duration;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.Function;

import io.github.poolkit.InvalidOptionException;
import io.github.poolkit.PoolOptions;
import io.github.poolkit.autoconfigure.PoolkitProperties.Pool;

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
 * <p>Immutable; reads its two {@link Pool}s, which are not changed after binding.
 */
final class PoolSettings {

    /** The prefix of the primary pool's keys, which named pools inherit. */
    static final String PRIMARY_PREFIX = "poolkit.pool";

    /** The capacity of a pool whose {@code capacity} is unset. */
    static final int DEFAULT_CAPACITY = 256;

    final String beanName;

    /** Where keys set on this entry live ({@code poolkit.pool} or {@code poolkit.pools.<name>}). */
    private final String prefix;
    private final Pool own;
    private final Pool primary;

    private PoolSettings(String beanName, String prefix, Pool own, Pool primary) {
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
    static PoolSettings primary(String beanName, Pool pool) {
        return new PoolSettings(beanName, PRIMARY_PREFIX, pool, pool);
    }

    /**
     * @param name    the key under {@code poolkit.pools}, which is also the bean name
     * @param own     {@code poolkit.pools.<name>}
     * @param primary {@code poolkit.pool}, for the keys {@code own} leaves unset
     * @return the named pool's settings
     */
    static PoolSettings named(String name, Pool own, Pool primary) {
        return new PoolSettings(name, "poolkit.pools." + name, own, primary);
    }

    /** @return the own value of a key, else the inherited one, else {@code null} (unset) */
    private <T> T value(Function<Pool, T> key) {
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
        Integer capacity = value(Pool::getCapacity);
        return (capacity != null) ? capacity : DEFAULT_CAPACITY;
    }

    /**
     * @return this pool's shutdown timeout, its own or inherited, or {@code null} when set on neither
     * @throws InvalidPoolkitPropertyException if it is negative
     */
    Duration shutdownTimeout() {
        Duration timeout = value(Pool::getShutdownTimeout);
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
        try {
            ifSet(value(Pool::getExpiry), options::expiry);
            ifSet(value(Pool::getNonblocking), options::nonblocking);
            ifSet(value(Pool::getMaxBlockingTasks), options::maxBlockingTasks);
            ifSet(value(Pool::getMaxWait), options::maxWait);
            ifSet(value(Pool::getPreAlloc), options::preAlloc);
            ifSet(value(Pool::getDisablePurge), options::disablePurge);
            ifSet(value(Pool::getQueueCapacity), options::queueCapacity);
            Boolean virtualThreads = value(Pool::getVirtualThreads);
            options.virtualThreads((virtualThreads != null) ? virtualThreads : virtualThreadsByDefault);
        }
        catch (InvalidOptionException ex) {
            throw translate(ex);
        }
        return overdueOptions(options);
    }

    /**
     * Sets the overdue keys ({@code run-timeout}, {@code queue-timeout}, {@code interrupt-overdue}) that are set: a
     * pool's own or inherited, the scheduler's from {@code poolkit.pool}.
     *
     * @param options the options to add them to
     * @return {@code options}
     */
    PoolOptions.Builder overdueOptions(PoolOptions.Builder options) {
        ifSet(value(Pool::getRunTimeout), options::runTimeout);
        ifSet(value(Pool::getQueueTimeout), options::queueTimeout);
        ifSet(value(Pool::getInterruptOverdue), options::interruptOverdue);
        return options;
    }

    /**
     * @param ex the core library's refusal of an option of this pool
     * @return the same refusal, naming the property the value came from
     */
    InvalidPoolkitPropertyException translate(InvalidOptionException ex) {
        String property = property(ex.option());
        // The message reads "<option> <problem>, was <value>: <fix>"; keep the problem, in the property's words.
        String message = ex.getMessage();
        String head = ex.option() + " ";
        String tail = ", was " + ex.value() + ": " + ex.fix();
        String problem = (message.startsWith(head) && message.endsWith(tail))
                ? kebab(ex.option()) + " " + message.substring(head.length(), message.length() - tail.length())
                : message;
        return new InvalidPoolkitPropertyException(property, ex.value(), problem,
                "change " + property + ": " + ex.fix());
    }

    /**
     * @param option an option as the core library's builder spells it, such as {@code queueCapacity}
     * @return the full property key its value came from, such as {@code poolkit.pools.reports.queue-capacity}
     */
    String property(String option) {
        String key = kebab(option);
        return (isSetOnOwn(key) ? prefix : PRIMARY_PREFIX) + "." + key;
    }

    private static String kebab(String option) {
        return option.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }

    private boolean isSetOnOwn(String key) {
        return switch (key) {
            case "capacity" -> own.getCapacity() != null;
            case "expiry" -> own.getExpiry() != null;
            case "nonblocking" -> own.getNonblocking() != null;
            case "max-blocking-tasks" -> own.getMaxBlockingTasks() != null;
            case "max-wait" -> own.getMaxWait() != null;
            case "pre-alloc" -> own.getPreAlloc() != null;
            case "disable-purge" -> own.getDisablePurge() != null;
            case "queue-capacity" -> own.getQueueCapacity() != null;
            case "virtual-threads" -> own.getVirtualThreads() != null;
            case "shutdown-timeout" -> own.getShutdownTimeout() != null;
            case "run-timeout" -> own.getRunTimeout() != null;
            case "queue-timeout" -> own.getQueueTimeout() != null;
            case "interrupt-overdue" -> own.getInterruptOverdue() != null;
            default -> true;
        };
    }
}
