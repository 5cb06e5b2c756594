package io.github.poolkit.autoconfigure.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.poolkit.Permit;
import io.github.poolkit.PermitSemaphore;
import io.github.poolkit.autoconfigure.PoolkitAutoConfiguration;
import io.github.poolkit.redis.RedisClusterNodes;
import io.github.poolkit.redis.RedisPermitSemaphore;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** {@code scope: cluster} on a Redis Cluster, configured the application's way: {@code spring.data.redis.cluster.*}. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClusterSemaphoreOnRedisClusterTests {

    @RegisterExtension
    static final RedisClusterNodes cluster = new RedisClusterNodes();

    @Test
    void twoApplicationsShareOneBudgetOnARedisCluster() {
        ApplicationContextRunner runner = new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class,
                        PoolkitAutoConfiguration.class, PoolkitRedisAutoConfiguration.class))
                .withPropertyValues("spring.data.redis.cluster.nodes=" + cluster.nodes(),
                        "poolkit.semaphores.gpu-memory.scope=cluster", "poolkit.semaphores.gpu-memory.size=8");
        runner.run(first -> runner.run(second -> {
            PermitSemaphore a = first.getBean("gpu-memory", PermitSemaphore.class);
            PermitSemaphore b = second.getBean("gpu-memory", PermitSemaphore.class);
            assertThat(a).isInstanceOf(RedisPermitSemaphore.class);
            Permit held = a.acquirePermit(6);
            CompletableFuture<Permit> queued = b.acquireAsync(4);
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> a.waiting() == 1);
            held.close();
            queued.get(10, TimeUnit.SECONDS).close();
            assertThat(a.stats().used()).isZero();
        }));
    }
}
