package io.github.poolkit.autoconfigure.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.poolkit.Permit;
import io.github.poolkit.PermitSemaphore;
import io.github.poolkit.autoconfigure.PoolkitAutoConfiguration;
import io.github.poolkit.redis.RedisServer;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.config.BeanDefinitionCustomizer;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * With several Redis connection factories, a cluster semaphore takes the one Spring would inject: of the autowire
 * candidates, the {@code @Primary} one, else the only one not marked {@code @Fallback}; with no such one, start-up
 * stops naming them.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClusterSemaphoreConnectionFactoryTests {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private ApplicationContextRunner runner;

    /** A port nobody listens on: a semaphore on the factory pointed there could not reach Redis. */
    private int deadPort;

    @BeforeEach
    void runner() throws IOException {
        redis.flush();
        try (ServerSocket socket = new ServerSocket(0)) {
            deadPort = socket.getLocalPort();
        }
        runner = new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class,
                        PoolkitAutoConfiguration.class, PoolkitRedisAutoConfiguration.class))
                .withPropertyValues("poolkit.semaphores.gpu.scope=cluster", "poolkit.semaphores.gpu.size=4");
    }

    private ApplicationContextRunner factories(BeanDefinitionCustomizer live, BeanDefinitionCustomizer dead) {
        return runner.withBean("liveRedis", LettuceConnectionFactory.class, () -> factoryOn(redis.port()), live)
                .withBean("deadRedis", LettuceConnectionFactory.class, () -> factoryOn(deadPort), dead);
    }

    private static LettuceConnectionFactory factoryOn(int port) {
        return new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", port));
    }

    @Test
    void takesThePrimaryFactory() {
        factories(bean -> bean.setPrimary(true), bean -> { }).run(context -> {
            assertThat(context).hasNotFailed();
            assertWorksOnTheLiveRedis(context.getBean("gpu", PermitSemaphore.class));
            assertThat(context.getBeanFactory().getDependentBeans("liveRedis")).contains("gpu");
            assertThat(context.getBeanFactory().getDependentBeans("deadRedis")).doesNotContain("gpu");
        });
    }

    @Test
    void takesTheOnlyFactoryNotMarkedFallback() {
        factories(bean -> { }, bean -> bean.setFallback(true)).run(context -> {
            assertThat(context).hasNotFailed();
            assertWorksOnTheLiveRedis(context.getBean("gpu", PermitSemaphore.class));
        });
    }

    @Test
    void leavesOutAFactoryThatIsNoAutowireCandidate() {
        factories(bean -> { }, bean -> bean.setAutowireCandidate(false)).run(context -> {
            assertThat(context).hasNotFailed();
            assertWorksOnTheLiveRedis(context.getBean("gpu", PermitSemaphore.class));
        });
    }

    @Test
    void withNoPrimaryFactoryStartUpStopsNamingThemAndTheFix() {
        factories(bean -> { }, bean -> { }).run(context -> {
            assertThat(context).hasFailed();
            assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("poolkit.semaphores.gpu.scope")
                    .hasMessageContaining("liveRedis").hasMessageContaining("deadRedis")
                    .hasMessageContaining("mark the one to use @Primary");
        });
    }

    private static void assertWorksOnTheLiveRedis(PermitSemaphore gpu) throws Exception {
        try (Permit permit = gpu.tryAcquirePermit(3)) {
            assertThat(permit).isNotNull();
            assertThat(gpu.used()).isEqualTo(3);
        }
        assertThat(gpu.used()).isZero();
    }
}
