package io.github.poolkit.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns an {@link InvalidPoolkitPropertyException} anywhere in a start-up failure's cause chain into Spring Boot's
 * "APPLICATION FAILED TO START" report: the description names the property and its value and says what is wrong, the
 * action says how to fix it. Registered in {@code META-INF/spring.factories}.
 */
public class PoolkitPropertyFailureAnalyzer extends AbstractFailureAnalyzer<InvalidPoolkitPropertyException> {

    /** Creates the analyzer; Spring Boot instantiates it from {@code spring.factories}. */
    public PoolkitPropertyFailureAnalyzer() {
    }

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidPoolkitPropertyException cause) {
        String description = "Invalid poolkit configuration:\n\n    Property: " + cause.getProperty()
                + "\n    Value:    " + cause.getDisplayValue() + "\n    Reason:   " + cause.getProblem();
        String action = "Update your application's configuration: " + cause.getFix();
        return new FailureAnalysis(description, action, cause);
    }
}
