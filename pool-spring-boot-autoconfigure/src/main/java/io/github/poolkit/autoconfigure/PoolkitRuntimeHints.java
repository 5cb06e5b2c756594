package io.github.poolkit.autoconfigure;

import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.boot.context.properties.bind.BindableRuntimeHintsRegistrar;


/**
 * What poolkit's auto-configuration reaches by reflection, for Spring AOT and native images: the property classes that
 * Spring Boot's binder fills (also bound on their own, outside {@link PoolkitProperties}, while named beans are
 * registered) and the failure analyzer that {@code spring.factories} names. The bean definitions themselves need no
 * hints: they are factory methods, which AOT turns into plain code.
 */
class PoolkitRuntimeHints implements RuntimeHintsRegistrar {

    @Override
    public void registerHints(RuntimeHints hints, ClassLoader classLoader) {
        BindableRuntimeHintsRegistrar.forTypes(PoolkitProperties.class, PoolProperties.class, NamedSemaphoreProperties.class)
                .registerHints(hints, classLoader);
        hints.reflection().registerType(PoolkitPropertyFailureAnalyzer.class,
                MemberCategory.INVOKE_PUBLIC_CONSTRUCTORS);
    }
}
