package io.github.poolkit.autoconfigure.permits;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import io.github.poolkit.PoolOverloadException;
import io.github.poolkit.WeightedSemaphore;
import io.github.poolkit.annotation.Permits;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** {@link Permits} on MVC controllers over real HTTP: 429 with Retry-After and a problem body, unless mapped. */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "poolkit.semaphores.gpu.size=10")
@Timeout(60)
class PermitsHttpTests {

    private final HttpClient http = HttpClient.newHttpClient();

    @LocalServerPort
    private int port;

    @Autowired
    @Qualifier("gpu")
    private WeightedSemaphore gpu;

    @Test
    void permitsThatDoNotComeAnswer429WithRetryAfterAndAProblemBody() throws Exception {
        assertThat(get("/guarded?mb=6").statusCode()).isEqualTo(200);
        gpu.acquire(8);
        try {
            HttpResponse<String> refused = get("/guarded?mb=6");
            assertThat(refused.statusCode()).isEqualTo(429);
            assertThat(refused.headers().firstValue("Retry-After")).hasValue("1");
            assertThat(refused.headers().firstValue("Content-Type")).hasValueSatisfying(
                    type -> assertThat(type).startsWith("application/problem+json"));
            JsonNode problem = JsonMapper.builder().build().readTree(refused.body());
            assertThat(problem.get("status").asInt()).isEqualTo(429);
            assertThat(problem.get("title").asString()).isEqualTo("Too Many Requests");
            assertThat(problem.get("detail").asString()).contains("6 permits of semaphore 'gpu'");
            assertThat(problem.get("instance").asString()).isEqualTo("/guarded");
        }
        finally {
            gpu.release(8);
        }
        assertThat(gpu.used()).isZero();
    }

    @Test
    void anApplicationsOwnMappingWins() throws Exception {
        gpu.acquire(10);
        try {
            HttpResponse<String> refused = get("/mapped");
            assertThat(refused.statusCode()).isEqualTo(503);
            assertThat(refused.body()).isEqualTo("busy, mapped by the application");
        }
        finally {
            gpu.release(10);
        }
    }

    /**
     * A handler that set the headers of its own body (a CSV download) before the refusal: the 429's problem body is
     * labelled as what it is, not as the handler's CSV attachment.
     */
    @Test
    void aRefusalReplacesTheContentHeadersTheHandlerSet() throws Exception {
        gpu.acquire(10);
        try {
            HttpResponse<String> refused = get("/download");
            assertThat(refused.statusCode()).isEqualTo(429);
            assertThat(refused.headers().firstValue("Content-Type")).hasValueSatisfying(
                    type -> assertThat(type).startsWith("application/problem+json"));
            assertThat(refused.headers().firstValue("Content-Disposition")).isEmpty();
            assertThat(refused.headers().firstValue("Content-Language")).isEmpty();
            assertThat(JsonMapper.builder().build().readTree(refused.body()).get("status").asInt()).isEqualTo(429);
        }
        finally {
            gpu.release(10);
        }
        HttpResponse<String> ok = get("/download");
        assertThat(ok.statusCode()).isEqualTo(200);
        assertThat(ok.headers().firstValue("Content-Disposition")).hasValue("attachment; filename=report.csv");
        assertThat(ok.body()).isEqualTo("a,b\n");
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import({ GuardedController.class, MappingController.class, DownloadController.class, GuardedReport.class })
    static class WebApplication {
    }

    @RestController
    static class GuardedController {

        @GetMapping("/guarded")
        @Permits(value = "gpu", weight = "#mb")
        public String guarded(@RequestParam int mb) {
            return "rendered " + mb;
        }
    }

    /** Sets the headers of its own body, then calls a guarded service. */
    @RestController
    static class DownloadController {

        private final GuardedReport report;

        DownloadController(GuardedReport report) {
            this.report = report;
        }

        @GetMapping("/download")
        public void download(HttpServletResponse response) throws IOException {
            response.setContentType("text/csv");
            response.setHeader("Content-Disposition", "attachment; filename=report.csv");
            response.setHeader("Content-Language", "fr");
            response.setContentLengthLong(4);
            String csv = report.csv();
            response.getWriter().write(csv);
        }
    }

    /** A guarded service. */
    static class GuardedReport {

        @Permits("gpu")
        public String csv() {
            return "a,b\n";
        }
    }

    @RestController
    static class MappingController {

        @GetMapping("/mapped")
        @Permits("gpu")
        public String mapped() {
            return "ok";
        }

        @ExceptionHandler(PoolOverloadException.class)
        ResponseEntity<String> busy(PoolOverloadException ex) {
            return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).body("busy, mapped by the application");
        }
    }
}
