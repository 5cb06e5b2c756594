package io.github.poolkit.abuse;

import io.github.poolkit.DelayScheduler;
import io.github.poolkit.FuncPool;
import io.github.poolkit.MultiPool;
import io.github.poolkit.WeightedSemaphore;
import io.github.poolkit.WorkerPool;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tools that call a pool's methods by reflection ({@code getClass().getMethod(..).invoke(..)}: expression languages,
 * JMX adapters, scripting) can only do so when the method's declaring type is public. A public method inherited from a
 * package-private supertype of poolkit's own (a default method of a package-private interface, say) is declared there,
 * and its reflective call fails with {@code IllegalAccessException} outside the package. This test runs outside
 * {@code io.github.poolkit} and calls one such method for real.
 */
class ReflectiveAccessTest {

    @Test
    void everyPublicMethodOfThePublicTypesIsDeclaredByAPublicType() {
        for (Class<?> type : List.of(WorkerPool.class, FuncPool.class, MultiPool.class, WeightedSemaphore.class,
                DelayScheduler.class)) {
            List<String> hidden = Arrays.stream(type.getMethods())
                    .filter(m -> !Modifier.isPublic(m.getDeclaringClass().getModifiers()))
                    .map(m -> m.getDeclaringClass().getSimpleName() + "." + m.getName())
                    .toList();
            assertThat(hidden).as("methods of %s declared by a non-public type", type.getSimpleName()).isEmpty();
        }
    }

    @Test
    void aPoolFigureCanBeReadByReflection() throws Exception {
        try (WorkerPool pool = WorkerPool.create(3)) {
            Method capacity = pool.getClass().getMethod("capacity");
            assertThat(capacity.invoke(pool)).isEqualTo(3);
        }
        try (FuncPool<String> pool = FuncPool.create(2, s -> { })) {
            assertThat(pool.getClass().getMethod("running").invoke(pool)).isEqualTo(0);
        }
    }
}
