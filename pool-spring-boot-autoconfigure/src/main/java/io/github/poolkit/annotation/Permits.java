package io.github.poolkit.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Guards a method of a Spring bean with a weighted semaphore: before the method runs, {@link #weight()} permits are
 * acquired from the {@link io.github.poolkit.PermitSemaphore} bean named {@link #value()}, waiting at most
 * {@link #maxWait()} in the semaphore's FIFO line; they are released when the method returns or throws, or, when it
 * returns a {@link java.util.concurrent.CompletionStage}, when that stage completes.
 *
 * <pre>{@code
 * @Permits(value = "gpu-memory", weight = "#request.sizeMb", maxWait = "500ms")
 * Result render(RenderRequest request) { ... }
 * }</pre>
 *
 * <p>When the permits do not come in time the method does not run and the caller gets a
 * {@link io.github.poolkit.PoolOverloadException} naming the semaphore, the weight and the wait. In a Spring MVC
 * application that exception becomes {@code 429 Too Many Requests} with a {@code Retry-After} header and an RFC 9457
 * problem body, unless the application handles it itself (an {@code @ExceptionHandler} wins). A thread interrupted
 * while it waits gets the same exception, its interrupt status set.
 *
 * <p>Works on public methods called through the bean (a Spring proxy): a call from the bean to itself is not guarded.
 * Needs the poolkit starter's auto-configuration; the weight is a SpEL expression over the method's parameters, by
 * name ({@code #request}) or position ({@code #p0}, {@code #a0}), compiled once per method.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Permits {

    /**
     * {@return the bean name of the semaphore; empty (the default) for the primary {@code PermitSemaphore} bean}
     */
    String value() default "";

    /**
     * {@return a SpEL expression over the parameters giving the permits to hold, a whole number
     *         {@code 0..size}; {@code "1"} by default}
     */
    String weight() default "1";

    /**
     * {@return the longest wait for the permits, in Spring Boot's duration format ({@code "500ms"}, {@code "2s"});
     *         {@code "0s"} (the default) fails at once when they are not free; {@code ${...}} placeholders are
     *         resolved}
     */
    String maxWait() default "0s";
}
