package io.github.poolkit.autoconfigure.actuate;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.jetty.servlet.JettyServletWebServerFactory;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/** The {@code webServer} executor on a real Jetty (its {@code QueuedThreadPool}). */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, classes = JettyExecutorHttpTests.JettyApplication.class,
        properties = { "management.endpoints.web.exposure.include=pools,metrics",
                "management.endpoint.pools.access=unrestricted" })
class JettyExecutorHttpTests extends WebServerExecutorHttpTests {

    @Override
    String poolType() {
        return "QueuedThreadPool";
    }

    @Override
    int defaultCoreSize() {
        return 8;
    }

    @Override
    boolean countsCompleted() {
        return false;
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(OwnExecutor.class)
    static class JettyApplication {

        @Bean
        JettyServletWebServerFactory jetty() {
            return new JettyServletWebServerFactory(0);
        }
    }
}
