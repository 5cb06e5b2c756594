package io.github.poolkit.autoconfigure.permits;

import java.lang.reflect.Method;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.core.ResolvableType;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.annotation.MergedAnnotations.SearchStrategy;
import org.springframework.util.ClassUtils;

/**
 * Tells the return types whose permits go back before the work they stand for is done, so that a guarded method
 * returning one limits nothing: a WebFlux functional handler's {@code Mono<ServerResponse>}, or a
 * {@code Mono<ResponseEntity<Flux<T>>>}, completes as soon as the response object exists, before its body is written;
 * a {@code ResponseEntity<Flux<T>>} is a plain value, returned before its body is subscribed. The permits should be
 * on the method that returns the body's publisher. Spring MVC's asynchronous return values ({@code Callable},
 * {@code WebAsyncTask}, {@code DeferredResult}, {@code StreamingResponseBody}, {@code ResponseBodyEmitter} and
 * {@code SseEmitter}, also in a {@code ResponseEntity}) do their work after a request handler returned (a method
 * annotated with {@code @RequestMapping}, {@code @GetMapping} and the like, on the method or where it is declared
 * above); a {@code CompletableFuture} holds the permits until it completes. Those types returned by any other method
 * (a service's factory of a {@code Callable}, say) are the caller's business, not Spring MVC's, and are not named.
 * Types are compared by name: Spring web and Reactor are optional.
 */
final class EarlyRelease {

    private static final Set<String> PUBLISHERS = Set.of("reactor.core.publisher.Mono", "reactor.core.publisher.Flux",
            "org.reactivestreams.Publisher");

    private static final String SERVER_RESPONSE = "org.springframework.web.reactive.function.server.ServerResponse";

    private static final String HTTP_ENTITY = "org.springframework.http.HttpEntity";

    /** Whether Spring MVC is on the class path: only there is a {@code Callable} return value run later by it. */
    private static final boolean SPRING_MVC = ClassUtils.isPresent("org.springframework.web.servlet.DispatcherServlet",
            EarlyRelease.class.getClassLoader());

    /** Marks a Spring MVC request handler, directly or through {@code @GetMapping} and the like. */
    private static final String REQUEST_MAPPING = "org.springframework.web.bind.annotation.RequestMapping";

    /** Spring MVC's asynchronous return values: their work runs after the request handler returned. */
    private static final Set<String> LATER = Set.of("java.util.concurrent.Callable",
            "org.springframework.web.context.request.async.WebAsyncTask",
            "org.springframework.web.context.request.async.DeferredResult",
            "org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody",
            "org.springframework.web.servlet.mvc.method.annotation.ResponseBodyEmitter");

    private EarlyRelease() {
    }

    /**
     * @param method      a guarded method
     * @param targetClass the bean's class, against which the return type's generics are resolved
     * @return why its permits would go back before its work is done, or {@code null} when they would not (or when the
     *         return type cannot be read: a class of its generics missing)
     */
    static @Nullable String why(Method method, Class<?> targetClass) {
        try {
            boolean handler = SPRING_MVC
                    && MergedAnnotations.from(method, SearchStrategy.TYPE_HIERARCHY).isPresent(REQUEST_MAPPING);
            return why(ResolvableType.forMethodReturnType(method, targetClass), handler);
        }
        catch (RuntimeException | LinkageError unreadable) { // only a hint: never fail the guarded call for it
            return null;
        }
    }

    /**
     * @param type    the guarded method's return type
     * @param handler whether the method is a Spring MVC request handler
     */
    private static @Nullable String why(ResolvableType type, boolean handler) {
        Class<?> raw = type.resolve(Object.class);
        if (isA(raw, PUBLISHERS)) {
            ResolvableType value = type.getGeneric(0);
            Class<?> valueRaw = value.resolve(Object.class);
            boolean entityOfPublisher = isA(valueRaw, Set.of(HTTP_ENTITY))
                    && isA(value.getGeneric(0).resolve(Object.class), PUBLISHERS);
            if (entityOfPublisher || isA(valueRaw, Set.of(SERVER_RESPONSE))) {
                return "it returns " + type + ", which completes as soon as the response exists: its permits go back"
                        + " before the body is written, so they limit nothing; put @Permits on the method that"
                        + " returns the body's publisher";
            }
        }
        ResolvableType async = isA(raw, Set.of(HTTP_ENTITY)) ? type.getGeneric(0) : type;
        if (handler && isA(async.resolve(Object.class), LATER)) {
            return "it returns " + type + ", whose work Spring MVC runs after the method returned (calls it, waits"
                    + " for its result, or writes its body): its permits go back on return, so they limit nothing"
                    + " there; put @Permits on the method that does the work, or return a CompletableFuture, which"
                    + " holds them until it completes";
        }
        if (isA(raw, Set.of(HTTP_ENTITY)) && isA(type.getGeneric(0).resolve(Object.class), PUBLISHERS)) {
            return "it returns " + type + ", a plain value: its permits go back on return, before the body's"
                    + " publisher is subscribed, so they limit nothing; put @Permits on the method that returns the"
                    + " body's publisher";
        }
        return null;
    }

    /** @return whether {@code type} is, extends or implements one of the named types */
    private static boolean isA(Class<?> type, Set<String> names) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            if (names.contains(c.getName())) {
                return true;
            }
        }
        for (Class<?> face : ClassUtils.getAllInterfacesForClassAsSet(type)) {
            if (names.contains(face.getName())) {
                return true;
            }
        }
        return false;
    }
}
