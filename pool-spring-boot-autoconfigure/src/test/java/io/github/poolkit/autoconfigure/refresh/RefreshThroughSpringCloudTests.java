package io.github.poolkit.autoconfigure.refresh;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.cloud.context.refresh.ContextRefresher;
import org.springframework.context.ConfigurableApplicationContext;

import io.github.poolkit.WorkerPool;

/**
 * A changed configuration file refreshed through Spring Cloud's own {@link ContextRefresher}, whose rebinder also
 * rebinds poolkit's properties bean when poolkit's listener sees the change: a value that converts but is invalid, a
 * value that does not convert (the rebinder fails the refresh), and a key fixed at creation, each with what the
 * application is told; a valid refresh still works after them.
 */
@Timeout(60)
@ExtendWith(OutputCaptureExtension.class)
class RefreshThroughSpringCloudTests {

    @Test
    void badValuesChangeNothingAndSayWhyAndAFixedKeyIsReported(@TempDir Path dir, CapturedOutput output)
            throws IOException {
        Path file = dir.resolve("poolkit.properties");
        Files.writeString(file, "poolkit.pools.reports.capacity=4\n");
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(Application.class)
                .web(WebApplicationType.NONE).properties("spring.config.import=file:" + file).run()) {
            WorkerPool reports = context.getBean("reports", WorkerPool.class);
            ContextRefresher refresher = context.getBean(ContextRefresher.class);

            Files.writeString(file, "poolkit.pools.reports.capacity=-3\n");
            refresher.refresh();
            assertThat(reports.capacity()).isEqualTo(4);
            assertThat(output).contains("Property poolkit.pools.reports.capacity changed to '-3', an unlimited "
                    + "capacity, but a pool becomes unlimited only when it is created");

            // a value that does not convert fails neither Spring Cloud's rebinding of poolkit's properties bean nor
            // the refresh; poolkit names it, and the pool keeps its capacity
            Files.writeString(file, "poolkit.pools.reports.capacity=lots\n");
            refresher.refresh();
            assertThat(reports.capacity()).isEqualTo(4);
            assertThat(output).contains("Could not apply {capacity=lots} to 'reports'");

            Files.writeString(file, "poolkit.pools.reports.capacity=4\npoolkit.pools.reports.queue-capacity=9\n");
            refresher.refresh();
            assertThat(reports.options().queueCapacity()).isZero();
            assertThat(output).contains("Property poolkit.pools.reports.queue-capacity changed to '9' but cannot "
                    + "change while the application runs");

            Files.writeString(file, "poolkit.pools.reports.capacity=6\n");
            refresher.refresh();
            assertThat(reports.capacity()).as("a valid refresh after the bad ones").isEqualTo(6);
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Application {
    }
}
