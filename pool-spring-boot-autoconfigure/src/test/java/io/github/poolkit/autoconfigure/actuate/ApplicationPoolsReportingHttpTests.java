package io.github.poolkit.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;

import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;

import io.github.poolkit.DelayScheduler;
import io.github.poolkit.MultiPool;
import io.github.poolkit.OverdueTask;
import io.github.poolkit.PoolOptions;
import io.github.poolkit.WorkerPool;
import io.github.poolkit.autoconfigure.PoolTaskOverdueEvent;
import io.github.poolkit.autoconfigure.actuate.OverdueTasksHttpTests.Events;
import io.github.poolkit.autoconfigure.actuate.OverdueTasksHttpTests.Hanging;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Pools and a scheduler the application makes itself get what poolkit's own get: the task timers {@code executor}
 * and {@code executor.idle}, and each overdue task's WARN line, {@link PoolTaskOverdueEvent}, counter and entry in
 * {@code GET /actuator/pools/{name}}; nothing is registered twice, for theirs or for poolkit's.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = "management.endpoints.web.exposure.include=pools,metrics")
@ExtendWith(OutputCaptureExtension.class)
@Timeout(60)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class) // the exact counts first, before the hanging tasks
class ApplicationPoolsReportingHttpTests {

    private static final JsonMapper json = JsonMapper.builder().build();

    private final HttpClient http = HttpClient.newHttpClient();

    @LocalServerPort
    private int port;

    @Autowired
    @Qualifier("mine")
    private WorkerPool mine;

    @Autowired
    @Qualifier("ticks")
    private DelayScheduler ticks;

    @Autowired
    @Qualifier("spread")
    private MultiPool spread;

    @Autowired
    @Qualifier("workerPool")
    private WorkerPool workerPool;

    @Autowired
    private MeterRegistry registry;

    @Autowired
    private Events events;

    @Test
    @Order(1)
    void theApplicationsPoolsSchedulerAndMultiPoolAreTimedOnceForEachTask() throws Exception {
        for (int i = 0; i < 3; i++) {
            mine.execute(() -> { });
        }
        for (int i = 0; i < 4; i++) {
            spread.execute(() -> { });
        }
        ticks.schedule(() -> { }, 1, TimeUnit.MILLISECONDS).get(10, TimeUnit.SECONDS);
        ticks.submit(() -> { }).get(10, TimeUnit.SECONDS);
        workerPool.execute(() -> { });
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(count("executor", "mine")).isEqualTo(3);
            assertThat(count("executor.idle", "mine")).isEqualTo(3);
            assertThat(count("executor", "spread")).isEqualTo(4);
            assertThat(count("executor.idle", "spread")).isEqualTo(4);
            assertThat(count("executor", "ticks")).isEqualTo(2);
            assertThat(count("executor.idle", "ticks")).isEqualTo(2);
            assertThat(count("executor", "workerPool")).isEqualTo(1);
        });
        for (String name : List.of("mine", "spread", "ticks", "workerPool")) {
            for (String meter : List.of("executor", "executor.idle", "poolkit.pool.task.duration",
                    "poolkit.pool.task.wait")) {
                assertThat(registry.find(meter).tag("name", name).timers()).as(meter + " " + name).hasSize(1);
            }
            assertThat(registry.find("poolkit.pool.tasks.overdue").tag("name", name).counters()).as(name).hasSize(2);
        }
        JsonNode timer = getJson("/actuator/metrics/executor?tag=name:mine");
        assertThat(timer.get("measurements").get(0).get("value").asDouble()).isEqualTo(3);
    }

    @Test
    void anOverdueTaskOfTheApplicationsPoolIsLoggedPublishedCountedAndListed(CapturedOutput output) throws Exception {
        Hanging task = new Hanging("mine-stuck-job");
        try {
            mine.execute(task);
            OverdueTask run = events.awaitOne("mine", OverdueTask.Kind.RUN);
            assertThat(run.kind()).isEqualTo(OverdueTask.Kind.RUN);
            assertThat(run.task()).isEqualTo("mine-stuck-job");
            assertThat(events.sources).contains(mine);
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(output.getOut())
                    .contains("Overdue task on pool 'mine': kind RUN, running for ")
                    .contains("task 'mine-stuck-job', thread '" + run.thread() + "'"));
            assertThat(counter("mine", "run")).isEqualTo(1);
            JsonNode entry = getJson("/actuator/pools/mine");
            assertThat(entry.get("overdue").asLong()).isEqualTo(1);
            JsonNode recent = entry.get("recentOverdue");
            assertThat(recent.size()).isEqualTo(1);
            assertThat(recent.get(0).get("kind").asString()).isEqualTo("run");
            assertThat(recent.get(0).get("task").asString()).isEqualTo("mine-stuck-job");
            assertThat(recent.get(0).get("thread").asString()).isEqualTo(run.thread());
            assertThat(recent.get(0).get("elapsedMs").asLong()).isGreaterThanOrEqualTo(300);
        }
        finally {
            task.release().countDown();
        }
    }

    @Test
    void anOverdueJobOfTheApplicationsSchedulerIsListed() throws Exception {
        Hanging job = new Hanging("ticks-stuck-job");
        try {
            ticks.scheduleOnce(job, Duration.ofMillis(1));
            OverdueTask run = events.awaitOne("ticks", OverdueTask.Kind.RUN);
            assertThat(run.task()).isEqualTo("ticks-stuck-job");
            assertThat(counter("ticks", "run")).isEqualTo(1);
            JsonNode recent = getJson("/actuator/pools/ticks").get("recentOverdue");
            assertThat(recent.size()).isEqualTo(1);
            assertThat(recent.get(0).get("task").asString()).isEqualTo("ticks-stuck-job");
        }
        finally {
            job.release().countDown();
        }
    }

    private double count(String timer, String name) {
        return registry.get(timer).tag("name", name).timer().count();
    }

    private double counter(String pool, String kind) {
        return registry.get("poolkit.pool.tasks.overdue").tag("name", pool).tag("kind", kind).counter().count();
    }

    private JsonNode getJson(String path) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(path).isEqualTo(200);
        return json.readTree(response.body());
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class WebApplication {

        @Bean
        Events events() {
            return new Events();
        }

        @Bean
        WorkerPool mine() {
            return WorkerPool.create(2, PoolOptions.builder().name("mine").runTimeout(Duration.ofMillis(300)).build());
        }

        @Bean
        DelayScheduler ticks() {
            return DelayScheduler.create(1, PoolOptions.builder().name("ticks").runTimeout(Duration.ofMillis(300))
                    .build());
        }

        @Bean
        MultiPool spread() {
            return MultiPool.create(2, 1, MultiPool.LoadBalancing.ROUND_ROBIN,
                    PoolOptions.builder().name("spread").queueCapacity(10).build());
        }
    }
}
