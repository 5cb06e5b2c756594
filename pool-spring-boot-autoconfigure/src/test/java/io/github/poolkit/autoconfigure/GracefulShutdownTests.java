package io.github.poolkit.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import io.github.poolkit.WorkerPool;

/**
 * With {@code server.shutdown=graceful}, a request still in flight when the context starts closing may submit a task
 * to a poolkit pool: the pools stop accepting only after the web server has drained its requests, because
 * {@link PoolkitLifecycle}'s phase is below the web server's.
 */
@Timeout(60)
class GracefulShutdownTests {

    @Test
    void aRequestInFlightDuringGracefulShutdownCanStillSubmitATask() throws Exception {
        ConfigurableApplicationContext context = new SpringApplication(WebApplication.class).run("--server.port=0",
                "--server.shutdown=graceful", "--spring.lifecycle.timeout-per-shutdown-phase=30s",
                "--poolkit.semaphore.enabled=false", "--poolkit.scheduler.enabled=false",
                "--spring.jmx.enabled=false", "--management.endpoints.enabled-by-default=false");
        int port = context.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
        SlowController controller = context.getBean(SlowController.class);
        WorkerPool pool = context.getBean(WorkerPool.class);

        // HTTP/1.1: Tomcat's graceful shutdown did not wait for a request that came with an h2c upgrade offer (the
        // JDK client's default), which would test the server, not poolkit.
        CompletableFuture<HttpResponse<String>> response = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build().sendAsync(
                HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/submit")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(controller.entered.await(10, TimeUnit.SECONDS)).isTrue();

        CompletableFuture<Void> closing = CompletableFuture.runAsync(context::close);
        // Graceful shutdown has begun once the server refuses new connections.
        await().atMost(20, TimeUnit.SECONDS).until(() -> refusesConnections(port));
        assertThat(closing).isNotDone();
        controller.proceed.countDown();

        HttpResponse<String> answer = response.get(20, TimeUnit.SECONDS);
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        assertThat(answer.body()).isEqualTo("task ran");
        closing.get(20, TimeUnit.SECONDS);
        assertThat(pool.isClosed()).isTrue();
    }

    private static boolean refusesConnections(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("localhost", port), 1000);
            return false;
        }
        catch (ConnectException refused) {
            return true;
        }
        catch (IOException other) {
            return false;
        }
    }

    /** Holds its request until told to go on, then submits a task to the primary pool and answers with its result. */
    @RestController
    static class SlowController {

        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch proceed = new CountDownLatch(1);
        private final WorkerPool pool;

        SlowController(WorkerPool pool) {
            this.pool = pool;
        }

        @GetMapping("/submit")
        String submit() throws Exception {
            entered.countDown();
            assertThat(proceed.await(20, TimeUnit.SECONDS)).isTrue();
            CompletableFuture<String> result = new CompletableFuture<>();
            pool.execute(() -> result.complete("task ran"));
            return result.get(10, TimeUnit.SECONDS);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class WebApplication {

        @Bean
        SlowController slowController(WorkerPool workerPool) {
            return new SlowController(workerPool);
        }
    }
}
