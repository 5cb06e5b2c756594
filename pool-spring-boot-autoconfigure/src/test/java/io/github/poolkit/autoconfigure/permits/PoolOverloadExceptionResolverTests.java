package io.github.poolkit.autoconfigure.permits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;

import org.junit.jupiter.api.Test;
import org.springframework.core.ResolvableType;
import org.springframework.core.task.TaskRejectedException;
import org.springframework.http.HttpOutputMessage;
import org.springframework.http.converter.HttpMessageNotWritableException;
import org.springframework.http.converter.json.JacksonJsonHttpMessageConverter;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

import io.github.poolkit.PoolClosedException;
import io.github.poolkit.PoolOverloadException;
import io.github.poolkit.WeightedSemaphore;
import reactor.core.publisher.Mono;
import reactor.util.retry.Retry;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The 429 answer: a problem document written by Jackson whatever the message holds, for the overload itself and for
 * a rejection caused by one, with the estimated Retry-After; other exceptions are left alone.
 */
class PoolOverloadExceptionResolverTests {

    private final RetryAfterEstimator estimator = new RetryAfterEstimator(null, null);

    private final PoolOverloadExceptionResolver resolver = new PoolOverloadExceptionResolver(estimator,
            () -> List.of(new JacksonJsonHttpMessageConverter()));

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
        assertThat(problem.get("title").asString()).isEqualTo("Too Many Requests");
        assertThat(problem.get("status").asInt()).isEqualTo(429);
    }

    @Test
    void answersARejectionWhoseCauseChainHoldsAnOverloadWithThatOverload() throws Exception {
        MockHttpServletResponse response = new MockHttpServletResponse();
        PoolOverloadException overload = new PoolOverloadException("pool 'reports' is overloaded");
        Exception rejected = new TaskRejectedException("Executor did not accept task",
                new RejectedExecutionException("wrapped again", overload));
        assertThat(resolver.resolveException(new MockHttpServletRequest("GET", "/reports"), response, null,
                rejected)).isNotNull();
        assertThat(response.getStatus()).isEqualTo(429);
        JsonNode problem = JsonMapper.builder().build().readTree(response.getContentAsString());
        assertThat(problem.get("detail").asString()).isEqualTo("pool 'reports' is overloaded");
    }

    @Test
    void sendsTheEstimatedRetryAfter() throws Exception {
        WeightedSemaphore gpu = new WeightedSemaphore(10);
        estimator.holdTimes(gpu).record(3_000_000_000L);
        PoolOverloadException overload = new PoolOverloadException("6 permits of semaphore 'gpu'");
        estimator.refusedBySemaphore(overload, gpu, 6);
        MockHttpServletResponse response = new MockHttpServletResponse();
        resolver.resolveException(new MockHttpServletRequest("GET", "/render"), response, null, overload);
        assertThat(response.getHeader("Retry-After")).isEqualTo("2"); // 3 s held x 1 turn x 6/10, rounded up
    }

    @Test
    void aConverterThatCannotWriteLeavesTheOverloadToTheRestInsteadOfReplacingIt() {
        JacksonJsonHttpMessageConverter failing = new JacksonJsonHttpMessageConverter() {
            @Override
            protected void writeInternal(Object object, ResolvableType type, HttpOutputMessage output,
                    Map<String, Object> hints) {
                throw new HttpMessageNotWritableException("cannot write it");
            }
        };
        PoolOverloadExceptionResolver withFailingConverter = new PoolOverloadExceptionResolver(estimator,
                () -> List.of(failing));
        assertThat(withFailingConverter.resolveException(new MockHttpServletRequest("GET", "/render"),
                new MockHttpServletResponse(), null, new PoolOverloadException("full"))).isNull();
    }

    @Test
    void answersAnOverloadRetriedByReactorUntilTheRetriesRanOut() throws Exception {
        MockHttpServletResponse response = new MockHttpServletResponse();
        PoolOverloadException overload = new PoolOverloadException("3 permits of semaphore 'gpu'");
        Exception exhausted = assertThrows(IllegalStateException.class,
                () -> Mono.error(overload).retryWhen(Retry.max(1)).block());
        assertThat(resolver.resolveException(new MockHttpServletRequest("GET", "/render"), response, null,
                exhausted)).isNotNull();
        assertThat(response.getStatus()).isEqualTo(429);
        assertThat(response.getContentAsString()).contains("3 permits of semaphore 'gpu'");
    }

    @Test
    void leavesOtherExceptionsToTheRest() {
        for (Exception other : List.of(new RejectedExecutionException("closed"),
                new TaskRejectedException("closed", new PoolClosedException("pool 'reports' is closed")),
                new IllegalStateException(new PoolOverloadException("not a rejection at the top")),
                reactor.core.Exceptions.retryExhausted("Retries exhausted: 1/1", new IllegalStateException("other")))) {
            MockHttpServletResponse response = new MockHttpServletResponse();
            assertThat(resolver.resolveException(new MockHttpServletRequest(), response, null, other)).isNull();
            assertThat(response.getStatus()).isEqualTo(200);
        }
    }
}
