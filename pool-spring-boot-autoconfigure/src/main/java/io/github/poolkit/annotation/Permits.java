package io.github.poolkit.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Guards a method of a Spring bean with a weighted semaphore: {@link #weight()} permits of the
 * {@link io.github.poolkit.PermitSemaphore} bean named {@link #value()} are held while the method's work runs,
 * waiting at most {@link #maxWait()} for them in the semaphore's FIFO line.
 *
 * <pre>{@code
 * @Permits(value = "gpu-memory", weight = "#request.sizeMb", maxWait = "500ms")
 * Result render(RenderRequest request) { ... }
 * }</pre>
 *
 * <h2>When the permits are held</h2>
 * <ul>
 *   <li>A plain method: acquired before it runs (the calling thread waits), released when it returns or throws.</li>
 *   <li>A method returning a {@link java.util.concurrent.CompletionStage}: acquired before it runs, released when
 *       that stage completes. For a {@code CompletableFuture} the caller gets another one, completed with the same
 *       outcome once the permits are back, so that the stages it chains run after the release (a next guarded call
 *       finds the permits free); cancelling, timing out or completing it gives the permits back first (before the
 *       stages chained to it) and completes the method's future the same way, although work started for it runs
 *       on.</li>
 *   <li>A method returning a Reactor {@code Mono} or {@code Flux} (Reactor on the class path): the method runs at
 *       once and returns its publisher; the permits are acquired when that publisher is <em>subscribed</em>, with
 *       {@code acquireAsync} ({@code tryAcquireAsync} when {@code maxWait} is 0; no thread waits), and released
 *       exactly once when the subscription completes, errors or is cancelled, also when it is cancelled while still
 *       waiting in line. Each subscription holds its own permits. A subscription that had to wait continues on
 *       Reactor's parallel scheduler.</li>
 * </ul>
 *
 * <h2>On a type</h2>
 * On a class (or an interface it implements, or a superclass), the annotation guards each public instance method of
 * the bean, inherited ones included, but not {@code equals}, {@code hashCode}, {@code toString} nor other methods of
 * {@code Object}, nor a controller's {@code @ExceptionHandler}, {@code @InitBinder} and {@code @ModelAttribute}
 * methods (a handler that also names its model attribute is guarded), nor the container's callbacks that Spring calls
 * through the bean's proxy (the methods of {@code Lifecycle}, {@code Phased}, {@code ApplicationListener},
 * {@code Ordered}, {@code FactoryBean}, {@code InitializingBean}, {@code DisposableBean},
 * {@code SmartInitializingSingleton} and the {@code Aware} interfaces). A method's own {@code @Permits} wins over the
 * type's. Guarded calls nested on one semaphore each take permits of their own (see the docs).
 *
 * <h2>When the permits do not come</h2>
 * When they do not come within {@code maxWait} (or the weight exceeds the semaphore's size) the work does not run
 * and the caller gets a {@link io.github.poolkit.PoolOverloadException} naming the semaphore, the weight and the wait
 * (for a {@code Mono} or {@code Flux}, the publisher errors with it). A thread interrupted while it waits gets the
 * same exception, its interrupt status set. In a Spring MVC or WebFlux application that exception, and any
 * {@link java.util.concurrent.RejectedExecutionException} caused by one, becomes {@code 429 Too Many Requests} with
 * a {@code Retry-After} header estimated from how long the semaphore's permits are held and an RFC 9457 problem body,
 * unless the application handles it itself (an {@code @ExceptionHandler} wins).
 *
 * <p>Works on methods called through the bean (a Spring proxy): a call from the bean to itself is not guarded.
 * It is the outermost advice of the bean but {@code @Async}: on a {@code @Transactional} method the permits are taken
 * before the transaction begins and released after it ends; on an {@code @Async} one, on the executor's thread, held
 * while the method runs.
 * Needs the poolkit starter's auto-configuration; the weight is a SpEL expression over the method's parameters, by
 * name ({@code #request}) or position ({@code #p0}, {@code #a0}), compiled once per method.
 */
@Target({ ElementType.METHOD, ElementType.TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Permits {

    /**
     * {@return the bean name of the semaphore; empty (the default) for the primary {@code PermitSemaphore} bean}
     */
    String value() default "";

    /**
     * {@return a SpEL expression over the parameters giving the permits to hold, a whole number
     *         {@code 0..size} of any {@code Number} type; {@code "1"} by default} A value with a fraction, or one too
     *         large for a {@code long}, fails the call with {@code IllegalArgumentException}.
     */
    String weight() default "1";

    /**
     * {@return the longest wait for the permits, in Spring Boot's duration format ({@code "500ms"}, {@code "2s"});
     *         {@code "0s"} (the default) fails at once when they are not free; {@code ${...}} placeholders are
     *         resolved}
     */
    String maxWait() default "0s";
}
