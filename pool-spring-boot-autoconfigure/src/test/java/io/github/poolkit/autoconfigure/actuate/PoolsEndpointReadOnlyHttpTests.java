package io.github.poolkit.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import io.github.poolkit.WorkerPool;
import tools.jackson.databind.JsonNode;

/** With the endpoint's default (read-only) access, reading works and the write operation answers 405. */
@SpringBootTest(classes = PoolsActuatorHttpTests.WebApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = { "management.endpoints.web.exposure.include=pools", "poolkit.pools.reports.capacity=4" })
@Timeout(60)
class PoolsEndpointReadOnlyHttpTests {

    @LocalServerPort
    private int port;

    @Autowired
    private Map<String, WorkerPool> pools;

    @Test
    void writeIsRefusedByDefault() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        URI reports = URI.create("http://localhost:" + port + "/actuator/pools/reports");
        HttpResponse<String> post = http.send(HttpRequest.newBuilder(reports)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"capacity\": 8}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(post.statusCode()).isEqualTo(405);
        assertThat(pools.get("reports").capacity()).isEqualTo(4);
        HttpResponse<String> get = http.send(HttpRequest.newBuilder(reports).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(get.statusCode()).isEqualTo(200);
        assertThat(get.body()).contains("\"capacity\":4");
    }

    @Test
    void readingOneEntryFollowsThePathAloneAndTheDiscoveryPageLinksItOnce() throws Exception {
        EndpointClient client = new EndpointClient(port);
        assertThat(client.getJson("/actuator/pools/reports?name=nothing").get("capacity").asInt()).isEqualTo(4);
        HttpResponse<String> redirected = client.get("/actuator/pools/reports?beanName=nothing");
        assertThat(redirected.statusCode()).as(redirected.body()).isEqualTo(400);
        JsonNode links = client.getJson("/actuator").get("_links");
        assertThat(links.propertyNames().stream().filter(name -> name.startsWith("pools")).toList())
                .as(links.toString()).containsExactlyInAnyOrder("pools", "pools-beanName");
        assertThat(links.get("pools-beanName").get("templated").asBoolean()).isTrue();
    }
}
