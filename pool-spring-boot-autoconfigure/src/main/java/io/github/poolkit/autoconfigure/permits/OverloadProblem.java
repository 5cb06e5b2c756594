package io.github.poolkit.autoconfigure.permits;

import java.net.URI;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;

import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;

import io.github.poolkit.PoolOverloadException;

/**
 * What the {@code 429} answers of Spring MVC and WebFlux share: which failures they answer, and the problem body.
 */
final class OverloadProblem {

    private OverloadProblem() {
    }

    /** What Reactor's {@code retryWhen} fails with once its retries run out, the last failure as its cause. */
    private static final String RETRY_EXHAUSTED = "reactor.core.Exceptions$RetryExhaustedException";

    /**
     * Finds the overload a failure reports: the failure itself when it is a {@link PoolOverloadException}, or the
     * first one in the cause chain of a {@link RejectedExecutionException} (such as Spring's
     * {@code TaskRejectedException} from {@code @Async} on a full non-blocking pool) or of Reactor's
     * {@code RetryExhaustedException} (a refused {@code Mono} retried with {@code retryWhen} until the retries ended).
     *
     * @param failure what reached the web layer
     * @return the overload, or {@code null} when the failure is not one
     */
    static @Nullable PoolOverloadException find(Throwable failure) {
        if (!(failure instanceof RejectedExecutionException) && !failure.getClass().getName().equals(RETRY_EXHAUSTED)) {
            return null;
        }
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Throwable t = failure; t != null && seen.add(t); t = t.getCause()) {
            if (t instanceof PoolOverloadException overload) {
                return overload;
            }
        }
        return null;
    }

    /**
     * @param overload the overload to report
     * @param path     the request's path, for {@code instance}
     * @return an RFC 9457 problem: status 429, title "Too Many Requests", the overload's message as {@code detail}
     */
    static ProblemDetail of(PoolOverloadException overload, String path) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.TOO_MANY_REQUESTS,
                String.valueOf(overload.getMessage()));
        try {
            problem.setInstance(URI.create(path));
        }
        catch (IllegalArgumentException notAUri) {
            // the request path is always a valid URI reference in practice; leave instance out if not
        }
        return problem;
    }
}
