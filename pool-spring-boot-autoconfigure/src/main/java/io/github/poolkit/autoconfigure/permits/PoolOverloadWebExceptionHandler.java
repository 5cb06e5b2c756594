package io.github.poolkit.autoconfigure.permits;

import java.util.List;
import java.util.function.Supplier;

import org.springframework.core.Ordered;
import org.springframework.core.ResolvableType;
import org.springframework.core.codec.Hints;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.codec.HttpMessageWriter;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebExceptionHandler;

import io.github.poolkit.PoolOverloadException;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The WebFlux counterpart of {@link PoolOverloadExceptionResolver}: answers an overload that no
 * {@code @ExceptionHandler} of the application handled with {@code 429 Too Many Requests}, a {@code Retry-After}
 * header and an RFC 9457 problem body ({@code application/problem+json}, written by the application's codecs from
 * Spring's {@link ProblemDetail}).
 *
 * <p>An overload is a {@link PoolOverloadException} (a {@code @Permits} {@code Mono} or {@code Flux} whose permits
 * did not come, a pool that refused a task) or a {@link java.util.concurrent.RejectedExecutionException} with one in
 * its cause chain. Anything else, and a response already committed, is passed on.
 *
 * <p>Ordered {@value #ORDER}: after the application's {@code @ExceptionHandler} methods (which WebFlux runs before
 * any {@code WebExceptionHandler}) and before Spring Boot's error handler ({@code -1}), which would answer
 * {@code 500}. An application's own {@code WebExceptionHandler} ordered before {@value #ORDER} answers first.
 */
public class PoolOverloadWebExceptionHandler implements WebExceptionHandler, Ordered {

    /** The order of this handler: just before Spring Boot's error handler. */
    public static final int ORDER = -2;

    private static final ResolvableType PROBLEM = ResolvableType.forClass(ProblemDetail.class);

    private final RetryAfterEstimator estimator;
    private final Supplier<List<HttpMessageWriter<?>>> writers;

    /**
     * Creates the handler.
     *
     * @param estimator gives the {@code Retry-After} seconds
     * @param writers   the message writers to write the problem with (the application's codecs)
     */
    public PoolOverloadWebExceptionHandler(RetryAfterEstimator estimator,
            Supplier<List<HttpMessageWriter<?>>> writers) {
        this.estimator = estimator;
        this.writers = writers;
    }

    @Override
    public Mono<Void> handle(ServerWebExchange exchange, Throwable ex) {
        PoolOverloadException overload = OverloadProblem.find(ex);
        ServerHttpResponse response = exchange.getResponse();
        if (overload == null || response.isCommitted()) {
            return Mono.error(ex);
        }
        ProblemDetail problem = OverloadProblem.of(overload, exchange.getRequest().getPath().value());
        Mono<Long> retryAfter = estimator.estimateBlocks(overload) // a round trip to Redis: not on the event loop
                ? Mono.fromCallable(() -> estimator.retryAfterSeconds(overload))
                        .subscribeOn(Schedulers.boundedElastic())
                : Mono.just(estimator.retryAfterSeconds(overload));
        return retryAfter.flatMap(seconds -> answer(exchange, problem, seconds));
    }

    private Mono<Void> answer(ServerWebExchange exchange, ProblemDetail problem, long retryAfterSeconds) {
        ServerHttpResponse response = exchange.getResponse();
        response.setStatusCode(HttpStatus.TOO_MANY_REQUESTS);
        // what the handler set for its own body (a functional endpoint's Content-Type): the problem's replace them
        response.getHeaders().clearContentHeaders();
        response.getHeaders().set(HttpHeaders.RETRY_AFTER, Long.toString(retryAfterSeconds));
        for (HttpMessageWriter<?> writer : writers.get()) {
            if (writer.canWrite(PROBLEM, MediaType.APPLICATION_PROBLEM_JSON)) {
                @SuppressWarnings("unchecked")
                HttpMessageWriter<ProblemDetail> problemWriter = (HttpMessageWriter<ProblemDetail>) writer;
                return problemWriter.write(Mono.just(problem), PROBLEM, MediaType.APPLICATION_PROBLEM_JSON, response,
                        Hints.from(Hints.LOG_PREFIX_HINT, exchange.getLogPrefix()));
            }
        }
        return response.setComplete(); // no JSON codec: the status and the header still say it
    }

    @Override
    public int getOrder() {
        return ORDER;
    }
}
