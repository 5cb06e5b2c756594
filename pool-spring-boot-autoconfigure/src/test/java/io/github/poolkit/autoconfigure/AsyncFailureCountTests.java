package io.github.poolkit.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.Async;
import org.springframework.scheduling.annotation.EnableAsync;

import io.github.poolkit.WorkerPool;

/**
 * An {@code @Async} method returning a {@link Future} goes through the pool's {@code submit}: one that throws counts as
 * failed, and its count is final when {@code get()} returns, also through the task decorator that
 * {@code spring.task.execution.propagate-context=true} adds.
 */
@SpringBootTest(properties = { "spring.task.execution.propagate-context=true", "poolkit.pools.reports.capacity=2",
        "poolkit.semaphore.enabled=false" })
@Timeout(30)
class AsyncFailureCountTests {

    @Autowired
    private Reports reports;

    @Autowired
    @Qualifier("reports")
    private WorkerPool pool;

    @Test
    void aThrowingAsyncMethodCountsAsFailedWhenItsFutureCompletes() throws Exception {
        for (int i = 1; i <= 200; i++) {
            assertThatThrownBy(() -> reports.fail().get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(IllegalStateException.class);
            assertThat(pool.stats().failed()).isEqualTo(i);
            assertThat(reports.succeed().get(10, TimeUnit.SECONDS)).isEqualTo("ok");
            assertThat(pool.stats().completed()).isEqualTo(i);
        }
    }

    /** A bean whose methods run on the {@code reports} pool. */
    static class Reports {

        @Async("reports")
        Future<String> fail() {
            throw new IllegalStateException("expected by the test");
        }

        @Async("reports") // declared as a Future, so Spring hands it to the pool's submit
        Future<String> succeed() {
            return CompletableFuture.completedFuture("ok");
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
