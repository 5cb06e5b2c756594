package io.github.poolkit.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The web server's request thread pool as the endpoint's {@code webServer} executor, and an application executor
 * bean, over real HTTP on a real server on port 0: read, steered through the pool's own setters, refused with a
 * problem naming the field and the type, and metered. Each subclass picks its server with its factory bean.
 */
@Timeout(60)
abstract class WebServerExecutorHttpTests {

    private static final JsonMapper json = JsonMapper.builder().build();

    private final HttpClient http = HttpClient.newHttpClient();

    @LocalServerPort
    private int port;

    /** @return the simple class name of the server's request thread pool */
    abstract String poolType();

    /** @return the server's default minimum of threads */
    abstract int defaultCoreSize();

    /** @return whether the server's pool counts its completed tasks */
    abstract boolean countsCompleted();

    @Test
    void listsTheWebServersPoolBesidePoolkitsPools() throws Exception {
        JsonNode body = getJson("/actuator/pools");
        assertThat(body.get("pools").has("workerPool")).isTrue();
        JsonNode webServer = body.get("executors").get("webServer");
        assertThat(webServer.get("type").asString()).isEqualTo(poolType());
        assertThat(webServer.get("capacity").asInt()).isPositive();
        assertThat(webServer.get("coreSize").asInt()).isLessThanOrEqualTo(webServer.get("capacity").asInt());
        assertThat(webServer.get("running").asInt()).isPositive();
        assertThat(webServer.get("busy").asInt()).isPositive().as("this request");
        assertThat(webServer.has("queued")).isTrue();
        assertThat(webServer.has("completed")).isEqualTo(countsCompleted());
        JsonNode own = body.get("executors").get("ownPool");
        assertThat(own.get("type").asString()).isEqualTo("ThreadPoolExecutor");
        assertThat(own.get("capacity").asInt()).isEqualTo(3);
        assertThat(getJson("/actuator/pools/webServer").get("type").asString()).isEqualTo(poolType());
    }

    @Test
    void startsWithTheServersDefaults() throws Exception {
        JsonNode webServer = getJson("/actuator/pools/webServer"); // the one test that changes them puts them back
        assertThat(webServer.get("capacity").asInt()).isEqualTo(200);
        assertThat(webServer.get("coreSize").asInt()).isEqualTo(defaultCoreSize());
    }

    @Test
    void steersTheWebServersPoolThroughItsOwnSetters() throws Exception {
        try {
            HttpResponse<String> grown = post("/actuator/pools/webServer", "{\"capacity\": 300, \"coreSize\": 250}");
            assertThat(grown.statusCode()).as(grown.body()).isEqualTo(200);
            assertThat(json.readTree(grown.body()).get("capacity").asInt()).isEqualTo(300);
            assertThat(json.readTree(grown.body()).get("coreSize").asInt()).isEqualTo(250);
            HttpResponse<String> shrunk = post("/actuator/pools/webServer", "{\"capacity\": 50, \"coreSize\": 5}");
            assertThat(shrunk.statusCode()).as(shrunk.body()).isEqualTo(200);
            JsonNode webServer = getJson("/actuator/pools/webServer");
            assertThat(webServer.get("capacity").asInt()).isEqualTo(50);
            assertThat(webServer.get("coreSize").asInt()).isEqualTo(5);
            assertThat(getJson("/actuator/metrics/executor.pool.max?tag=name:webServer").get("measurements").get(0)
                    .get("value").asDouble()).isEqualTo(50);
        }
        finally { // the server's defaults back, for the other tests of this shared server
            assertThat(post("/actuator/pools/webServer", "{\"capacity\": 200, \"coreSize\": " + defaultCoreSize()
                    + "}").statusCode()).isEqualTo(200);
        }
    }

    @Test
    void refusesBadChangesNamingTheFieldAndTheType() throws Exception {
        assertProblem(post("/actuator/pools/webServer", "{\"coreSize\": 100000}"), "coreSize", "above");
        assertProblem(post("/actuator/pools/webServer", "{\"capacity\": -1}"), "capacity", "positive");
        assertProblem(post("/actuator/pools/webServer", "{\"coreSize\": -2}"), "coreSize", "negative");
        assertProblem(post("/actuator/pools/webServer", "{\"capacity\": 1, \"coreSize\": 2}"), "coreSize", "above");
        assertProblem(post("/actuator/pools/webServer", "{\"maxWait\": \"1s\"}"), "maxWait", poolType());
        assertProblem(post("/actuator/pools/webServer", "{\"size\": 4}"), "size", poolType());
        assertProblem(post("/actuator/pools/webServer", "{\"capacity\": 60, \"capasity\": 4}"), "capasity",
                poolType());
        assertProblem(post("/actuator/pools/webServer", "{\"queueCapacity\": 4}"), "queueCapacity", poolType());
        assertProblem(post("/actuator/pools/ownPool", "{\"capacity\": 2, \"coreSize\": 3}"), "coreSize", "above");
        JsonNode webServer = getJson("/actuator/pools/webServer");
        assertThat(webServer.get("coreSize").asInt()).isLessThanOrEqualTo(webServer.get("capacity").asInt());
        assertThat(getJson("/actuator/pools/ownPool").get("capacity").asInt()).isEqualTo(3);
    }

    @Test
    void metersTheExecutorsNobodyMeters() throws Exception {
        assertThat(getJson("/actuator/metrics/executor.pool.max?tag=name:ownPool").get("measurements").get(0)
                .get("value").asDouble()).isEqualTo(3);
        assertThat(getJson("/actuator/metrics/executor.queue.remaining?tag=name:ownPool").get("measurements").get(0)
                .get("value").asDouble()).isEqualTo(5);
        assertThat(getJson("/actuator/metrics/executor.active?tag=name:webServer").get("measurements").get(0)
                .get("value").asDouble()).isGreaterThanOrEqualTo(0);
        assertThat(getJson("/actuator/metrics/executor.pool.size?tag=name:webServer").get("measurements").get(0)
                .get("value").asDouble()).isPositive();
        HttpResponse<String> completed = send(HttpRequest.newBuilder(
                uri("/actuator/metrics/executor.completed?tag=name:webServer")).GET());
        assertThat(completed.statusCode()).isEqualTo(countsCompleted() ? 200 : 404);
    }

    private void assertProblem(HttpResponse<String> response, String field, String detail) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/problem+json"));
        JsonNode problem = json.readTree(response.body());
        assertThat(problem.get("field").asString()).isEqualTo(field);
        assertThat(problem.get("detail").asString()).contains(detail);
    }

    HttpResponse<String> post(String path, String body) throws Exception {
        return send(HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    JsonNode getJson(String path) throws Exception {
        HttpResponse<String> response = send(HttpRequest.newBuilder(uri(path)).GET());
        assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(200);
        return json.readTree(response.body());
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private URI uri(String path) {
        return URI.create("http://localhost:" + port + path);
    }

    /** An executor bean of the application's own, which nobody else meters. */
    @Configuration(proxyBeanMethods = false)
    static class OwnExecutor {

        @Bean(destroyMethod = "shutdownNow")
        ThreadPoolExecutor ownPool() {
            return new ThreadPoolExecutor(1, 3, 1, TimeUnit.MINUTES, new LinkedBlockingQueue<>(5));
        }
    }
}
