package io.github.poolkit.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;

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
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

import tools.jackson.databind.JsonNode;

/**
 * Over real HTTP (Tomcat on port 0): an executor without a maximum ({@code Integer.MAX_VALUE}) is unlimited,
 * {@code capacity: -1}, and its capacity still changes through its setter; a scheduled pool shows its core size as
 * {@code coreSize} and {@code capacity}, and takes a write of either.
 */
@Timeout(60)
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
        classes = UnlimitedAndScheduledExecutorsHttpTests.Application.class,
        properties = { "management.endpoints.web.exposure.include=pools",
                "management.endpoint.pools.access=unrestricted" })
class UnlimitedAndScheduledExecutorsHttpTests {

    @LocalServerPort
    private int port;

    @Autowired
    private ApplicationContext context;

    @Test
    void aCachedPoolIsUnlimitedAndItsCapacityStillChanges() throws Exception {
        JsonNode cached = getJson("/actuator/pools").get("executors").get("cached");
        assertThat(cached.get("type").asString()).isEqualTo("ThreadPoolExecutor");
        assertThat(cached.get("capacity").asInt()).isEqualTo(-1);
        assertThat(cached.get("coreSize").asInt()).isZero();
        HttpResponse<String> changed = post("/actuator/pools/cached", "{\"capacity\": 7}");
        assertThat(changed.statusCode()).as(changed.body()).isEqualTo(200);
        assertThat(EndpointClient.json(changed).get("capacity").asInt()).isEqualTo(7);
        assertThat(context.getBean("cached", ThreadPoolExecutor.class).getMaximumPoolSize()).isEqualTo(7);
    }

    @Test
    void scheduledPoolsShowAndTakeTheirCoreSize() throws Exception {
        JsonNode executors = getJson("/actuator/pools").get("executors");
        assertThat(executors.get("scheduled").get("coreSize").asInt()).isEqualTo(2);
        assertThat(executors.get("scheduled").get("capacity").asInt()).isEqualTo(2);
        assertThat(executors.get("springScheduler").get("coreSize").asInt()).isEqualTo(3);
        assertThat(executors.get("springScheduler").get("capacity").asInt()).isEqualTo(3);

        HttpResponse<String> scheduled = post("/actuator/pools/scheduled", "{\"coreSize\": 5}");
        assertThat(scheduled.statusCode()).as(scheduled.body()).isEqualTo(200);
        assertThat(EndpointClient.json(scheduled).get("coreSize").asInt()).isEqualTo(5);
        assertThat(EndpointClient.json(scheduled).get("capacity").asInt()).isEqualTo(5);
        assertThat(context.getBean("scheduled", ScheduledThreadPoolExecutor.class).getCorePoolSize()).isEqualTo(5);

        HttpResponse<String> spring = post("/actuator/pools/springScheduler", "{\"coreSize\": 4}");
        assertThat(spring.statusCode()).as(spring.body()).isEqualTo(200);
        assertThat(context.getBean("springScheduler", ThreadPoolTaskScheduler.class).getScheduledThreadPoolExecutor()
                .getCorePoolSize()).isEqualTo(4);

        HttpResponse<String> refused = post("/actuator/pools/springScheduler", "{\"capacity\": 6, \"coreSize\": 2}");
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
        assertThat(EndpointClient.json(refused).get("field").asString()).isEqualTo("coreSize");
        assertThat(EndpointClient.json(refused).get("detail").asString()).contains("ThreadPoolTaskScheduler");
        assertThat(context.getBean("springScheduler", ThreadPoolTaskScheduler.class).getScheduledThreadPoolExecutor()
                .getCorePoolSize()).as("nothing changed").isEqualTo(4);
    }

    private HttpResponse<String> post(String path, String body) throws Exception {
        return new EndpointClient(port).post(path, body);
    }

    private JsonNode getJson(String path) throws Exception {
        return new EndpointClient(port).getJson(path);
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Application {

        @Bean
        TomcatServletWebServerFactory tomcat() {
            return new TomcatServletWebServerFactory(0);
        }

        @Bean(destroyMethod = "shutdownNow")
        ExecutorService cached() {
            return Executors.newCachedThreadPool();
        }

        @Bean(destroyMethod = "shutdownNow")
        ScheduledThreadPoolExecutor scheduled() {
            return new ScheduledThreadPoolExecutor(2);
        }

        @Bean
        ThreadPoolTaskScheduler springScheduler() {
            ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
            scheduler.setPoolSize(3);
            return scheduler;
        }
    }
}
