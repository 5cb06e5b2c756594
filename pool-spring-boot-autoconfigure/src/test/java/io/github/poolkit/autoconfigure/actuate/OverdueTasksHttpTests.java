package io.github.poolkit.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
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
import org.springframework.context.event.EventListener;

import io.github.poolkit.DelayScheduler;
import io.github.poolkit.OverdueTask;
import io.github.poolkit.WorkerPool;
import io.github.poolkit.autoconfigure.PoolTaskOverdueEvent;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Overdue tasks in a real web application: each gives one WARN line with the worker's stack, a
 * {@link PoolTaskOverdueEvent}, the {@code poolkit.pool.tasks.overdue} counter and an entry in
 * {@code GET /actuator/pools/{name}}; named pools and the scheduler inherit {@code poolkit.pool.run-timeout}.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
        "management.endpoints.web.exposure.include=pools,metrics,health",
        "management.endpoint.health.show-details=always",
        "management.endpoint.pools.access=unrestricted",
        "poolkit.pool.run-timeout=300ms",
        "poolkit.pools.hung.capacity=1",
        "poolkit.pools.hung.queue-capacity=5",
        "poolkit.pools.hung.queue-timeout=300ms",
        "poolkit.pools.many.capacity=12",
        "poolkit.scheduler.workers=1" })
@ExtendWith(OutputCaptureExtension.class)
@Timeout(60)
class OverdueTasksHttpTests {

    private static final JsonMapper json = JsonMapper.builder().build();

    private final HttpClient http = HttpClient.newHttpClient();

    @LocalServerPort
    private int port;

    @Autowired
    @Qualifier("hung")
    private WorkerPool hung;

    @Autowired
    @Qualifier("many")
    private WorkerPool many;

    @Autowired
    private DelayScheduler scheduler;

    @Autowired
    private Events events;

    /** A task named for the reports that blocks until released. */
    record Hanging(String name, CountDownLatch started, CountDownLatch release) implements Runnable {
        Hanging(String name) {
            this(name, new CountDownLatch(1), new CountDownLatch(1));
        }

        @Override
        public void run() {
            started.countDown();
            hangHere();
        }

        private void hangHere() {
            try {
                release.await(30, TimeUnit.SECONDS);
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public String toString() {
            return name;
        }
    }

    @Test
    void aRunningTaskPastItsRunTimeoutIsLoggedPublishedCountedAndListed(CapturedOutput output) throws Exception {
        Hanging task = new Hanging("hung-report-job");
        Hanging queued = new Hanging("queued-report-job");
        try {
            hung.execute(task);
            task.started().await(10, TimeUnit.SECONDS);
            hung.execute(queued);
            OverdueTask run = events.awaitOne("hung", OverdueTask.Kind.RUN);
            assertThat(run.task()).isEqualTo("hung-report-job");
            assertThat(run.thread()).startsWith("hung-");
            OverdueTask waiting = events.awaitOne("hung", OverdueTask.Kind.QUEUE);
            assertThat(waiting.task()).isEqualTo("queued-report-job");

            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(output.getOut())
                    .contains("Overdue task on pool 'hung': kind RUN, running for ")
                    .contains("task 'hung-report-job', thread '" + run.thread() + "'")
                    .contains("Overdue task on pool 'hung': kind QUEUE, waiting to start for ")
                    .contains("task 'queued-report-job', thread none"));
            List<String> lines = output.getOut().lines().toList();
            int at = 0;
            while (!lines.get(at).contains("Overdue task on pool 'hung': kind RUN")) {
                at++;
            }
            assertThat(lines.get(at)).contains("WARN").contains("hung-report-job");
            assertThat(lines.subList(at + 1, Math.min(lines.size(), at + 40)))
                    .anySatisfy(line -> assertThat(line).contains("stack of worker '" + run.thread() + "'"))
                    .anySatisfy(line -> assertThat(line).contains("at ").contains("hangHere"));

            // the counters hear of each report after the listener that publishes the event: await them too
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                assertThat(counter("hung", "run")).isEqualTo(1);
                assertThat(counter("hung", "queue")).isEqualTo(1);
            });

            JsonNode entry = getJson("/actuator/pools/hung");
            assertThat(entry.get("overdue").asLong()).isEqualTo(2);
            JsonNode recent = entry.get("recentOverdue");
            assertThat(recent.size()).isEqualTo(2);
            List<String> kinds = new ArrayList<>();
            recent.forEach(node -> kinds.add(node.get("kind").asString()));
            assertThat(kinds).containsExactlyInAnyOrder("run", "queue");
            for (JsonNode node : recent) {
                assertThat(node.get("elapsedMs").asLong()).isGreaterThanOrEqualTo(300);
                assertThat(Instant.parse(node.get("at").asString())).isBeforeOrEqualTo(Instant.now());
                if (node.get("kind").asString().equals("run")) {
                    assertThat(node.propertyNames()).containsExactlyInAnyOrder("kind", "task", "thread", "elapsedMs",
                            "at");
                    assertThat(node.get("task").asString()).isEqualTo("hung-report-job");
                    assertThat(node.get("thread").asString()).isEqualTo(run.thread());
                }
                else {
                    assertThat(node.propertyNames()).as("every entry has the five keys, thread null for QUEUE")
                            .containsExactlyInAnyOrder("kind", "task", "thread", "elapsedMs", "at");
                    assertThat(node.get("thread").isNull()).isTrue();
                    assertThat(node.get("task").asString()).isEqualTo("queued-report-job");
                }
            }
            JsonNode changed = postJson("/actuator/pools/hung", "{\"capacity\": 1}");
            assertThat(changed.get("recentOverdue").size()).isEqualTo(2);
            changed.get("recentOverdue").forEach(node -> assertThat(node.propertyNames())
                    .containsExactlyInAnyOrder("kind", "task", "thread", "elapsedMs", "at"));
            assertThat(getJson("/actuator/pools").get("pools").get("hung").get("overdue").asLong()).isEqualTo(2);
        }
        finally {
            task.release().countDown();
            queued.release().countDown();
        }
    }

    @Test
    void theEndpointKeepsTheLatestTenNewestFirst() throws Exception {
        List<Hanging> tasks = new ArrayList<>();
        try {
            for (int i = 0; i < 12; i++) {
                Hanging task = new Hanging("many-" + i);
                tasks.add(task);
                many.execute(task);
            }
            await().atMost(Duration.ofSeconds(15)).until(() -> events.of("many").size() == 12);
            JsonNode entry = getJson("/actuator/pools/many");
            assertThat(entry.get("overdue").asLong()).isEqualTo(12);
            JsonNode recent = entry.get("recentOverdue");
            assertThat(recent.size()).isEqualTo(10);
            List<Instant> at = new ArrayList<>();
            recent.forEach(node -> at.add(Instant.parse(node.get("at").asString())));
            for (int i = 1; i < at.size(); i++) {
                assertThat(at.get(i)).isBeforeOrEqualTo(at.get(i - 1));
            }
            List<String> reported = events.of("many").stream().map(OverdueTask::task).toList();
            assertThat(recent.get(0).get("task").asString()).isEqualTo(reported.get(reported.size() - 1));
            JsonNode health = getJson("/actuator/health/pools").get("details").get("pools").get("many");
            assertThat(health.get("recentOverdue")).as("the health details show them as the endpoint does")
                    .hasSize(10);
        }
        finally {
            tasks.forEach(task -> task.release().countDown());
        }
    }

    @Test
    void theSchedulerInheritsTheRunTimeout() throws Exception {
        Hanging job = new Hanging("nightly-export");
        try {
            scheduler.scheduleOnce(job, Duration.ofMillis(1));
            OverdueTask run = events.awaitOne("delayScheduler", OverdueTask.Kind.RUN);
            assertThat(run.task()).isEqualTo("nightly-export");
            await().atMost(Duration.ofSeconds(10))
                    .untilAsserted(() -> assertThat(counter("delayScheduler", "run")).isEqualTo(1));
            JsonNode entry = getJson("/actuator/pools/delayScheduler");
            assertThat(entry.get("overdue").asLong()).isEqualTo(1);
            assertThat(entry.get("recentOverdue").get(0).get("task").asString()).isEqualTo("nightly-export");
        }
        finally {
            job.release().countDown();
        }
    }

    private double counter(String pool, String kind) throws Exception {
        JsonNode metric = getJson("/actuator/metrics/poolkit.pool.tasks.overdue?tag=name:" + pool
                + "&tag=kind:" + kind);
        return metric.get("measurements").get(0).get("value").asDouble();
    }

    private JsonNode postJson(String path, String body) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(path + " " + response.body()).isEqualTo(200);
        return json.readTree(response.body());
    }

    private JsonNode getJson(String path) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(path).isEqualTo(200);
        return json.readTree(response.body());
    }

    /** Collects the {@link PoolTaskOverdueEvent}s, checking each comes from a thread that is not the pool's. */
    static class Events {
        final List<OverdueTask> received = new CopyOnWriteArrayList<>();
        final List<String> threads = new CopyOnWriteArrayList<>();
        final List<Object> sources = new CopyOnWriteArrayList<>();

        @EventListener
        void on(PoolTaskOverdueEvent event) {
            sources.add(event.getSource());
            received.add(event.getOverdueTask());
            threads.add(Thread.currentThread().getName());
        }

        List<OverdueTask> of(String pool) {
            return received.stream().filter(t -> t.pool().equals(pool)).toList();
        }

        OverdueTask awaitOne(String pool, OverdueTask.Kind kind) {
            await().atMost(Duration.ofSeconds(10)).until(() -> of(pool).stream().anyMatch(t -> t.kind() == kind));
            assertThat(threads).allMatch(name -> name.startsWith("poolkit-overdue"));
            return of(pool).stream().filter(t -> t.kind() == kind).findFirst().orElseThrow();
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class WebApplication {

        @Bean
        Events events() {
            return new Events();
        }
    }
}
