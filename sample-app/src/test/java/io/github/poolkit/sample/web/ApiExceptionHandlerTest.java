package io.github.poolkit.sample.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import io.github.poolkit.PoolOverloadException;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

/**
 * The answers {@link ApiExceptionHandler} builds for the outcomes the end-to-end test cannot provoke: an
 * unexpected failure (no internals leak) and the rounding of the {@code Retry-After} hint.
 */
class ApiExceptionHandlerTest {

    private final ApiExceptionHandler handler = new ApiExceptionHandler();

    @Test
    void unexpectedFailureIs500WithoutItsMessage() {
        ProblemDetail problem = handler.unexpected(new IllegalStateException("db password is hunter2"));

        assertThat(problem.getStatus()).isEqualTo(500);
        assertThat(problem.getDetail()).doesNotContain("hunter2").contains("log");
    }

    @Test
    void interruptedRequestThreadKeepsItsInterruptStatus() {
        try {
            ProblemDetail problem = handler.unexpected(new InterruptedException("stop"));

            assertThat(problem.getStatus()).isEqualTo(500);
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void overloadIs429WithRetryAfterRoundedUpToWholeSeconds() {
        ResponseEntity<ProblemDetail> answer =
                handler.overloaded(new OverloadedException("busy", Duration.ofMillis(1001), null));

        assertThat(answer.getStatusCode().value()).isEqualTo(429);
        assertThat(answer.getHeaders().getFirst(HttpHeaders.RETRY_AFTER)).isEqualTo("2");
        assertThat(answer.getBody().getDetail()).isEqualTo("busy");
        assertThat(handler.overloaded(new OverloadedException("busy", Duration.ZERO, null))
                .getHeaders().getFirst(HttpHeaders.RETRY_AFTER)).isEqualTo("1");
    }

    @Test
    void poolRefusalOutsideTheSamplesChecksIs429() {
        assertThat(handler.rejected(new PoolOverloadException("full")).getStatus()).isEqualTo(429);
    }
}
