package io.github.poolkit.autoconfigure;

import java.util.List;
import java.util.stream.Collectors;

import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;

/**
 * Turns an {@link InvalidPoolkitPropertyException} or an {@link InvalidPoolkitConfigurationException} anywhere in a
 * start-up failure's cause chain into Spring Boot's "APPLICATION FAILED TO START" report: the description names each
 * property and its value and says what is wrong, the action says how to fix each. Registered in
 * {@code META-INF/spring.factories}.
 */
public class PoolkitPropertyFailureAnalyzer implements FailureAnalyzer {

    /** Creates the analyzer; Spring Boot instantiates it from {@code spring.factories}. */
    public PoolkitPropertyFailureAnalyzer() {
    }

    /**
     * Analyzes a start-up failure.
     *
     * @param failure the failure
     * @return the report, or {@code null} when no poolkit property is at fault
     */
    @Override
    public FailureAnalysis analyze(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof InvalidPoolkitConfigurationException all) {
                return analyze(all.getProblems(), cause);
            }
            if (cause instanceof InvalidPoolkitPropertyException one) {
                return analyze(List.of(one), cause);
            }
        }
        return null;
    }

    private static FailureAnalysis analyze(List<InvalidPoolkitPropertyException> problems, Throwable cause) {
        String heading = (problems.size() == 1) ? "Invalid poolkit configuration:"
                : "Invalid poolkit configuration (" + problems.size() + " properties):";
        String description = heading + problems.stream().map(problem -> "\n\n    Property: " + problem.getProperty()
                + "\n    Value:    " + problem.getDisplayValue() + "\n    Reason:   " + problem.getProblem())
                .collect(Collectors.joining());
        String action = (problems.size() == 1)
                ? "Update your application's configuration: " + problems.get(0).getFix()
                : "Update your application's configuration:" + problems.stream()
                        .map(problem -> "\n    - " + problem.getProperty() + ": " + problem.getFix())
                        .collect(Collectors.joining());
        return new FailureAnalysis(description, action, cause);
    }
}
