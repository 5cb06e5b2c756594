package io.github.poolkit.autoconfigure.actuate;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

/**
 * The values of one run-time change, as text, by field name: those given (a {@code null} value was not given), each
 * trimmed, in the order of the fields the change reads.
 *
 * <p>Invariant: a value is parsed only when it is read, and one that does not parse is refused with an
 * {@link InvalidSettingException} naming its field, the text given and the form expected, before anything changes.
 */
final class WriteValues {

    private final Map<String, String> values = new LinkedHashMap<>();

    /**
     * @param fields the fields of the write, by name; a {@code null} value was not given
     * @param names  the fields to keep, in the order to keep them
     */
    WriteValues(Map<String, ? extends @Nullable String> fields, Collection<String> names) {
        for (String name : names) {
            String value = fields.get(name);
            if (value != null) {
                values.put(name, value.trim());
            }
        }
    }

    /** {@return the fields given, in order} */
    Set<String> fields() {
        return values.keySet();
    }

    /**
     * Parses one field's value.
     *
     * @param field    the field
     * @param parser   turns the text into the value; throws when the text is not valid
     * @param expected the form expected, such as {@code "a whole number such as 16"}, for the refusal
     * @return the value, or {@code null} when the field was not given
     * @throws InvalidSettingException when the parser throws
     */
    <T> @Nullable T parse(String field, Function<String, T> parser, String expected) {
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
}
