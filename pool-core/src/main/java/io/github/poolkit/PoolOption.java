package io.github.poolkit;

import java.util.function.BiConsumer;
import java.util.function.ObjIntConsumer;

/**
 * One option of a pool, as {@link PoolOptions} describes it in its option table ({@link PoolOptions#OPTIONS}): its
 * name as the builder spells it, the type of its values, its default, whether a running pool may change it, and how to
 * read and set it. Tools that carry options from their own configuration (the Spring Boot starter binds properties of
 * the same names, refreshes them and changes them through its endpoint) iterate the table instead of naming options.
 * Immutable; every instance is one of the constants of {@link PoolOptions}.
 *
 * @param <T> the type of the option's values ({@code Integer} for an {@code int} option)
 */
public final class PoolOption<T> {

    /** The next index: {@link PoolOptions} creates every option, in its static initializer (one thread, in order). */
    private static int next;

    private final String name;
    private final Class<?> type;
    private final T defaultValue;
    private final boolean live;
    private final BiConsumer<PoolOptions.Builder, T> setter;
    private final ObjIntConsumer<PoolOptions> rule;
    /** Where {@link PoolOptions} and its builder keep this option's value. */
    final int index;

    PoolOption(String name, Class<?> type, T defaultValue, boolean live, BiConsumer<PoolOptions.Builder, T> setter,
            ObjIntConsumer<PoolOptions> rule) {
        this.name = name;
        this.type = type;
        this.defaultValue = defaultValue;
        this.live = live;
        this.setter = setter;
        this.rule = rule;
        this.index = next++;
    }

    /** {@return the option's name as the builder method and the accessor spell it, e.g. {@code "maxWait"}} */
    public String name() {
        return name;
    }

    /** {@return the type of its values: {@code Integer}, {@code Boolean}, {@code Duration}, {@code String}, ...} */
    public Class<?> type() {
        return type;
    }

    /** {@return its value in {@link PoolOptions#defaults()}, or {@code null} when it is unset by default} */
    public T defaultValue() {
        return defaultValue;
    }

    /**
     * Returns whether a running pool may change this option ({@link Pool#reconfigure}). An allow-list: an option is
     * fixed unless its table entry says otherwise, so a new option cannot be accepted by {@code reconfigure} without
     * the pool reading it live.
     *
     * @return {@code true} for an option a running pool reads live
     */
    public boolean live() {
        return live;
    }

    /**
     * Reads this option.
     *
     * @param options the options to read
     * @return its value there
     */
    @SuppressWarnings("unchecked")
    public T get(PoolOptions options) {
        return (T) options.values[index];
    }

    /**
     * Sets this option through its builder method, which applies that method's own checks.
     *
     * @param builder the builder
     * @param value   a value of {@link #type()}, or {@code null} where the option may be unset
     * @throws ClassCastException     if the value is of another type
     * @throws InvalidOptionException if the builder method refuses it
     * @throws NullPointerException   if it is {@code null} for an option that must have a value
     */
    @SuppressWarnings("unchecked")
    public void set(PoolOptions.Builder builder, Object value) {
        setter.accept(builder, (T) type.cast(value));
    }

    /** Throws the {@link InvalidOptionException} of this option's rule, if the options break it. */
    void check(PoolOptions options, int capacity) {
        rule.accept(options, capacity);
    }

    /** {@return the option's name} */
    @Override
    public String toString() {
        return name;
    }
}
