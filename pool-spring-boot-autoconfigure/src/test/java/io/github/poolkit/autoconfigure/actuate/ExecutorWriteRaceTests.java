package io.github.poolkit.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

import io.github.poolkit.autoconfigure.PoolkitAutoConfiguration;

/**
 * Writes to an application's executor from several threads at once: each write moves the core size and the capacity
 * across each other, which the executor's own setters refuse the moment the core size would be above the maximum, so
 * every write succeeding shows that no write ever let it be, and the executor ends at one of the written pairs.
 */
@Timeout(60)
class ExecutorWriteRaceTests {

    private static final int WRITES = 200;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(PoolkitAutoConfiguration.class,
                    PoolsEndpointAutoConfiguration.class))
            .withPropertyValues("management.endpoints.web.exposure.include=pools", "poolkit.semaphore.enabled=false")
            .withUserConfiguration(Executors.class);

    @RepeatedTest(20)
    void concurrentWritesNeverLetTheCoreSizeAboveTheCapacity() {
        runner.run(context -> {
            PoolsEndpoint endpoint = context.getBean(PoolsEndpoint.class);
            List<String> refused = new CopyOnWriteArrayList<>();
            CountDownLatch start = new CountDownLatch(1);
            Thread[] writers = new Thread[3];
            String[][] pairs = {{"8", "6"}, {"3", "1"}, {"12", "10"}};
            for (int w = 0; w < writers.length; w++) {
                String[] pair = pairs[w];
                writers[w] = Thread.ofPlatform().start(() -> {
                    awaitQuietly(start);
                    for (int i = 0; i < WRITES; i++) {
                        for (String name : new String[] {"jdk", "spring"}) {
                            WebEndpointResponse<Object> response = endpoint.change(name, pair[0], null, null, null,
                                    null, pair[1]);
                            if (response.getStatus() != 200) {
                                refused.add(name + " " + pair[0] + "/" + pair[1] + ": " + response.getBody());
                            }
                        }
                    }
                });
            }
            start.countDown();
            for (Thread writer : writers) {
                writer.join(TimeUnit.SECONDS.toMillis(30));
            }
            assertThat(refused).isEmpty();
            ThreadPoolExecutor jdk = context.getBean("jdk", ThreadPoolExecutor.class);
            ThreadPoolExecutor spring = context.getBean("spring", ThreadPoolTaskExecutor.class).getThreadPoolExecutor();
            for (ThreadPoolExecutor pool : new ThreadPoolExecutor[] {jdk, spring}) {
                assertThat(List.of(List.of(8, 6), List.of(3, 1), List.of(12, 10)))
                        .contains(List.of(pool.getMaximumPoolSize(), pool.getCorePoolSize()));
            }
        });
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Executors {

        @Bean(destroyMethod = "shutdownNow")
        ThreadPoolExecutor jdk() {
            return new ThreadPoolExecutor(2, 4, 1, TimeUnit.MINUTES, new LinkedBlockingQueue<>());
        }

        @Bean
        ThreadPoolTaskExecutor spring() {
            ThreadPoolTaskExecutor executor = new ThreadPoolTaskExecutor();
            executor.setCorePoolSize(2);
            executor.setMaxPoolSize(4);
            return executor;
        }
    }
}
