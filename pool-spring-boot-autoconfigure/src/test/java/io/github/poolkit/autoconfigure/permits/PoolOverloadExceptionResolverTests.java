package io.github.poolkit.autoconfigure.permits;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.RejectedExecutionException;

import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

import io.github.poolkit.PoolOverloadException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The 429 answer's body is valid JSON whatever the message holds, and other exceptions are left alone. */
class PoolOverloadExceptionResolverTests {

    private final PoolOverloadExceptionResolver resolver = new PoolOverloadExceptionResolver();

    @Test
    void writesAProblemDocumentThatSurvivesQuotesAndControlCharacters() throws Exception {
        MockHttpServletResponse response = new MockHttpServletResponse();
        String message = "semaphore \"gpu\\0\"\n\tfull \u0001";
        assertThat(resolver.resolveException(new MockHttpServletRequest("GET", "/render"), response, null,
                new PoolOverloadException(message))).isNotNull();
        assertThat(response.getStatus()).isEqualTo(429);
        assertThat(response.getHeader("Retry-After")).isEqualTo("1");
        assertThat(response.getContentType()).startsWith("application/problem+json");
        JsonNode problem = JsonMapper.builder().build().readTree(response.getContentAsString());
        assertThat(problem.get("detail").asString()).isEqualTo(message);
        assertThat(problem.get("instance").asString()).isEqualTo("/render");
        assertThat(problem.get("type").asString()).isEqualTo("about:blank");
    }

    @Test
    void leavesOtherExceptionsToTheRest() {
        MockHttpServletResponse response = new MockHttpServletResponse();
        assertThat(resolver.resolveException(new MockHttpServletRequest(), response, null,
                new RejectedExecutionException("closed"))).isNull();
        assertThat(response.getStatus()).isEqualTo(200);
    }
}
