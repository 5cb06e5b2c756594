package io.github.poolkit.internal.pool;

import io.github.poolkit.PoolOption;
import io.github.poolkit.PoolOptions;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The option table of {@link PoolOptions} describes every option: each accessor has an entry of the same name, and
 * each entry reads and sets what the accessor and the builder method read and set. Only the options the pool reads
 * live through {@link WaitRules} are live (an allow-list), so an option added and forgotten is fixed, never accepted by
 * {@code reconfigure} without being applied.
 */
class LiveOptionsTest {

    @Test
    void everyAccessorHasAnEntryAndNoEntryLacksOne() {
        Set<String> accessors = Arrays.stream(PoolOptions.class.getDeclaredMethods())
                .filter(m -> Modifier.isPublic(m.getModifiers()) && !Modifier.isStatic(m.getModifiers()))
                .filter(m -> m.getParameterCount() == 0 && m.getReturnType() != void.class)
                .map(Method::getName)
                .filter(name -> !Set.of("toBuilder", "toString", "hashCode").contains(name))
                .collect(Collectors.toSet());
        Set<String> entries = PoolOptions.OPTIONS.stream().map(PoolOption::name).collect(Collectors.toSet());
        assertThat(entries).hasSameSizeAs(PoolOptions.OPTIONS).isEqualTo(accessors);
    }

    @Test
    void onlyTheWaitRulesAreLive() {
        assertThat(LiveOptions.LIVE).extracting(PoolOption::name)
                .containsExactlyInAnyOrder("maxWait", "maxBlockingTasks", "nonblocking");
        assertThat(LiveOptions.names(LiveOptions.LIVE)).isEqualTo("maxWait, maxBlockingTasks and nonblocking");
    }

    @Test
    void eachEntryReadsAndSetsWhatItsAccessorAndBuilderMethodDo() throws Exception {
        for (PoolOption<?> option : PoolOptions.OPTIONS) {
            Object value = sample(option.type());
            PoolOptions.Builder builder = PoolOptions.builder();
            option.set(builder, value);
            PoolOptions options = builder.build();
            Object read = PoolOptions.class.getMethod(option.name()).invoke(options);
            assertThat(read).as(option.name()).isEqualTo(value).isEqualTo(option.get(options));
            assertThat(PoolOptions.class.getMethod(option.name()).invoke(PoolOptions.defaults()))
                    .as(option.name() + " default").isEqualTo(option.defaultValue());
        }
    }

    private static Object sample(Class<?> type) {
        if (type == Integer.class) {
            return 7;
        }
        if (type == Boolean.class) {
            return true;
        }
        if (type == Duration.class) {
            return Duration.ofSeconds(3);
        }
        if (type == String.class) {
            return "sample";
        }
        return Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (proxy, method, args) ->
                switch (method.getName()) {
                    case "equals" -> proxy == args[0];
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "toString" -> "sample " + type.getSimpleName();
                    default -> null;
                });
    }
}
