package io.github.poolkit.sample.web;

import java.util.concurrent.RejectedExecutionException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Turns every error of the sample's REST API into an RFC 9457 problem document ({@code application/problem+json})
 * with the right status, and never into a stack trace.
 *
 * <p>Spring MVC's own exceptions (unreadable JSON, a parameter of the wrong type, an unknown URL) are handled by the
 * {@link ResponseEntityExceptionHandler} base class, which already produces {@link ProblemDetail} bodies. This class
 * adds the sample's three outcomes ({@code 400}, {@code 404}, {@code 429}) and a last-resort {@code 500} whose body
 * says nothing about the internals; the exception itself goes to the log.
 */
@RestControllerAdvice
public class ApiExceptionHandler extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ApiExceptionHandler.class);

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
     * Answers a refusal by poolkit with {@code 429 Too Many Requests} and {@code Retry-After: 1}: a pool that refused
     * a task, or the render budget's {@code @Permits} whose permits did not come in time
     * ({@link io.github.poolkit.PoolOverloadException} names the semaphore, the weight and the wait). The sample maps
     * it here because its catch-all handler below would otherwise turn it into a {@code 500}; an application without
     * such a handler gets the same answer from the poolkit starter.
     *
     * @param e the refusal
     * @return the problem document and the header
     */
    @ExceptionHandler(RejectedExecutionException.class)
    public ResponseEntity<ProblemDetail> rejected(RejectedExecutionException e) {
        return ResponseEntity.status(HttpStatus.TOO_MANY_REQUESTS)
                .header(HttpHeaders.RETRY_AFTER, "1")
                .body(ProblemDetail.forStatusAndDetail(HttpStatus.TOO_MANY_REQUESTS, e.getMessage()));
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
