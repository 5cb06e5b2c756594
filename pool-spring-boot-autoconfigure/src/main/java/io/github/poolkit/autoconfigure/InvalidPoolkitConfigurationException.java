package io.github.poolkit.autoconfigure;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Thrown at start-up when several {@code poolkit.*} properties are wrong at once (unknown keys, values that cannot be
 * converted, values poolkit cannot use): it carries one {@link InvalidPoolkitPropertyException} per property, which
 * {@link PoolkitPropertyFailureAnalyzer} reports together, so that one start-up shows every problem. A single problem
 * is thrown as its own {@link InvalidPoolkitPropertyException}.
 */
public class InvalidPoolkitConfigurationException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /** One problem per property, in the order they were found. */
    private final List<InvalidPoolkitPropertyException> problems;

    /**
     * Creates the exception.
     *
     * @param problems one problem per property, at least two
     */
    public InvalidPoolkitConfigurationException(List<InvalidPoolkitPropertyException> problems) {
        super(problems.size() + " invalid poolkit properties: " + problems.stream()
                .map(InvalidPoolkitPropertyException::getMessage).collect(Collectors.joining("; ")));
        this.problems = List.copyOf(problems);
    }

    /**
     * Throws the problems found, if any: one as itself, several together.
     *
     * @param problems the problems found, maybe none
     * @throws InvalidPoolkitPropertyException     if there is one
     * @throws InvalidPoolkitConfigurationException if there are several
     */
    static void throwIfAny(List<InvalidPoolkitPropertyException> problems) {
        if (problems.size() == 1) {
            throw problems.get(0);
        }
        if (!problems.isEmpty()) {
            throw new InvalidPoolkitConfigurationException(problems);
        }
    }

    /** {@return one problem per property, in the order they were found} */
    public List<InvalidPoolkitPropertyException> getProblems() {
        return problems;
    }
}
