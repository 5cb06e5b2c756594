package io.github.poolkit.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.beans.BeanWrapper;
import org.springframework.beans.PropertyAccessorFactory;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;

import io.github.poolkit.PoolOption;
import io.github.poolkit.PoolOptions;

/**
 * The starter binds every option of the core library's option table that a pool property of the same name holds,
 * with no code naming the option: set on {@code poolkit.pool}, inherited by a named pool, and blamed on the key it
 * came from.
 */
class PoolSettingsTests {

    @Test
    void everyOptionThatAPropertyOfTheSameNameHoldsIsBoundAndInherited() {
        PoolProperties primary = new PoolProperties();
        BeanWrapper bean = PropertyAccessorFactory.forBeanPropertyAccess(primary);
        Map<PoolOption<?>, Object> given = new LinkedHashMap<>();
        for (PoolOption<?> option : PoolOptions.OPTIONS) {
            if (bean.isWritableProperty(option.name())) {
                Object value = sample(option.type());
                bean.setPropertyValue(option.name(), value);
                given.put(option, value);
            }
        }
        assertThat(given.keySet()).extracting(PoolOption::name).contains("maxBlockingTasks", "disablePurge", "maxWait",
                "nonblocking", "expiry", "preAlloc", "queueCapacity", "virtualThreads", "runTimeout", "queueTimeout",
                "interruptOverdue");
        PoolOptions fromPrimary = PoolSettings.primary("workerPool", primary).toOptions(false).build();
        PoolSettings reports = PoolSettings.named("reports", new PoolProperties(), primary);
        PoolOptions inherited = reports.toOptions(false).build();
        given.forEach((option, value) -> {
            assertThat(option.get(fromPrimary)).as(option.name()).isEqualTo(value);
            assertThat(option.get(inherited)).as(option.name() + ", inherited").isEqualTo(value);
            assertThat(reports.property(option.name())).as(option.name())
                    .isEqualTo("poolkit.pool." + DataObjectPropertyName.toDashedForm(option.name()));
        });
        assertThat(inherited.name()).isEqualTo("reports");
    }

    @Test
    void aNamedPoolsOwnKeyWinsAndIsBlamedOnItsOwnProperty() {
        PoolProperties primary = new PoolProperties();
        primary.setMaxBlockingTasks(4);
        primary.setDisablePurge(true);
        PoolProperties own = new PoolProperties();
        own.setMaxBlockingTasks(9);
        PoolSettings reports = PoolSettings.named("reports", own, primary);
        PoolOptions options = reports.toOptions(false).build();
        assertThat(options.maxBlockingTasks()).isEqualTo(9);
        assertThat(options.disablePurge()).isTrue();
        assertThat(reports.property("maxBlockingTasks")).isEqualTo("poolkit.pools.reports.max-blocking-tasks");
        assertThat(reports.property("disablePurge")).isEqualTo("poolkit.pool.disable-purge");
        assertThat(reports.property("adaptive.min")).isEqualTo("poolkit.pool.adaptive.min");
        assertThat(reports.property("name")).as("no such key: the pool's own prefix")
                .isEqualTo("poolkit.pools.reports.name");
    }

    @Test
    void unsetKeysLeaveTheCoreLibrarysDefaultsAndVirtualThreadsFollowTheSpringSwitch() {
        PoolOptions options = PoolSettings.primary("workerPool", new PoolProperties()).toOptions(true).build();
        for (PoolOption<?> option : PoolOptions.OPTIONS) {
            if (option != PoolOptions.NAME && option != PoolOptions.VIRTUAL_THREADS) {
                assertThat(option.get(options)).as(option.name()).isEqualTo(option.defaultValue());
            }
        }
        assertThat(options.virtualThreads()).isTrue();
    }

    private static Object sample(Class<?> type) {
        if (type == Integer.class) {
            return 3;
        }
        if (type == Boolean.class) {
            return true;
        }
        if (type == Duration.class) {
            return Duration.ofSeconds(2);
        }
        throw new IllegalArgumentException("no sample of " + type);
    }
}
