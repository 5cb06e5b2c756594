package io.github.poolkit.sample.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;

import io.github.poolkit.PoolClosedException;
import io.github.poolkit.PoolOverloadException;
import io.github.poolkit.autoconfigure.permits.RetryAfterEstimator;
import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.support.StaticListableBeanFactory;
import org.springframework.core.task.TaskRejectedException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

/**
 * The answers {@link ApiExceptionHandler} builds for the outcomes the end-to-end test cannot provoke: an
 * unexpected failure (no internals leak) and the rounding of the {@code Retry-After} hint.
 */
class ApiExceptionHandlerTest {

    /** No estimator (as without Spring MVC's {@code @Permits} support): one second. */
    private final ApiExceptionHandler handler = new ApiExceptionHandler(
            new StaticListableBeanFactory().getBeanProvider(RetryAfterEstimator.class));

    private final Logger handlerLog = (Logger) LoggerFactory.getLogger(ApiExceptionHandler.class);
    private final ListAppender<ILoggingEvent> logged = new ListAppender<>();

    /** Captures the handler's log instead of printing it: the stack traces below are expected. */
    @BeforeEach
    void captureLog() {
        logged.start();
        handlerLog.addAppender(logged);
        handlerLog.setAdditive(false);
    }

    @AfterEach
    void releaseLog() {
        handlerLog.detachAppender(logged);
        handlerLog.setAdditive(true);
    }

    @Test
    void unexpectedFailureIs500WithoutItsMessageWhichGoesToTheLog() {
        IllegalStateException failure = new IllegalStateException("db password is hunter2");

        ProblemDetail problem = handler.unexpected(failure);

        assertThat(problem.getStatus()).isEqualTo(500);
        assertThat(problem.getDetail()).doesNotContain("hunter2").contains("log");
        assertThat(logged.list).singleElement().satisfies(event -> {
            assertThat(event.getLevel()).isEqualTo(Level.ERROR);
            assertThat(event.getThrowableProxy().getMessage()).isEqualTo("db password is hunter2");
        });
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
    void anOverloadBehindSpringsTaskRejectedIs429AndAnyOtherRefusalIs503() {
        ResponseEntity<ProblemDetail> overload = handler.rejected(
                new TaskRejectedException("@Async", new PoolOverloadException("full")));
        assertThat(overload.getStatusCode().value()).isEqualTo(429);
        assertThat(overload.getBody().getDetail()).as("the overload's own words").isEqualTo("full");
        assertThat(handler.rejected(new PoolClosedException("closed")).getStatusCode().value()).isEqualTo(503);
        assertThat(handler.rejected(new RejectedExecutionException("interrupted", new InterruptedException()))
                .getStatusCode().value()).isEqualTo(503);
    }

    @Test
    void poolRefusalOutsideTheSamplesChecksIs429() {
        assertThat(handler.rejected(new PoolOverloadException("full")).getStatusCode().value()).isEqualTo(429);
        assertThat(handler.rejected(new PoolOverloadException("full")).getHeaders().getFirst("Retry-After"))
                .isEqualTo("1");
    }
}
