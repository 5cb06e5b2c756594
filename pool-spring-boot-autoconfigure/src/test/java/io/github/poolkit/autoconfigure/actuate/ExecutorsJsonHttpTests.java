package io.github.poolkit.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.task.SimpleAsyncTaskExecutor;

import tools.jackson.databind.JsonNode;

/**
 * The {@code executors} section as JSON over real HTTP (Tomcat on port 0): each entry holds exactly the fields its
 * executor can tell (a type-only executor: {@code type} alone), the beans stay the application's own objects after
 * reads and writes, and a write an executor cannot take is a 400 naming the field and the executor's type.
 */
@Timeout(60)
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, classes = ExecutorsJsonHttpTests.Application.class,
        properties = { "management.endpoints.web.exposure.include=pools",
                "management.endpoint.pools.access=unrestricted" })
class ExecutorsJsonHttpTests {

    @LocalServerPort
    private int port;

    @Autowired
    private ApplicationContext context;

    @Test
    void eachEntryHoldsExactlyWhatItsExecutorCanTell() throws Exception {
        JsonNode executors = getJson("/actuator/pools").get("executors");
        assertThat(fields(executors.get("plain"))).containsExactly("type");
        assertThat(executors.get("plain").get("type").asString()).isEqualTo("PlainExecutor");
        assertThat(fields(executors.get("simple"))).containsExactlyInAnyOrder("type", "capacity");
        assertThat(executors.get("simple").get("capacity").asInt()).isEqualTo(-1);
        assertThat(fields(executors.get("jdk"))).containsExactlyInAnyOrder("type", "capacity", "coreSize", "running",
                "busy", "queued", "queueRemaining", "completed");
        assertThat(executors.get("jdk").get("type").asString()).isEqualTo("ThreadPoolExecutor");
        assertThat(executors.get("jdk").get("capacity").asInt()).isEqualTo(4);
        assertThat(executors.get("jdk").get("coreSize").asInt()).isEqualTo(2);
        assertThat(executors.get("jdk").get("queueRemaining").asInt()).isEqualTo(6);
        assertThat(executors.get("forkJoin").get("type").asString()).isEqualTo("ForkJoinPool");
        assertThat(executors.get("forkJoin").has("coreSize")).isFalse();
        assertThat(executors.has("webServer")).isTrue();
        assertThat(fields(getJson("/actuator/pools/plain"))).containsExactly("type");
        assertThat(getJson("/actuator/pools/jdk").get("capacity").asInt()).isEqualTo(4);
        assertThat(new EndpointClient(port).get("/actuator/pools/nothing-by-this-name").statusCode())
                .isEqualTo(404);
    }

    @Test
    void theBeansStayTheApplicationsOwnObjects() throws Exception {
        getJson("/actuator/pools");
        // a write, with the values it has, so that the other tests of this context see them unchanged
        assertThat(post("/actuator/pools/jdk", "{\"capacity\": 4, \"coreSize\": 2}").statusCode()).isEqualTo(200);
        assertThat(context.getBean("jdk")).isSameAs(Application.made.get(0)).hasSameClassAs(Application.made.get(0));
        assertThat(context.getBean("plain")).isSameAs(Application.made.get(1));
        assertThat(context.getBean("simple")).isSameAs(Application.made.get(2))
                .extracting(bean -> bean.getClass()).isEqualTo(SimpleAsyncTaskExecutor.class);
    }

    @Test
    void aWriteTheExecutorCannotTakeIsA400NamingTheFieldAndTheType() throws Exception {
        assertProblem(post("/actuator/pools/plain", "{\"capacity\": 3}"), "capacity", "PlainExecutor");
        assertProblem(post("/actuator/pools/forkJoin", "{\"coreSize\": 1}"), "coreSize", "ForkJoinPool");
        assertProblem(post("/actuator/pools/simple", "{\"coreSize\": 1}"), "coreSize", "SimpleAsyncTaskExecutor");
        assertProblem(post("/actuator/pools/jdk", "{\"nonblocking\": true}"), "nonblocking", "ThreadPoolExecutor");
        assertProblem(post("/actuator/pools/jdk", "{\"capacity\": 5, \"queueCapacity\": 3}"), "queueCapacity",
                "ThreadPoolExecutor");
        for (String body : new String[] {"{}", "{\"capacity\": null}", "{\"capacity\": 5.5}", "{\"capacity\": true}",
                "{\"capacity\": 0}"}) {
            assertProblem(post("/actuator/pools/jdk", body), "capacity", "capacity");
        }
        assertProblem(post("/actuator/pools/jdk", "{\"coreSize\": 5}"), "coreSize", "ThreadPoolExecutor");
        // a value of the wrong JSON shape is refused by the actuator's own binding, before poolkit sees the field
        assertThat(post("/actuator/pools/jdk", "{\"capacity\": [5]}").statusCode()).isEqualTo(400);
        ThreadPoolExecutor jdk = context.getBean("jdk", ThreadPoolExecutor.class);
        assertThat(jdk.getMaximumPoolSize()).as("nothing changed").isEqualTo(4);
    }

    /**
     * An alias of an executor bean stands for it: read and written as under its own name, and a field the executor
     * cannot take refused as there, nothing changed.
     */
    @Test
    void anAliasStandsForItsExecutor() throws Exception {
        assertThat(getJson("/actuator/pools/jdkAlias").get("capacity").asInt()).isEqualTo(4);
        assertProblem(post("/actuator/pools/jdkAlias", "{\"capacity\": 5, \"capasity\": 3}"), "capasity",
                "ThreadPoolExecutor");
        assertThat(context.getBean("jdk", ThreadPoolExecutor.class).getMaximumPoolSize()).as("nothing changed")
                .isEqualTo(4);
        assertThat(post("/actuator/pools/jdkAlias", "{\"capacity\": 4, \"coreSize\": 2}").statusCode())
                .isEqualTo(200);
        assertThat(getJson("/actuator/pools").get("executors").has("jdkAlias")).as("listed under its own name")
                .isFalse();
        // an alias of a bean the endpoint does not list stands for nothing: webServer is still the server's pool
        assertThat(getJson("/actuator/pools").get("executors").has("webServer")).isTrue();
        assertThat(getJson("/actuator/pools/webServer").get("capacity").asInt()).isPositive();
    }

    private static List<String> fields(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.propertyNames().forEach(names::add);
        return names;
    }

    private void assertProblem(HttpResponse<String> response, String field, String type) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        JsonNode problem = EndpointClient.json(response);
        assertThat(problem.get("field").asString()).isEqualTo(field);
        assertThat(problem.get("detail").asString()).contains(type);
    }

    private HttpResponse<String> post(String path, String body) throws Exception {
        return new EndpointClient(port).post(path, body);
    }

    private JsonNode getJson(String path) throws Exception {
        return new EndpointClient(port).getJson(path);
    }

    /** An executor of a kind poolkit does not know. */
    static final class PlainExecutor implements Executor {

        @Override
        public void execute(Runnable command) {
            command.run();
        }
    }

    /** Any bean that is no executor, pool or semaphore. */
    record Note(String text) {
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Application {

        /** The executors as their bean methods returned them, in order: jdk, plain, simple. */
        static final List<Object> made = new ArrayList<>();

        @Bean
        TomcatServletWebServerFactory tomcat() {
            return new TomcatServletWebServerFactory(0);
        }

        /** A bean no section lists, with the alias {@code webServer}, the web server pool's entry name. */
        @Bean(name = { "note", "webServer" })
        Note note() {
            return new Note("not an executor");
        }

        @Bean(name = { "jdk", "jdkAlias" }, destroyMethod = "shutdownNow")
        ThreadPoolExecutor jdk() {
            ThreadPoolExecutor pool = new ThreadPoolExecutor(2, 4, 1, TimeUnit.MINUTES, new LinkedBlockingQueue<>(6));
            made.add(0, pool);
            return pool;
        }

        @Bean
        Executor plain(ThreadPoolExecutor jdk) {
            PlainExecutor plain = new PlainExecutor();
            made.add(1, plain);
            return plain;
        }

        @Bean
        SimpleAsyncTaskExecutor simple(Executor plain) {
            SimpleAsyncTaskExecutor simple = new SimpleAsyncTaskExecutor("simple-");
            made.add(2, simple);
            return simple;
        }

        @Bean(destroyMethod = "shutdownNow")
        ForkJoinPool forkJoin() {
            return new ForkJoinPool(2);
        }
    }
}
