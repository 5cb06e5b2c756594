package io.github.poolkit.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** Starts a context that must fail, and returns what poolkit's failure analyzer says about its failure. */
final class FailureAnalyses {

    private FailureAnalyses() {
    }

    /**
     * @param runner     the context to start
     * @param properties the properties that make it fail
     * @return the analysis of the failure, asserted to exist
     */
    static FailureAnalysis analyze(ApplicationContextRunner runner, String... properties) {
        FailureAnalysis[] analysis = new FailureAnalysis[1];
        runner.withPropertyValues(properties).run(context -> {
            assertThat(context).hasFailed();
            analysis[0] = new PoolkitPropertyFailureAnalyzer().analyze(context.getStartupFailure());
        });
        assertThat(analysis[0]).as("analysis").isNotNull();
        return analysis[0];
    }
}
