package io.github.poolkit.internal.pool;

import io.github.poolkit.PoolOptions;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every option of {@link PoolOptions} is either live or fixed in {@link LiveOptions}: an option added to
 * {@code PoolOptions} and forgotten there would otherwise be accepted by {@code reconfigure} and reported by
 * {@code options()} without ever being applied.
 */
class LiveOptionsTest {

    @Test
    void everyOptionIsEitherLiveOrFixedAndNoneIsBoth() {
        Set<String> options = Arrays.stream(PoolOptions.class.getDeclaredMethods())
                .filter(m -> Modifier.isPublic(m.getModifiers()) && !Modifier.isStatic(m.getModifiers()))
                .filter(m -> m.getParameterCount() == 0 && m.getReturnType() != void.class)
                .map(Method::getName)
                .filter(name -> !Set.of("toBuilder", "toString", "hashCode").contains(name))
                .collect(Collectors.toSet());
        Set<String> fixed = Arrays.stream(LiveOptions.FIXED).map(LiveOptions.Fixed::name).collect(Collectors.toSet());
        Set<String> listed = new HashSet<>(fixed);
        listed.addAll(LiveOptions.LIVE);
        assertThat(listed).as("options listed as live or fixed").isEqualTo(options);
        assertThat(fixed).as("fixed and live at once").doesNotContainAnyElementsOf(LiveOptions.LIVE);
    }
}
