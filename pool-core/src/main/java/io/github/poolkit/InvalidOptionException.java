package io.github.poolkit;

/**
 * An option, or a combination of options, that a pool cannot be created with. It names the option, the value that
 * was given and what to do instead, so that a tool that builds options from its own configuration (the Spring Boot
 * starter, for one) can translate the message into its own property names.
 *
 * <p>Its parts are structured ({@link #option()}, {@link #value()}, {@link #problem()}, {@link #fix()}), so that nobody
 * need parse the message, which reads {@code "<option> <problem>, was <value>: <fix>"}, a text value in single quotes
 * (so that a blank one shows).
 */
public final class InvalidOptionException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    /** The option's name as the builder spells it. */
    private final String option;
    /** The value that was given (not serialized: it need not be serializable). */
    private final transient Object value;
    /** What is wrong with the value. */
    private final String problem;
    /** What to do instead. */
    private final String fix;

    /**
     * Creates the exception.
     *
     * @param option  the option's name as the builder spells it, e.g. {@code "queueCapacity"}
     * @param value   the value that was given (may be {@code null})
     * @param problem what is wrong with it, e.g. {@code "must be >= -1"}
     * @param fix     what to do instead, e.g. {@code "use -1 for an unbounded queue, 0 for none"}
     */
    public InvalidOptionException(String option, Object value, String problem, String fix) {
        super(option + " " + problem + ", was " + shown(value) + ": " + fix);
        this.option = option;
        this.value = value;
        this.problem = problem;
        this.fix = fix;
    }

    /** {@return the value as the message shows it: a text in single quotes, anything else as it prints} */
    private static String shown(Object value) {
        return (value instanceof CharSequence text) ? "'" + text + "'" : String.valueOf(value);
    }

    /** {@return the option's name as the builder spells it, e.g. {@code "queueCapacity"} or {@code "capacity"}} */
    public String option() {
        return option;
    }

    /** {@return the value that was given} */
    public Object value() {
        return value;
    }

    /** {@return what is wrong with the value, e.g. {@code "must be >= -1"}} */
    public String problem() {
        return problem;
    }

    /** {@return what to do instead} */
    public String fix() {
        return fix;
    }
}
