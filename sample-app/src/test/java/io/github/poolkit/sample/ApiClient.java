package io.github.poolkit.sample;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A small blocking HTTP client for the sample's tests: one method per verb, answers read whole as text and parsed
 * as JSON on demand. Built on {@link HttpClient}, so the tests exercise the real server over a real socket.
 */
final class ApiClient {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;

    /**
     * Creates a client for the server on {@code localhost:port}.
     *
     * @param port the server's port
     */
    ApiClient(int port) {
        this.base = "http://localhost:" + port;
    }

    /** One answer: the status, the content type and the body. */
    record Answer(int status, String contentType, String retryAfter, String body) {

        /**
         * Parses the body as JSON.
         *
         * @return the parsed body
         */
        JsonNode json() {
            return JSON.readTree(body);
        }
    }

    Answer get(String path) {
        return send(request(path).GET());
    }

    Answer post(String path) {
        return send(request(path).POST(HttpRequest.BodyPublishers.noBody()));
    }

    Answer postJson(String path, String json) {
        return send(request(path).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    Answer delete(String path) {
        return send(request(path).DELETE());
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30));
    }

    private Answer send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Answer(response.statusCode(),
                    response.headers().firstValue("Content-Type").orElse(""),
                    response.headers().firstValue("Retry-After").orElse(null),
                    response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the server", e);
        }
    }
}
