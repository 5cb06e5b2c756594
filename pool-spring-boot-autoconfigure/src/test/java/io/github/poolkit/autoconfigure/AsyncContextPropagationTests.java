package io.github.poolkit.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.micrometer.context.ContextRegistry;
import io.micrometer.context.ThreadLocalAccessor;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.MDC;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.Async;
import org.springframework.scheduling.annotation.EnableAsync;

/**
 * {@code @Async("reports")} on a poolkit pool keeps the caller's MDC when the application sets
 * {@code spring.task.execution.propagate-context=true}: Spring Boot's own task-execution auto-configuration contributes
 * the {@code ContextPropagatingTaskDecorator} bean, and poolkit applies it to the {@code reports} pool.
 */
@SpringBootTest(properties = { "spring.task.execution.propagate-context=true", "poolkit.pools.reports.capacity=2",
        "poolkit.semaphore.enabled=false" })
@Timeout(30)
class AsyncContextPropagationTests {

    private static final String MDC_KEY = "requestId";

    @Autowired
    private Reports reports;

    @BeforeAll
    static void registerMdcAccessor() {
        ContextRegistry.getInstance().registerThreadLocalAccessor(new ContextPropagationTests.MdcAccessor());
    }

    @AfterAll
    static void removeMdcAccessor() {
        ContextRegistry.getInstance().removeThreadLocalAccessor(MDC_KEY);
    }

    @Test
    void asyncMethodOnAPoolkitPoolSeesTheCallersMdc() throws Exception {
        MDC.put(MDC_KEY, "req-42");
        CompletableFuture<String> seen;
        try {
            seen = reports.whoAmI();
        }
        finally {
            MDC.remove(MDC_KEY);
        }
        assertThat(seen.get(10, TimeUnit.SECONDS)).startsWith("reports-").endsWith(" req-42");
    }

    /** A bean whose method runs on the {@code reports} pool. */
    static class Reports {

        @Async("reports")
        CompletableFuture<String> whoAmI() {
            return CompletableFuture.completedFuture(Thread.currentThread().getName() + " " + MDC.get(MDC_KEY));
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableAsync
    @ImportAutoConfiguration({ TaskExecutionAutoConfiguration.class, PoolkitAutoConfiguration.class })
    static class AsyncApplication {

        @Bean
        Reports reportService() {
            return new Reports();
        }
    }
}
