package io.github.poolkit.autoconfigure;

import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.WeakHashMap;

import org.jspecify.annotations.Nullable;

import io.github.poolkit.AdaptiveLimit;
import io.github.poolkit.Pool;
import io.github.poolkit.PoolOptions;
import io.github.poolkit.WeightedSemaphore;
import io.github.poolkit.autoconfigure.PoolkitProperties.Algorithm;

/**
 * The adaptive limit of a pool or semaphore, as its {@code adaptive.*} properties gave it: what the {@code pools}
 * endpoint shows beside the current capacity or size.
 *
 * <p>poolkit remembers the settings of each pool and semaphore it made adaptive ({@link #of(Object)}); the memory
 * holds its beans weakly, so a closed context's beans are not kept alive by it.
 *
 * @param algorithm {@code "gradient"} or {@code "aimd"}; {@code "custom"} for a limit an application set in code
 * @param min       the smallest the limit gets, or {@code null} when unknown (a custom limit)
 * @param max       the largest the limit gets, or {@code null} when unknown (a custom limit)
 */
public record AdaptiveSettings(String algorithm, @Nullable Integer min, @Nullable Integer max) {

    /** Settings of the beans poolkit made adaptive, by bean (identity: neither pools nor semaphores define equals). */
    private static final Map<Object, AdaptiveSettings> MADE = Collections.synchronizedMap(new WeakHashMap<>());

    /**
     * What the endpoint shows for a pool or semaphore whose limit an application set in code (a
     * {@link PoolCustomizer}, {@code WeightedSemaphore.adaptive}).
     */
    private static final AdaptiveSettings CUSTOM = new AdaptiveSettings("custom", null, null);

    /**
     * Reads a pool's or semaphore's adaptive settings.
     *
     * @param bean a pool or semaphore
     * @return its settings, or {@code null} when its limit is fixed
     */
    public static @Nullable AdaptiveSettings of(Object bean) {
        AdaptiveSettings settings = MADE.get(bean);
        if (settings == null && bean instanceof Pool pool) {
            PoolOptions options = ExposedOptions.of(pool);
            return (options != null && options.adaptiveCapacity() != null) ? CUSTOM : null;
        }
        if (settings == null && bean instanceof WeightedSemaphore semaphore && semaphore.isAdaptive()) {
            return CUSTOM; // WeightedSemaphore.adaptive(limit) in the application's code
        }
        return settings;
    }

    /** Remembers that poolkit made {@code bean} adaptive with these settings. */
    void rememberFor(Object bean) {
        MADE.put(bean, this);
    }

    /** @return a new limit with these settings */
    AdaptiveLimit toLimit() {
        return "aimd".equals(algorithm) ? AdaptiveLimit.aimd(min, max) : AdaptiveLimit.gradient(min, max);
    }

    /**
     * Checks the bounds of an adaptive limit, adding each bound at fault to {@code problems}: both, when a max below 1
     * could not serve any min.
     *
     * @param algorithm   the algorithm, {@code null} or {@code NONE} for a fixed limit (with {@code NONE}, the bounds
     *                    are still checked on their own)
     * @param min         {@code adaptive.min}, or {@code null} when unset (then 1)
     * @param minProperty where {@code min} was (or would be) set
     * @param max         {@code adaptive.max}, or {@code null} when unset (then {@code defaultMax})
     * @param maxProperty where {@code max} was (or would be) set
     * @param defaultMax  the max when unset: the pool's capacity or the semaphore's size
     * @param defaultWhat what {@code defaultMax} is, for the report, such as {@code "poolkit.pool.capacity"}
     * @param problems    where the problems found are added
     * @return the settings, or {@code null} for a fixed limit or when a bound is at fault
     */
    static @Nullable AdaptiveSettings resolve(@Nullable Algorithm algorithm, @Nullable Integer min, String minProperty,
            @Nullable Integer max, String maxProperty, long defaultMax, String defaultWhat,
            List<InvalidPoolkitPropertyException> problems) {
        if (algorithm == null) {
            return null; // bounds set without an algorithm anywhere are the start-up check's (they may be inherited)
        }
        int found = problems.size();
        int lower = (min != null) ? min : 1;
        if (lower < 1) {
            problems.add(new InvalidPoolkitPropertyException(minProperty, lower, "an adaptive limit's min must be at"
                    + " least 1", "set " + minProperty + " to 1 or more"));
        }
        int floor = Math.max(lower, 1); // what a max must reach, whatever a min at fault is changed to
        String maxProblem = (lower >= 1) ? "an adaptive limit's max must be at least its min (" + lower + ")"
                : "an adaptive limit's max must be at least 1";
        String maxFix = "set " + maxProperty + " to " + floor + " or more" + ((lower > 1) ? ", or lower " + minProperty
                : "");
        if (max != null && max < floor) {
            problems.add(new InvalidPoolkitPropertyException(maxProperty, max, maxProblem, maxFix));
        }
        if (algorithm == Algorithm.NONE) { // a pool opting out of what it inherits: the bounds may stay, if valid
            return null;
        }
        int upper = (max != null) ? max : (int) Math.min(Integer.MAX_VALUE, defaultMax);
        if (max == null && lower >= 1 && upper < lower) {
            problems.add(new InvalidPoolkitPropertyException(minProperty, lower, "an adaptive limit's min must not"
                    + " exceed its max, which is " + defaultWhat + " (" + defaultMax + ") while " + maxProperty
                    + " is unset", "lower " + minProperty + ", or set " + maxProperty + " to " + lower + " or more"));
        }
        return (problems.size() == found) ? new AdaptiveSettings(algorithm.name().toLowerCase(Locale.ROOT), lower,
                upper) : null;
    }
}
