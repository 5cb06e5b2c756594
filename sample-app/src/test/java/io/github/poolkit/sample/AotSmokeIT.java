package io.github.poolkit.sample;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.aot.AotDetector;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;

import io.github.poolkit.DelayScheduler;
import io.github.poolkit.WeightedSemaphore;
import io.github.poolkit.WorkerPool;
import io.github.poolkit.sample.ApiClient.Answer;

/**
 * Starts the application as Spring AOT processed it ({@code spring-boot:process-aot}, then
 * {@code -Dspring.aot.enabled=true}): the bean definitions come from the generated code, not from the configuration
 * classes, and the named pools and semaphores, the endpoint and a job run on a named pool must all be there. Run by
 * failsafe in the {@code aot} profile of this module (active when Maven runs on JDK 21+).
 */
@Timeout(120)
class AotSmokeIT {

    @Test
    void aotProcessedApplicationHasTheSameBeansAndEndpoint() {
        assertThat(AotDetector.useGeneratedArtifacts()).as("started with -Dspring.aot.enabled=true").isTrue();
        SpringApplication application = new SpringApplication(SampleApplication.class);
        // AOT looks up <main class>__ApplicationContextInitializer; the stack would name the test runner.
        application.setMainApplicationClass(SampleApplication.class);
        try (ConfigurableApplicationContext context = application.run("--server.port=0")) {
            assertThat(context.getBean("workerPool", WorkerPool.class).capacity()).isEqualTo(8);
            assertThat(context.getBean("reports", WorkerPool.class).capacity()).isEqualTo(2);
            assertThat(context.getBean("image-rendering", WeightedSemaphore.class).size()).isEqualTo(512);
            assertThat(context.getBean("delayScheduler", DelayScheduler.class).isShutdown()).isFalse();

            ApiClient api = new ApiClient(context.getEnvironment().getRequiredProperty("local.server.port",
                    Integer.class));
            Answer pools = api.get("/actuator/pools");
            assertThat(pools.status()).isEqualTo(200);
            assertThat(pools.body()).contains("\"workerPool\"", "\"reports\"", "\"image-rendering\"");
            Answer reports = api.get("/actuator/pools/reports");
            assertThat(reports.status()).isEqualTo(200);
            assertThat(reports.body()).contains("\"capacity\":2");
            Answer jobs = api.post("/api/pools/reports/jobs?count=1&millis=0");
            assertThat(jobs.status()).isEqualTo(200);
            assertThat(jobs.body()).contains("\"accepted\":1");
        }
    }
}
