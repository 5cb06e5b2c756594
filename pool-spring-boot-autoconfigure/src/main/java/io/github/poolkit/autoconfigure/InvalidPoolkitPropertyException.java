package io.github.poolkit.autoconfigure;

import java.time.Duration;
import java.util.List;

/**
 * Thrown at start-up when a {@code poolkit.*} property holds a value poolkit cannot use. It carries the full property
 * key, the offending value, the problem and the fix, which {@link PoolkitPropertyFailureAnalyzer} turns into Spring
 * Boot's failure report.
 */
public class InvalidPoolkitPropertyException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /** The full property key. */
    private final String property;
    private final transient Object value;
    /** Why the value cannot be used. */
    private final String problem;
    /** What to change. */
    private final String fix;

    /**
     * Creates the exception.
     *
     * @param property the full key, such as {@code poolkit.pools.reports.expiry}
     * @param value    the value found there
     * @param problem  why the value cannot be used
     * @param fix      what to change
     */
    public InvalidPoolkitPropertyException(String property, Object value, String problem, String fix) {
        super("Invalid value '" + display(value) + "' for property '" + property + "': " + problem + "; " + fix);
        this.property = property;
        this.value = value;
        this.problem = problem;
        this.fix = fix;
    }

    /**
     * Throws an {@code InvalidPoolkitPropertyException} unless {@code valid}.
     *
     * @param valid    whether the value is fine
     * @param property the full key
     * @param value    the value found there
     * @param problem  why the value cannot be used
     * @param fix      what to change
     * @throws InvalidPoolkitPropertyException when {@code valid} is false
     */
    static void check(boolean valid, String property, Object value, String problem, String fix) {
        if (!valid) {
            throw new InvalidPoolkitPropertyException(property, value, problem, fix);
        }
    }

    /**
     * Throws the first of the problems a check collected, if any: for a caller that needs one valid result, of a
     * check that also serves the start-up report of every problem.
     *
     * @param problems the problems found, in the order found
     */
    static void throwFirst(List<InvalidPoolkitPropertyException> problems) {
        if (!problems.isEmpty()) {
            throw problems.get(0);
        }
    }

    /** {@return the full property key} */
    public String getProperty() {
        return property;
    }

    /** {@return the offending value} */
    public Object getValue() {
        return value;
    }

    /**
     * {@return the offending value as it would be written in a properties file (whole-second durations as
     * {@code -1s}, whole-millisecond ones as {@code 10ms}, others in ISO-8601)}
     */
    public String getDisplayValue() {
        return display(value);
    }

    private static String display(Object value) {
        if (value instanceof Duration duration) {
            // as a property is written (30s, 10ms), not as Duration.toString() (PT0.01S)
            if (duration.getNano() == 0) {
                return duration.getSeconds() + "s";
            }
            return (duration.getNano() % 1_000_000 == 0) ? duration.toMillis() + "ms" : duration.toString();
        }
        return String.valueOf(value);
    }

    /** {@return why the value cannot be used} */
    public String getProblem() {
        return problem;
    }

    /** {@return what to change} */
    public String getFix() {
        return fix;
    }
}
