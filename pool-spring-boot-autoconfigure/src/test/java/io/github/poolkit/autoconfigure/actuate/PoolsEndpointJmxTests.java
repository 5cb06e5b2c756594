package io.github.poolkit.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Arrays;
import java.util.Map;

import javax.management.MBeanServer;
import javax.management.ObjectName;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.jmx.JmxEndpointAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.jmx.JmxAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.github.poolkit.WorkerPool;
import io.github.poolkit.autoconfigure.PoolkitAutoConfiguration;

/**
 * The {@code pools} endpoint over JMX: an operation's parameters are its arguments there (no path, body or query to
 * lay over each other), so one entry is read, and a pool is changed, by name, as over HTTP.
 */
@Timeout(30)
class PoolsEndpointJmxTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(JmxAutoConfiguration.class, EndpointAutoConfiguration.class,
                    JmxEndpointAutoConfiguration.class, PoolkitAutoConfiguration.class,
                    PoolsEndpointAutoConfiguration.class))
            .withPropertyValues("spring.jmx.enabled=true", "spring.jmx.unique-names=true",
                    "management.endpoints.jmx.exposure.include=pools", "management.endpoint.pools.access=UNRESTRICTED",
                    "poolkit.pools.reports.capacity=4");

    @Test
    @SuppressWarnings("unchecked")
    void oneEntryIsReadAndAPoolChangedByName() {
        runner.run(context -> {
            MBeanServer server = context.getBean(MBeanServer.class);
            ObjectName pools = server.queryNames(new ObjectName("*:type=Endpoint,name=Pools,*"), null).iterator()
                    .next();
            Map<String, Object> entry = (Map<String, Object>) server.invoke(pools, "pool", new Object[] { "reports" },
                    new String[] { String.class.getName() });
            assertThat(entry).containsEntry("capacity", 4);
            String[] signature = new String[7];
            Arrays.fill(signature, String.class.getName());
            Map<String, Object> changed = (Map<String, Object>) server.invoke(pools, "change",
                    new Object[] { "reports", "6", "250ms", null, null, null, null }, signature);
            assertThat(changed).containsEntry("status", 200);
            assertThat((Map<String, Object>) changed.get("body")).containsEntry("capacity", 6);
            WorkerPool reports = context.getBean("reports", WorkerPool.class);
            assertThat(reports.capacity()).isEqualTo(6);
            assertThat(reports.options().maxWait()).isEqualTo(Duration.ofMillis(250));
            Map<String, Object> refused = (Map<String, Object>) server.invoke(pools, "change",
                    new Object[] { "reports", "lots", null, null, null, null, null }, signature);
            assertThat(refused).containsEntry("status", 400);
            assertThat((Map<String, Object>) refused.get("body")).containsEntry("field", "capacity");
            assertThat(reports.capacity()).isEqualTo(6);
        });
    }
}
