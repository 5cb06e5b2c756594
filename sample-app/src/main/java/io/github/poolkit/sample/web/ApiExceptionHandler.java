package io.github.poolkit.sample.web;

import java.util.concurrent.RejectedExecutionException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

import io.github.poolkit.PoolOverloadException;
import io.github.poolkit.autoconfigure.permits.RetryAfterEstimator;
import io.github.poolkit.redis.SemaphoreUnavailableException;

/**
 * Turns every error of the sample's REST API into an RFC 9457 problem document ({@code application/problem+json})
 * with the right status, and never into a stack trace.
 *
 * <p>Spring MVC's own exceptions (unreadable JSON, a parameter of the wrong type, an unknown URL) are handled by the
 * {@link ResponseEntityExceptionHandler} base class, which already produces {@link ProblemDetail} bodies. This class
 * adds the sample's outcomes ({@code 400}, {@code 404}, {@code 429}, {@code 503}) and a last-resort {@code 500} whose
 * body says nothing about the internals; the exception itself goes to the log.
 */
@RestControllerAdvice
public class ApiExceptionHandler extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ApiExceptionHandler.class);

    private final ObjectProvider<RetryAfterEstimator> estimator;

    /**
     * Creates the handler.
     *
     * @param estimator the poolkit starter's estimate of a refused client's wait, from what the pools and semaphores
     *                  measured (one second when there is no single one)
     */
    public ApiExceptionHandler(ObjectProvider<RetryAfterEstimator> estimator) {
        this.estimator = estimator;
    }

    /**
     * Answers bad input with {@code 400 Bad Request}.
     *
     * @param e what was wrong
     * @return the problem document
     */
    @ExceptionHandler(InvalidRequestException.class)
    public ProblemDetail invalidRequest(InvalidRequestException e) {
        return ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, e.getMessage());
    }

    /**
     * Answers an unknown pool or reminder with {@code 404 Not Found}.
     *
     * @param e what was not found
     * @return the problem document
     */
    @ExceptionHandler(NotFoundException.class)
    public ProblemDetail notFound(NotFoundException e) {
        return ProblemDetail.forStatusAndDetail(HttpStatus.NOT_FOUND, e.getMessage());
    }

    /**
     * Answers back-pressure with {@code 429 Too Many Requests} and a {@code Retry-After} header (whole seconds,
     * at least one).
     *
     * @param e what was busy
     * @return the problem document and the header
     */
    @ExceptionHandler(OverloadedException.class)
    public ResponseEntity<ProblemDetail> overloaded(OverloadedException e) {
        long seconds = Math.max(1, (e.retryAfter().toMillis() + 999) / 1000);
        return ResponseEntity.status(HttpStatus.TOO_MANY_REQUESTS)
                .header(HttpHeaders.RETRY_AFTER, Long.toString(seconds))
                .body(ProblemDetail.forStatusAndDetail(HttpStatus.TOO_MANY_REQUESTS, e.getMessage()));
    }

    /**
     * Answers an overload by poolkit with {@code 429 Too Many Requests} and the {@code Retry-After} the starter
     * estimates from the measured run and hold times: a pool that refused a task, or the render budget's
     * {@code @Permits} whose permits did not come in time ({@link PoolOverloadException}, also as the cause of
     * Spring's {@code TaskRejectedException}, names the semaphore, the weight and the wait). Any other refusal (a pool
     * that is shutting down, a wait that was interrupted) is {@code 503 Service Unavailable}. The sample maps these
     * here because its catch-all handler below would otherwise turn them into a {@code 500}; an application without
     * such a handler gets the same {@code 429} from the poolkit starter.
     *
     * @param e the refusal
     * @return the problem document and the header
     */
    @ExceptionHandler(RejectedExecutionException.class)
    public ResponseEntity<ProblemDetail> rejected(RejectedExecutionException e) {
        PoolOverloadException overload = overloadIn(e);
        if (overload == null) {
            return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
                    .body(ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE, e.getMessage()));
        }
        RetryAfterEstimator estimate = estimator.getIfUnique();
        long seconds = (estimate != null) ? estimate.retryAfterSeconds(overload) : RetryAfterEstimator.MIN_SECONDS;
        return ResponseEntity.status(HttpStatus.TOO_MANY_REQUESTS)
                .header(HttpHeaders.RETRY_AFTER, Long.toString(seconds))
                .body(ProblemDetail.forStatusAndDetail(HttpStatus.TOO_MANY_REQUESTS, overload.getMessage()));
    }

    /** {@return the overload in {@code e}'s cause chain (a few causes deep), or {@code null}} */
    private static PoolOverloadException overloadIn(Throwable e) {
        Throwable cause = e;
        for (int depth = 0; cause != null && depth < 8; depth++, cause = cause.getCause()) {
            if (cause instanceof PoolOverloadException overload) {
                return overload;
            }
        }
        return null;
    }

    /**
     * Answers a cluster-wide semaphore whose Redis did not answer in time with {@code 503 Service Unavailable} and
     * {@code Retry-After: 1}: nothing was taken for the request, and it may succeed once Redis is back.
     *
     * @param e what did not answer
     * @return the problem document and the header
     */
    @ExceptionHandler(SemaphoreUnavailableException.class)
    public ResponseEntity<ProblemDetail> unavailable(SemaphoreUnavailableException e) {
        log.warn("A cluster-wide semaphore could not be used: {}", e.getMessage());
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
                .header(HttpHeaders.RETRY_AFTER, "1")
                .body(ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE,
                        "The shared budget cannot be reached now; retry shortly."));
    }

    /**
     * Answers anything unexpected with {@code 500 Internal Server Error}; the details go to the log only. A request
     * thread interrupted while it waited (for semaphore permits, say) keeps its interrupt status.
     *
     * @param e the unexpected exception
     * @return the problem document, without internals
     */
    @ExceptionHandler(Exception.class)
    public ProblemDetail unexpected(Exception e) {
        if (e instanceof InterruptedException) {
            Thread.currentThread().interrupt();
        }
        log.error("Unexpected error while handling a request", e);
        return ProblemDetail.forStatusAndDetail(HttpStatus.INTERNAL_SERVER_ERROR,
                "The server failed to handle the request; see its log for the cause.");
    }
}
