package io.github.poolkit.autoconfigure.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.poolkit.Permit;
import io.github.poolkit.PermitSemaphore;
import io.github.poolkit.WeightedSemaphore;
import io.github.poolkit.autoconfigure.InvalidPoolkitPropertyException;
import io.github.poolkit.autoconfigure.PoolkitAutoConfiguration;
import io.github.poolkit.redis.RedisPermitSemaphore;
import io.github.poolkit.redis.RedisServer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.NestedExceptionUtils;

/** {@code poolkit.semaphores.<name>.scope: cluster} beans, on a real {@code redis-server}. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClusterSemaphoreBeansTests {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private ApplicationContextRunner runner;

    @BeforeEach
    void runner() throws Exception {
        redis.flush();
        runner = new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class,
                        PoolkitAutoConfiguration.class, PoolkitRedisAutoConfiguration.class))
                .withPropertyValues("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + redis.port(),
                        "poolkit.semaphores.gpu-memory.scope=cluster", "poolkit.semaphores.gpu-memory.size=8",
                        "poolkit.semaphores.gpu-memory.lease-time=5s", "poolkit.semaphores.local-one.size=2");
    }

    @Test
    void aClusterEntryBecomesARedisPermitSemaphoreBeanOfItsNameInjectableByTheSharedType() {
        runner.run(context -> {
            assertThat(context).hasNotFailed();
            PermitSemaphore gpu = context.getBean("gpu-memory", PermitSemaphore.class);
            assertThat(gpu).isInstanceOf(RedisPermitSemaphore.class);
            assertThat(((RedisPermitSemaphore) gpu).leaseTime()).isEqualTo(Duration.ofSeconds(5));
            assertThat(gpu.size()).isEqualTo(8);
            assertThat(context.getBean("local-one")).isInstanceOf(WeightedSemaphore.class);
            assertThat(context.getBeansOfType(PermitSemaphore.class))
                    .containsKeys("gpu-memory", "local-one", "weightedSemaphore");
        });
    }

    @Test
    void twoApplicationsShareOneBudget() {
        runner.run(first -> runner.run(second -> {
            PermitSemaphore a = first.getBean("gpu-memory", PermitSemaphore.class);
            PermitSemaphore b = second.getBean("gpu-memory", PermitSemaphore.class);
            assertThat(a).isNotSameAs(b);
            try (Permit permit = a.acquirePermit(6)) {
                assertThat(permit.fencingToken()).isPositive();
                assertThat(b.used()).isEqualTo(6);
                assertThat(b.tryAcquire(3)).isFalse();
                assertThat(b.tryAcquire(2)).isTrue();
                b.release(2);
            }
            assertThat(b.used()).isZero();
        }));
    }

    @Test
    void closingTheContextWithdrawsItsWaitingRequestsBeforeRedisIsDisconnected() {
        runner.run(first -> {
            PermitSemaphore a = first.getBean("gpu-memory", PermitSemaphore.class);
            a.acquire(8);
            AtomicReference<CompletableFuture<Permit>> waiting = new AtomicReference<>();
            runner.run(second -> {
                waiting.set(second.getBean("gpu-memory", PermitSemaphore.class).acquireAsync(1));
                Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> a.waiting() == 1);
            });
            assertThat(waiting.get()).isCompletedExceptionally();
            assertThat(a.waiting()).as("withdrawn on close, not after the lease time").isZero();
            a.release(8);
        });
    }

    @Test
    void theSizeIsInheritedFromThePrimarySemaphoreWhenUnset() {
        runner.withPropertyValues("poolkit.semaphore.size=12", "poolkit.semaphores.quota.scope=cluster")
                .run(context -> assertThat(context.getBean("quota", PermitSemaphore.class).size()).isEqualTo(12));
    }

    @Test
    void withoutPoolRedisOnTheClasspathStartUpStopsNamingTheFix() {
        // A cluster semaphore silently missing would only show as a NoSuchBeanDefinitionException somewhere else.
        runner.withClassLoader(new FilteredClassLoader(RedisPermitSemaphore.class)).run(context -> {
            assertThat(context).hasFailed();
            assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                    .isInstanceOf(InvalidPoolkitPropertyException.class)
                    .hasMessageContaining("poolkit.semaphores.gpu-memory.scope")
                    .hasMessageContaining("io.github.poolkit:pool-redis");
        });
    }
}
