package io.github.poolkit.autoconfigure.actuate;

/**
 * A run-time change that cannot be made: the value is invalid, or the setting does not apply to that bean or cannot
 * change while it runs. Names the field so that the endpoint's problem body and the refresh log can point at it.
 * Nothing has been changed when it is thrown, except where its message says that undoing a first change failed (an
 * executor poolkit did not create, changed by the application meanwhile).
 */
public final class InvalidSettingException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** The setting's name as a write spells it. */
    private final String field;

    /** What is wrong and what to do instead. */
    private final String detail;

    /**
     * Creates the exception.
     *
     * @param field  the setting's name as a write spells it, e.g. {@code "maxWait"}
     * @param detail what is wrong and what to do instead
     */
    public InvalidSettingException(String field, String detail) {
        super(field + ": " + detail);
        this.field = field;
        this.detail = detail;
    }

    /** {@return the setting's name as a write spells it, e.g. {@code "maxWait"}} */
    public String field() {
        return field;
    }

    /** {@return what is wrong and what to do instead, without the field's name} */
    public String detail() {
        return detail;
    }
}
