package io.github.poolkit.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;


/** The runtime hints cover what the binder and {@code spring.factories} reach by reflection. */
class PoolkitRuntimeHintsTests {

    @Test
    void propertyClassesAndTheFailureAnalyzerAreReflectable() throws Exception {
        RuntimeHints hints = new RuntimeHints();
        new PoolkitRuntimeHints().registerHints(hints, getClass().getClassLoader());
        for (Class<?> type : new Class<?>[] { PoolkitProperties.class, PoolProperties.class, NamedSemaphoreProperties.class }) {
            assertThat(RuntimeHintsPredicates.reflection().onType(type)).as(type.getName()).accepts(hints);
        }
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(PoolProperties.class, "setMaxWait")).accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection()
                .onConstructorInvocation(PoolkitPropertyFailureAnalyzer.class.getConstructor())).accepts(hints);
    }
}
