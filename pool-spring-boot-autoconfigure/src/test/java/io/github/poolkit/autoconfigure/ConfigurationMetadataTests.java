package io.github.poolkit.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;
import org.springframework.boot.convert.DurationStyle;

import io.github.poolkit.PoolOption;
import io.github.poolkit.PoolOptions;
import tools.jackson.databind.json.JsonMapper;

/**
 * The configuration processor generated the IDE metadata of every {@code poolkit.*} key, with the documented
 * defaults and a description taken from the field's javadoc.
 */
class ConfigurationMetadataTests {

    @Test
    void everyDocumentedKeyHasMetadataWithItsDefault() throws Exception {
        Map<String, Map<String, Object>> properties = properties();
        Map<String, Object> expectedDefaults = Map.ofEntries(Map.entry("poolkit.pool.enabled", true),
                Map.entry("poolkit.pool.capacity", 256), Map.entry("poolkit.pool.expiry", "1s"),
                Map.entry("poolkit.pool.nonblocking", false), Map.entry("poolkit.pool.max-blocking-tasks", 0),
                Map.entry("poolkit.pool.pre-alloc", false), Map.entry("poolkit.pool.disable-purge", false),
                Map.entry("poolkit.pool.queue-capacity", 0), Map.entry("poolkit.pool.interrupt-overdue", false),
                Map.entry("poolkit.pool.adaptive.algorithm", "none"), Map.entry("poolkit.pool.adaptive.min", 1),
                Map.entry("poolkit.semaphore.adaptive.algorithm", "none"),
                Map.entry("poolkit.semaphore.adaptive.min", 1),
                Map.entry("poolkit.semaphore.enabled", true),
                Map.entry("poolkit.semaphore.size", 64), Map.entry("poolkit.scheduler.enabled", true),
                Map.entry("poolkit.scheduler.workers", 4));
        expectedDefaults.forEach((key, value) -> {
            assertThat(properties).as(key).containsKey(key);
            assertThat(properties.get(key).get("defaultValue")).as(key).isEqualTo(value);
            assertThat((String) properties.get(key).get("description")).as(key).isNotBlank();
        });
        assertThat(properties).containsKeys("poolkit.pools", "poolkit.semaphores");
        // the health contributor's own switch, documented with it, as Spring Boot's modules describe theirs
        assertThat(properties.get("management.health.pools.enabled")).as("management.health.pools.enabled")
                .containsEntry("defaultValue", true).containsEntry("type", "java.lang.Boolean");
        assertThat((String) properties.get("poolkit.semaphores").get("description")).contains("only an unset size");
        assertThat((String) properties.get("poolkit.pool.virtual-threads").get("description")).startsWith("Whether")
                .contains("spring.threads.virtual.enabled");
        // the contract's default, which is spring.threads.virtual.enabled's own while that is unset
        assertThat(properties.get("poolkit.pool.virtual-threads")).containsEntry("defaultValue", false);
        assertThat(properties.get("poolkit.pool.max-wait")).doesNotContainKey("defaultValue")
                .containsEntry("type", "java.time.Duration");
        assertThat((String) properties.get("poolkit.pool.max-wait").get("description")).contains("without limit");
        assertThat(properties.get("poolkit.pool.expiry").get("type")).isEqualTo("java.time.Duration");
        for (String key : new String[] { "poolkit.pool.run-timeout", "poolkit.pool.queue-timeout" }) {
            // Unset: the pool does not watch its tasks.
            assertThat(properties.get(key)).as(key).doesNotContainKey("defaultValue")
                    .containsEntry("type", "java.time.Duration");
        }
        // the contract's default for the pools, which is spring.lifecycle.timeout-per-shutdown-phase's own while that
        // is unset (the deadline unless a pool sets one); the scheduler's inherits it
        assertThat(properties.get("poolkit.pool.shutdown-timeout")).containsEntry("defaultValue", "30s");
        assertThat(properties.get("poolkit.scheduler.shutdown-timeout")).doesNotContainKey("defaultValue");
        for (String key : new String[] { "poolkit.pool.shutdown-timeout", "poolkit.scheduler.shutdown-timeout" }) {
            assertThat((String) properties.get(key).get("description")).as(key)
                    .contains("spring.lifecycle.timeout-per-shutdown-phase").contains("interrupted");
        }
    }

    @Test
    void everyDefaultInTheMetadataIsTheOneTheCodeUses() throws Exception {
        Map<String, Map<String, Object>> properties = properties();
        int checked = 0;
        for (PoolOption<?> option : PoolOptions.OPTIONS) {
            Map<String, Object> property = properties.get(
                    "poolkit.pool." + DataObjectPropertyName.toDashedForm(option.name()));
            if (property != null && property.containsKey("defaultValue")) {
                Object stated = property.get("defaultValue");
                Object value = (option.type() == Duration.class) ? DurationStyle.detectAndParse((String) stated) : stated;
                assertThat(value).as(option.name()).isEqualTo(option.defaultValue());
                checked++;
            }
        }
        assertThat(checked).as("options whose default the metadata states").isGreaterThanOrEqualTo(6);
        assertThat(properties.get("poolkit.pool.capacity").get("defaultValue")).isEqualTo(PoolSettings.DEFAULT_CAPACITY);
    }

    @Test
    void handWrittenHintsAreMergedIn() throws Exception {
        assertThat(byName(metadata(), "hints")).containsKeys("poolkit.pool.queue-capacity", "poolkit.pools.keys");
    }

    private static Map<String, Map<String, Object>> properties() throws Exception {
        return byName(metadata(), "properties");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Map<String, Object>> byName(Map<String, Object> metadata, String section) {
        Map<String, Map<String, Object>> byName = new HashMap<>();
        for (Map<String, Object> entry : (List<Map<String, Object>>) metadata.get(section)) {
            byName.put((String) entry.get("name"), entry);
        }
        return byName;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> metadata() throws Exception {
        try (InputStream json = ConfigurationMetadataTests.class
                .getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            assertThat(json).as("generated metadata").isNotNull();
            return JsonMapper.builder().build().readValue(json, Map.class);
        }
    }
}
