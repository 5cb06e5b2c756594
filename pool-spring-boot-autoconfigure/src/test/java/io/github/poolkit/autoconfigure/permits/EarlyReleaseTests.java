package io.github.poolkit.autoconfigure.permits;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.context.request.async.DeferredResult;
import org.springframework.web.context.request.async.WebAsyncTask;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyEmitter;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;
import org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody;

import io.github.poolkit.annotation.Permits;
import io.github.poolkit.autoconfigure.PoolkitAutoConfiguration;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A guarded method whose return type gives its permits back before the work it stands for (a response object, not its
 * body) is named in a WARN when it is first called: the permits limit nothing there.
 */
@ExtendWith(OutputCaptureExtension.class)
class EarlyReleaseTests {

    @Test
    void namesTheReturnTypesThatGiveThePermitsBackBeforeTheBody() throws Exception {
        assertThat(why("functional")).contains("Mono<" + ServerResponse.class.getName())
                .contains("before the body is written");
        assertThat(why("entityOfFlux")).contains("a plain value").contains("before the body's publisher is subscribed");
        assertThat(why("monoOfEntityOfFlux")).contains("before the body is written");
        assertThat(why("body")).isNull();
        assertThat(why("entityOfValue")).isNull();
        assertThat(why("monoOfEntityOfValue")).isNull();
    }

    /**
     * Spring MVC's asynchronous return values do their work after the method returned (a {@code Callable} called
     * later, a result set later, a body written later), so the permits, released on return, limit nothing there; a
     * {@code CompletableFuture} holds them until it completes.
     */
    @Test
    void namesSpringMvcsAsynchronousReturnTypes() throws Exception {
        for (String method : new String[] {"callable", "deferred", "webAsyncTask", "streaming", "entityOfStreaming",
                "emitter", "sse", "entityOfSse"}) {
            assertThat(why(method)).as(method).contains("after the method returned")
                    .contains("return a CompletableFuture");
        }
        assertThat(why("future")).isNull();
        assertThat(why("entityOfValue")).isNull();
        assertThat(EarlyRelease.why(Controller.class.getMethod("fromInterface"), Controller.class))
                .as("mapped where the interface declares it").contains("after the method returned");
    }

    /**
     * The same types returned by a method that is no request handler (a service's factory of a {@code Callable}, a
     * helper that makes the emitter its controller returns) are not Spring MVC's to run later: no WARN.
     */
    @Test
    void leavesAloneTheSameTypesFromMethodsThatHandleNoRequest(CapturedOutput output) throws Exception {
        for (String method : new String[] {"callable", "deferred", "emitter", "entityOfStreaming"}) {
            assertThat(EarlyRelease.why(Service.class.getMethod(method), Service.class)).as(method).isNull();
        }
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(PoolkitAutoConfiguration.class,
                        PermitsAutoConfiguration.class))
                .withPropertyValues("poolkit.semaphores.gpu.size=4").withBean(Service.class).run(context -> {
                    assertThat(context.getBean(Service.class).callable().call()).isEqualTo("x");
                    assertThat(output).doesNotContain("@Permits on Service");
                });
    }

    @Test
    void warnsOnTheFirstCall(CapturedOutput output) {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(PoolkitAutoConfiguration.class,
                        PermitsAutoConfiguration.class))
                .withPropertyValues("poolkit.semaphores.gpu.size=4").withBean(Handlers.class).run(context -> {
                    Handlers handlers = context.getBean(Handlers.class);
                    handlers.entityOfFlux();
                    handlers.body();
                    assertThat(output).contains("@Permits on Handlers.entityOfFlux: it returns")
                            .doesNotContain("@Permits on Handlers.body");
                });
    }

    private static String why(String method) throws NoSuchMethodException {
        return EarlyRelease.why(Handlers.class.getMethod(method), Handlers.class);
    }

    /** A guarded service, handling no request, whose methods return what Spring MVC's handlers may. */
    @Permits("gpu")
    static class Service {

        public Callable<String> callable() {
            return () -> "x";
        }

        public DeferredResult<String> deferred() {
            return new DeferredResult<>();
        }

        public ResponseBodyEmitter emitter() {
            return new ResponseBodyEmitter();
        }

        public ResponseEntity<StreamingResponseBody> entityOfStreaming() {
            return ResponseEntity.ok(out -> { });
        }
    }

    /** A request mapping declared on an interface. */
    interface Api {

        @GetMapping("/from-interface")
        Callable<String> fromInterface();
    }

    /** Implements the mapped interface method without repeating the mapping. */
    @Permits("gpu")
    static class Controller implements Api {

        @Override
        public Callable<String> fromInterface() {
            return () -> "x";
        }
    }

    /** Guarded handlers of each return type (the Spring MVC ones mapped to requests). */
    @Permits("gpu")
    static class Handlers {

        public Mono<ServerResponse> functional() {
            return ServerResponse.ok().bodyValue("x");
        }

        public ResponseEntity<Flux<String>> entityOfFlux() {
            return ResponseEntity.ok(Flux.just("x"));
        }

        public Mono<ResponseEntity<Flux<String>>> monoOfEntityOfFlux() {
            return Mono.just(ResponseEntity.ok(Flux.just("x")));
        }

        public Flux<String> body() {
            return Flux.just("x");
        }

        public ResponseEntity<String> entityOfValue() {
            return ResponseEntity.ok("x");
        }

        public Mono<ResponseEntity<String>> monoOfEntityOfValue() {
            return Mono.just(ResponseEntity.ok("x"));
        }

        @GetMapping("/callable")
        public Callable<String> callable() {
            return () -> "x";
        }

        @GetMapping("/deferred")
        public DeferredResult<String> deferred() {
            return new DeferredResult<>();
        }

        @GetMapping("/webAsyncTask")
        public WebAsyncTask<String> webAsyncTask() {
            return new WebAsyncTask<>(() -> "x");
        }

        @GetMapping("/streaming")
        public StreamingResponseBody streaming() {
            return out -> { };
        }

        @GetMapping("/entityOfStreaming")
        public ResponseEntity<StreamingResponseBody> entityOfStreaming() {
            return ResponseEntity.ok(out -> { });
        }

        @GetMapping("/emitter")
        public ResponseBodyEmitter emitter() {
            return new ResponseBodyEmitter();
        }

        @GetMapping("/sse")
        public SseEmitter sse() {
            return new SseEmitter();
        }

        @GetMapping("/entityOfSse")
        public ResponseEntity<SseEmitter> entityOfSse() {
            return ResponseEntity.ok(new SseEmitter());
        }

        public CompletableFuture<String> future() {
            return CompletableFuture.completedFuture("x");
        }
    }
}
