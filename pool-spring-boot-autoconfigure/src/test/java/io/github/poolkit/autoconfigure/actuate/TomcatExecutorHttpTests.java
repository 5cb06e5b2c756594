package io.github.poolkit.autoconfigure.actuate;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/** The {@code webServer} executor on a real Tomcat (its own {@code ThreadPoolExecutor}). */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, classes = TomcatExecutorHttpTests.TomcatApplication.class,
        properties = { "management.endpoints.web.exposure.include=pools,metrics",
                "management.endpoint.pools.access=unrestricted" })
class TomcatExecutorHttpTests extends WebServerExecutorHttpTests {

    @Override
    String poolType() {
        return "ThreadPoolExecutor";
    }

    @Override
    int defaultCoreSize() {
        return 10;
    }

    @Override
    boolean countsCompleted() {
        return true;
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(OwnExecutor.class)
    static class TomcatApplication {

        @Bean
        TomcatServletWebServerFactory tomcat() {
            return new TomcatServletWebServerFactory(0);
        }
    }
}
