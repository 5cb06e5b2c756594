package io.github.poolkit;

import java.time.Duration;

/**
 * The rules of the options that only hold in combination, with another option or with the pool's capacity, as the
 * option table of {@link PoolOptions} refers to them (one rule per option; {@link PoolOptions#validate(int)} runs them
 * in the table's order). Each throws the {@link InvalidOptionException} that names the option at fault, its value and
 * the fix.
 */
final class OptionRules {

    private OptionRules() {
    }

    /**
     * Throws when {@code invalid}.
     *
     * @param invalid whether the value breaks the rule
     * @param option  the option at fault, as the builder spells it
     * @param value   its value
     * @param problem what is wrong with it
     * @param fix     what to do instead
     * @throws InvalidOptionException if {@code invalid}
     */
    static void refuse(boolean invalid, String option, Object value, String problem, String fix) {
        if (invalid) {
            throw new InvalidOptionException(option, value, problem, fix);
        }
    }

    /**
     * A timeout that watches tasks is positive, or {@code null} (off).
     *
     * @param option  the option, as the builder spells it
     * @param timeout its value
     */
    static void positive(String option, Duration timeout) {
        refuse(timeout != null && (timeout.isZero() || timeout.isNegative()), option, timeout, "must be positive",
                "give a duration > 0, or null to turn it off");
    }

    /**
     * {@return the refusal of a negative {@code maxWait}, thrown by its builder method and by the rule}
     *
     * @param maxWait the negative value
     */
    static InvalidOptionException negativeMaxWait(Duration maxWait) {
        return new InvalidOptionException("maxWait", maxWait, "must not be negative",
                "use Duration.ZERO to fail at once, or null to wait without limit");
    }

    /**
     * {@code maxWait} is not negative.
     *
     * @param maxWait its value, {@code null} for no limit
     */
    static void notNegative(Duration maxWait) {
        if (maxWait != null && maxWait.isNegative()) {
            throw negativeMaxWait(maxWait);
        }
    }

    /**
     * {@code preAlloc} needs a bounded capacity, not too large, and pooled threads.
     *
     * @param o        the options
     * @param capacity the pool's capacity, {@code <= 0} for unlimited
     */
    static void preAlloc(PoolOptions o, int capacity) {
        refuse(o.preAlloc() && capacity <= 0, "preAlloc", true, "needs a bounded capacity, but capacity was "
                + capacity + " (unlimited)", "give a capacity > 0, or set preAlloc(false)");
        refuse(o.preAlloc() && capacity > PoolOptions.MAX_PREALLOC_CAPACITY, "capacity", capacity, "is too large to"
                + " pre-allocate for (preAlloc)", "use a capacity <= " + PoolOptions.MAX_PREALLOC_CAPACITY
                + ", or set preAlloc(false)");
        refuse(o.virtualThreads() && o.preAlloc(), "preAlloc", true, "cannot be combined with virtualThreads (virtual"
                + " threads are not pooled: there is no idle-worker store)",
                "set preAlloc(false), or virtualThreads(false)");
    }

    /**
     * An adaptive capacity needs a bounded capacity that can change ({@code preAlloc} off).
     *
     * @param o        the options
     * @param capacity the pool's capacity, {@code <= 0} for unlimited
     */
    static void adaptiveCapacity(PoolOptions o, int capacity) {
        AdaptiveLimit limit = o.adaptiveCapacity();
        refuse(limit != null && capacity <= 0, "adaptiveCapacity", limit, "needs a bounded capacity, but capacity was "
                + capacity + " (unlimited)", "give a capacity > 0, or drop adaptiveCapacity");
        refuse(limit != null && o.preAlloc(), "adaptiveCapacity", limit, "cannot be combined with preAlloc (a"
                + " pre-allocated pool cannot change its capacity)", "set preAlloc(false), or drop adaptiveCapacity");
    }

    /**
     * A thread factory and virtual threads exclude each other.
     *
     * @param o        the options
     * @param capacity the pool's capacity (unused)
     */
    static void threadFactory(PoolOptions o, int capacity) {
        refuse(o.virtualThreads() && o.threadFactory() != null, "threadFactory", o.threadFactory(), "cannot be"
                + " combined with virtualThreads (each task starts a virtual thread named <name>-<n>)",
                "drop the threadFactory, or set virtualThreads(false)");
    }

    /**
     * Interrupting overdue tasks needs a run timeout.
     *
     * @param o        the options
     * @param capacity the pool's capacity (unused)
     */
    static void interruptOverdue(PoolOptions o, int capacity) {
        refuse(o.interruptOverdue() && o.runTimeout() == null, "interruptOverdue", true, "needs a runTimeout (it"
                + " interrupts the worker of a task that runs longer than that)",
                "set runTimeout(...), or interruptOverdue(false)");
    }
}
