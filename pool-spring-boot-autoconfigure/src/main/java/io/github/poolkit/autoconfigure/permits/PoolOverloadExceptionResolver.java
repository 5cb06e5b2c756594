package io.github.poolkit.autoconfigure.permits;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Supplier;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.jspecify.annotations.Nullable;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.server.ServletServerHttpResponse;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.ModelAndView;

import io.github.poolkit.PoolOverloadException;

/**
 * Answers an overload that reached Spring MVC unhandled with {@code 429 Too Many Requests}, a {@code Retry-After}
 * header and an RFC 9457 problem body ({@code application/problem+json}, written by the application's own message
 * converters from Spring's {@link ProblemDetail}): its {@code detail} is the overload's message, its
 * {@code instance} the request path.
 *
 * <p>An overload is a {@link PoolOverloadException} (a {@code @Permits} method whose permits did not come, a pool
 * that refused a task) or any {@link java.util.concurrent.RejectedExecutionException} with one in its cause chain,
 * such as Spring's {@code TaskRejectedException} from {@code @Async} on a full non-blocking pool. The
 * {@code Retry-After} seconds come from {@link RetryAfterEstimator}.
 *
 * <p>Ordered last, after Spring's own resolvers: an application that maps the exception itself, with an
 * {@code @ExceptionHandler} in a controller or a {@code @ControllerAdvice}, or with its own resolver, keeps its
 * answer.
 */
public class PoolOverloadExceptionResolver implements HandlerExceptionResolver, Ordered {

    private final RetryAfterEstimator estimator;
    private final Supplier<? extends Iterable<HttpMessageConverter<?>>> converters;

    /**
     * Creates the resolver.
     *
     * @param estimator  gives the {@code Retry-After} seconds
     * @param converters the message converters to write the problem with (Spring MVC's own)
     */
    public PoolOverloadExceptionResolver(RetryAfterEstimator estimator,
            Supplier<? extends Iterable<HttpMessageConverter<?>>> converters) {
        this.estimator = estimator;
        this.converters = converters;
    }

    @Override
    public @Nullable ModelAndView resolveException(HttpServletRequest request, HttpServletResponse response,
            @Nullable Object handler, Exception ex) {
        PoolOverloadException overload = OverloadProblem.find(ex);
        if (overload == null || response.isCommitted()) {
            return null;
        }
        ProblemDetail problem = OverloadProblem.of(overload, request.getRequestURI());
        try {
            clearContentHeaders(response);
            ServletServerHttpResponse out = new ServletServerHttpResponse(response);
            out.setStatusCode(HttpStatus.TOO_MANY_REQUESTS);
            out.getHeaders().set(HttpHeaders.RETRY_AFTER, Long.toString(estimator.retryAfterSeconds(overload)));
            HttpMessageConverter<Object> converter = converterFor(MediaType.APPLICATION_PROBLEM_JSON);
            if (converter != null) {
                converter.write(problem, MediaType.APPLICATION_PROBLEM_JSON, out);
            }
            else { // no JSON library: the status and the header still tell the client what happened
                out.getHeaders().setContentType(MediaType.TEXT_PLAIN);
                out.getBody().write(String.valueOf(problem.getDetail()).getBytes(StandardCharsets.UTF_8));
            }
            out.flush();
            return new ModelAndView();
        }
        catch (IOException | RuntimeException writeFailed) { // a converter that cannot write: the rest answer it
            return null;
        }
    }

    /**
     * Drops what the handler set for its own body before it was refused (a download's type, length, name, language
     * or encoding): the problem's replace them. (A null value removes a header since Servlet 6.1.)
     */
    private static void clearContentHeaders(HttpServletResponse response) {
        response.setContentType(null);
        response.setContentLengthLong(-1);
        for (String header : List.of(HttpHeaders.CONTENT_DISPOSITION, HttpHeaders.CONTENT_LANGUAGE,
                HttpHeaders.CONTENT_ENCODING, HttpHeaders.CONTENT_RANGE)) {
            if (response.containsHeader(header)) {
                response.setHeader(header, null);
            }
        }
    }

    @SuppressWarnings("unchecked")
    private @Nullable HttpMessageConverter<Object> converterFor(MediaType type) {
        for (HttpMessageConverter<?> converter : converters.get()) {
            if (converter.canWrite(ProblemDetail.class, type)) {
                return (HttpMessageConverter<Object>) converter;
            }
        }
        return null;
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
