package io.github.poolkit.autoconfigure.actuate;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

import io.github.poolkit.autoconfigure.AdaptiveSettings;
import org.springframework.boot.convert.DurationStyle;

import io.github.poolkit.InvalidOptionException;
import io.github.poolkit.PermitSemaphore;
import io.github.poolkit.Pool;
import io.github.poolkit.PoolOptions;

/**
 * A run-time change of a pool's or a semaphore's settings, as text (from an HTTP write or a refreshed property),
 * checked whole before anything changes.
 *
 * <p>A pool takes {@code capacity} (positive), {@code maxWait} (a duration such as {@code "200ms"} or {@code "2s"};
 * empty or {@code "-1"} for no limit, {@code "0"} to fail at once), {@code maxBlockingTasks} ({@code >= 0}, 0 for no
 * limit) and {@code nonblocking} ({@code true}/{@code false}); a semaphore takes {@code size} ({@code >= 0}). A field
 * left {@code null} keeps its value.
 *
 * <p>Rule: every value is parsed and the pool's new options are built (which applies {@link PoolOptions}' own checks)
 * before the first change, and the one call that can still refuse ({@link Pool#reconfigure}) comes before
 * {@link Pool#tune(int)}, which never fails; so an {@link InvalidSettingException} always means nothing changed.
 */
public final class SettingsChange {

    /** The fields a change of a pool may give. */
    static final List<String> POOL_FIELDS = List.of("capacity", "maxWait", "maxBlockingTasks", "nonblocking");

    /** The fields a change of a semaphore may give. */
    static final List<String> SEMAPHORE_FIELDS = List.of("size");

    private final Map<String, String> values = new LinkedHashMap<>();

    /**
     * Creates a change; a {@code null} field keeps its value.
     *
     * @param capacity         a pool's capacity, or {@code null}
     * @param maxWait          a pool's longest wait, or {@code null}
     * @param maxBlockingTasks a pool's limit of blocked callers, or {@code null}
     * @param nonblocking      whether a pool refuses at once, or {@code null}
     * @param size             a semaphore's size, or {@code null}
     */
    public SettingsChange(@Nullable String capacity, @Nullable String maxWait, @Nullable String maxBlockingTasks,
            @Nullable String nonblocking, @Nullable String size) {
        put("capacity", capacity);
        put("maxWait", maxWait);
        put("maxBlockingTasks", maxBlockingTasks);
        put("nonblocking", nonblocking);
        put("size", size);
    }

    private void put(String field, @Nullable String value) {
        if (value != null) {
            values.put(field, value.trim());
        }
    }

    /** @return the first field given, or {@code "capacity"} when none */
    String firstField() {
        return values.isEmpty() ? "capacity" : values.keySet().iterator().next();
    }

    /**
     * Applies the change to a pool.
     *
     * @param pool the pool
     * @throws InvalidSettingException when a value is invalid, {@code size} was given, nothing was given, or the
     *                                 pool cannot make the change live; nothing is changed then
     */
    public void applyTo(Pool pool) {
        if (values.containsKey("size")) {
            throw new InvalidSettingException("size", "a pool has no size; change its capacity instead");
        }
        if (values.isEmpty()) {
            throw new InvalidSettingException("capacity",
                    "nothing to change: give capacity, maxWait, maxBlockingTasks or nonblocking");
        }
        Integer capacity = parse("capacity", Integer::valueOf, "a whole number such as 16");
        if (capacity != null) {
            require(capacity > 0, "capacity", "must be positive, was " + capacity);
            require(pool.capacity() >= 0, "capacity", "the pool is unlimited, so its capacity cannot change; "
                    + "give it a capacity in its configuration and restart");
            require(!pool.options().preAlloc(), "capacity", "the pool pre-allocates its workers, so its capacity "
                    + "cannot change; turn pre-alloc off and restart to tune it");
            require(pool.options().adaptiveCapacity() == null, "capacity", "its limit is adaptive: the capacity "
                    + "follows the latency of its tasks; change its adaptive min and max in its configuration, or set"
                    + " adaptive.algorithm to none, and restart");
        }
        PoolOptions options = newOptions(pool.options());
        if (options != null) {
            reconfigure(pool, options);
        }
        if (capacity != null) {
            pool.tune(capacity);
        }
    }

    private @Nullable PoolOptions newOptions(PoolOptions current) {
        Duration maxWait = parse("maxWait", SettingsChange::duration, "a duration such as 200ms or 2s, or -1");
        Integer maxBlockingTasks = parse("maxBlockingTasks", Integer::valueOf, "a whole number such as 8");
        Boolean nonblocking = parse("nonblocking", SettingsChange::bool, "true or false");
        if (!values.containsKey("maxWait") && maxBlockingTasks == null && nonblocking == null) {
            return null;
        }
        try {
            PoolOptions.Builder builder = current.toBuilder();
            if (values.containsKey("maxWait")) {
                builder.maxWait(maxWait);
            }
            if (maxBlockingTasks != null) {
                require(maxBlockingTasks >= 0, "maxBlockingTasks",
                        "cannot be negative, was " + maxBlockingTasks + "; use 0 for no limit");
                builder.maxBlockingTasks(maxBlockingTasks);
            }
            if (nonblocking != null) {
                builder.nonblocking(nonblocking);
            }
            return builder.build();
        }
        catch (InvalidOptionException ex) {
            throw new InvalidSettingException(ex.option(), ex.getMessage());
        }
    }

    private void reconfigure(Pool pool, PoolOptions options) {
        try {
            pool.reconfigure(options);
        }
        catch (InvalidOptionException ex) {
            throw new InvalidSettingException(ex.option(), ex.getMessage());
        }
        catch (UnsupportedOperationException ex) {
            throw new InvalidSettingException(firstOptionField(),
                    "this pool cannot change its options while it runs (" + ex.getMessage() + "); restart instead");
        }
    }

    private String firstOptionField() {
        return values.keySet().stream().filter(field -> !field.equals("capacity")).findFirst().orElse("maxWait");
    }

    /**
     * Applies the change to a semaphore: its {@code size}.
     *
     * @param semaphore the semaphore
     * @throws InvalidSettingException when the size is missing or invalid, or a pool's field was given; nothing is
     *                                 changed then
     */
    public void applyTo(PermitSemaphore semaphore) {
        for (String field : values.keySet()) {
            require(field.equals("size"), field, "a semaphore has only a size to change");
        }
        Long size = parse("size", Long::valueOf, "a whole number of permits such as 64");
        require(size != null, "size", "nothing to change: give the semaphore's new size");
        require(AdaptiveSettings.of(semaphore) == null, "size", "its limit is adaptive: the size follows how long "
                + "its permits are held; change its adaptive min and max in its configuration, or set "
                + "adaptive.algorithm to none, and restart");
        require(size >= 0, "size", "cannot be negative, was " + size);
        try {
            semaphore.resize(size);
        }
        catch (UnsupportedOperationException ex) {
            throw new InvalidSettingException("size",
                    "this semaphore cannot change its size while it runs (" + ex.getMessage() + "); restart instead");
        }
        catch (IllegalArgumentException ex) {
            throw new InvalidSettingException("size", ex.getMessage());
        }
    }

    private <T> @Nullable T parse(String field, Function<String, T> parser, String expected) {
        String text = values.get(field);
        if (text == null) {
            return null;
        }
        try {
            return parser.apply(text);
        }
        catch (RuntimeException ex) {
            throw new InvalidSettingException(field, "'" + text + "' is not valid: expected " + expected);
        }
    }

    private static @Nullable Duration duration(String text) {
        if (text.isEmpty() || text.equals("-1")) {
            return null;
        }
        Duration duration = DurationStyle.detectAndParse(text);
        if (duration.isNegative()) {
            throw new IllegalArgumentException("negative");
        }
        return duration;
    }

    private static Boolean bool(String text) {
        if (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false")) {
            return Boolean.valueOf(text);
        }
        throw new IllegalArgumentException(text);
    }

    private static void require(boolean condition, String field, String detail) {
        if (!condition) {
            throw new InvalidSettingException(field, detail);
        }
    }
}
