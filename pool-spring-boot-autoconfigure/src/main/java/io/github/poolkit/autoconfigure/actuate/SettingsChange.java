package io.github.poolkit.autoconfigure.actuate;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

import io.github.poolkit.autoconfigure.AdaptiveSettings;
import org.springframework.boot.convert.DurationStyle;

import io.github.poolkit.InvalidOptionException;
import io.github.poolkit.PermitSemaphore;
import io.github.poolkit.Pool;
import io.github.poolkit.PoolOption;
import io.github.poolkit.PoolOptions;
import io.github.poolkit.autoconfigure.ExposedOptions;

/**
 * A run-time change of a pool's or a semaphore's settings, as text (from an HTTP write or a refreshed property),
 * checked whole before anything changes.
 *
 * <p>A pool takes {@code capacity} (positive) and each option its option table ({@link PoolOptions#OPTIONS}) marks
 * live, parsed by the option's type: a duration such as {@code "200ms"} or {@code "2s"} (empty or {@code "-1"} for
 * none, {@code "0"} to fail at once), a whole number, or {@code true}/{@code false}; the option's own rules apply. A
 * semaphore takes {@code size} ({@code >= 0}). A field left out keeps its value.
 *
 * <p>Rule: every value is parsed and the pool's new options are built (which applies {@link PoolOptions}' own checks)
 * before the first change, and {@link Pool#reconfigure} comes before {@link Pool#tune(int)}, which never fails on
 * poolkit's pools; a pool of the application's own whose {@code tune} refuses has its options put back; so an
 * {@link InvalidSettingException} always means nothing changed.
 */
public final class SettingsChange {

    /** The fields a change of a pool may give: its capacity, then its live options in the option table's order. */
    public static final List<String> POOL_FIELDS = Stream.concat(Stream.of("capacity"),
            PoolOptions.OPTIONS.stream().filter(PoolOption::live).map(PoolOption::name)).toList();

    /** The fields a change of a semaphore may give. */
    static final List<String> SEMAPHORE_FIELDS = List.of("size");

    private final WriteValues values;

    /**
     * Creates a change; a field that is absent or {@code null} keeps its value.
     *
     * @param fields the new values by field name ({@link #POOL_FIELDS}, {@code size}); other fields are ignored here
     *               (the endpoint refuses them before)
     */
    public SettingsChange(Map<String, ? extends @Nullable String> fields) {
        this.values = new WriteValues(fields, Stream.concat(POOL_FIELDS.stream(), SEMAPHORE_FIELDS.stream()).toList());
    }

    /** @return the first field given, or {@code "capacity"} when none */
    String firstField() {
        return values.fields().isEmpty() ? "capacity" : values.fields().iterator().next();
    }

    /**
     * Applies the change to a pool, atomically with respect to every other change of that pool made here (the
     * endpoint and a configuration refresh at the same moment both keep their fields).
     *
     * @param pool the pool
     * @throws InvalidSettingException when a value is invalid, {@code size} was given, nothing was given, or the
     *                                 pool cannot make the change live; nothing is changed then
     */
    public void applyTo(Pool pool) {
        if (values.fields().contains("size")) {
            throw new InvalidSettingException("size", "a pool has no size; change its capacity instead");
        }
        if (values.fields().isEmpty()) {
            throw new InvalidSettingException("capacity", "nothing to change: give "
                    + String.join(", ", POOL_FIELDS.subList(0, POOL_FIELDS.size() - 1)) + " or "
                    + POOL_FIELDS.get(POOL_FIELDS.size() - 1));
        }
        // Invariant: one change of a pool at a time, whoever makes it (the endpoint, a configuration refresh). Each
        // reads the pool's options, sets its own fields and writes all of them back: two at once would let the later
        // write undo the earlier one's fields. The pool's own methods never lock on it, so no lock order can invert.
        synchronized (pool) {
            applyLocked(pool);
        }
    }

    private void applyLocked(Pool pool) {
        Integer capacity = values.parse("capacity", Integer::valueOf, "a whole number such as 16");
        PoolOptions current = ExposedOptions.of(pool); // null: a pool of the application's own, which tunes as it can
        if (capacity != null) {
            require(capacity > 0, "capacity", "must be positive, was " + capacity);
            require(pool.capacity() >= 0, "capacity", "the pool is unlimited, so its capacity cannot change; "
                    + "give it a capacity in its configuration and restart");
            require(current == null || !current.preAlloc(), "capacity", "the pool's capacity is fixed (pre-alloc), so"
                    + " it cannot change; turn pre-alloc off and restart to tune it");
            require(current == null || current.adaptiveCapacity() == null, "capacity", "its limit is adaptive: the"
                    + " capacity follows the latency of its tasks; change its adaptive min and max in its"
                    + " configuration, or set adaptive.algorithm to none, and restart");
        }
        PoolOptions options = newOptions(current);
        if (options != null) {
            reconfigure(pool, options);
        }
        if (capacity != null) {
            try {
                tune(pool, capacity);
            }
            catch (InvalidSettingException ex) {
                if (options != null && current != null) {
                    pool.reconfigure(current); // a refused write changes nothing: put the options back
                }
                throw ex;
            }
        }
    }

    /** Tunes a pool; one of the application's own may refuse the value, or refuse to change at run time at all. */
    private static void tune(Pool pool, int capacity) {
        try {
            pool.tune(capacity);
        }
        catch (UnsupportedOperationException ex) {
            throw new InvalidSettingException("capacity",
                    "this pool cannot change its capacity while it runs (" + ex.getMessage() + "); restart instead");
        }
        catch (IllegalArgumentException ex) {
            throw new InvalidSettingException("capacity", "the pool refused " + capacity + ": " + ex.getMessage());
        }
    }

    /**
     * @param current the pool's options, {@code null} when it does not expose them
     * @return the pool's options with the live options given here, each parsed by its type; {@code null}: none
     */
    private @Nullable PoolOptions newOptions(@Nullable PoolOptions current) {
        Map<PoolOption<?>, @Nullable Object> changed = new LinkedHashMap<>();
        for (PoolOption<?> option : PoolOptions.OPTIONS) {
            if (option.live() && values.fields().contains(option.name())) {
                changed.put(option, parse(option));
            }
        }
        if (changed.isEmpty()) {
            return null;
        }
        if (current == null) {
            throw new InvalidSettingException(firstOptionField(), "this pool does not expose its options (it"
                    + " implements Pool without options()), so they cannot change while it runs; restart instead");
        }
        try {
            PoolOptions.Builder builder = current.toBuilder();
            changed.forEach((option, value) -> option.set(builder, value));
            return builder.build();
        }
        catch (InvalidOptionException ex) {
            throw new InvalidSettingException(ex.option(), ex.getMessage());
        }
    }

    /** @return the value given for a live option, parsed by the option's type ({@code null}: none, for a duration) */
    private @Nullable Object parse(PoolOption<?> option) {
        if (option.type() == Duration.class) {
            return values.parse(option.name(), SettingsChange::duration, "a duration such as 200ms or 2s, or -1");
        }
        if (option.type() == Integer.class) {
            return values.parse(option.name(), Integer::valueOf, "a whole number such as 8");
        }
        if (option.type() == Boolean.class) {
            return values.parse(option.name(), SettingsChange::bool, "true or false");
        }
        throw new IllegalStateException("a live option of type " + option.type().getSimpleName() + " (" + option
                + ") cannot be given as text; teach SettingsChange to parse it");
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
        return values.fields().stream().filter(field -> !field.equals("capacity")).findFirst().orElse("maxWait");
    }

    /**
     * Applies the change to a semaphore: its {@code size}.
     *
     * @param semaphore the semaphore
     * @throws InvalidSettingException when the size is missing or invalid, or a pool's field was given; nothing is
     *                                 changed then
     */
    public void applyTo(PermitSemaphore semaphore) {
        for (String field : values.fields()) {
            require(field.equals("size"), field, "a semaphore has only a size to change");
        }
        Long size = values.parse("size", Long::valueOf, "a whole number of permits such as 64");
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
