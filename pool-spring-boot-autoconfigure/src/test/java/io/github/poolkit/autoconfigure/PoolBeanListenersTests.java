package io.github.poolkit.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.github.poolkit.Pool;
import io.github.poolkit.PoolListener;
import io.github.poolkit.PoolOptions;
import io.github.poolkit.WorkerPool;

/**
 * Listeners attached to pool beans whoever made them: the application's get one forwarder each, added once, and a
 * {@code Pool} of the application's own kind that cannot take a listener is skipped without a fuss.
 */
@Timeout(30)
class PoolBeanListenersTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(PoolkitAutoConfiguration.class));

    /** Counts finished tasks under a tag. */
    record Counting(String tag, List<String> heard) implements PoolListener {
        @Override
        public void taskFinished(long waitedNanos, long ranNanos, Throwable failure) {
            heard.add(tag);
        }
    }

    @RepeatedTest(5)
    void anApplicationPoolGetsOneForwarderAndEveryAttachedListenerHearsOnce() {
        WorkerPool mine = WorkerPool.create(1, PoolOptions.builder().name("mine").build());
        runner.withBean("mine", WorkerPool.class, () -> mine).run(context -> {
            PoolBeanListeners listeners = context.getBean(PoolBeanListeners.class);
            List<String> heard = new CopyOnWriteArrayList<>();
            assertThat(listeners.attach("mine", mine, new Counting("a", heard))).isTrue();
            assertThat(listeners.attach("mine", mine, new Counting("b", heard))).isTrue();
            mine.execute(() -> { });
            await().atMost(Duration.ofSeconds(10)).until(() -> heard.size() == 2);
            mine.execute(() -> { });
            await().atMost(Duration.ofSeconds(10)).until(() -> heard.size() == 4);
            assertThat(heard).containsExactly("a", "b", "a", "b");
            assertThat(mine.options().listener()).isNull();
            assertThat(context.getBean(PoolTaskListeners.class).isReporting("mine"))
                    .as("the refresh support's list of poolkit's own beans").isFalse();
        });
        mine.close();
    }

    @Test
    void poolkitsOwnPoolKeepsItsCreationListener() {
        runner.run(context -> {
            WorkerPool workerPool = context.getBean("workerPool", WorkerPool.class);
            PoolBeanListeners listeners = context.getBean(PoolBeanListeners.class);
            List<String> heard = new CopyOnWriteArrayList<>();
            assertThat(listeners.attach("workerPool", workerPool, new Counting("own", heard))).isTrue();
            workerPool.execute(() -> { });
            await().atMost(Duration.ofSeconds(10)).until(() -> heard.size() == 1);
            assertThat(context.getBean(PoolTaskListeners.class).isReporting("workerPool")).isTrue();
        });
    }

    @Test
    void aPoolOfTheApplicationsOwnKindThatCannotTakeAListenerIsSkippedQuietly() {
        InvocationHandler defaults = (proxy, method, args) -> switch (method.getName()) {
            case "addListener" -> InvocationHandler.invokeDefault(proxy, method, args);
            case "hashCode" -> System.identityHashCode(proxy);
            case "equals" -> proxy == args[0];
            case "toString" -> "own pool";
            default -> null;
        };
        Pool own = (Pool) Proxy.newProxyInstance(Pool.class.getClassLoader(), new Class<?>[] { Pool.class },
                defaults);
        runner.withBean("own", Pool.class, () -> own).run(context -> {
            assertThat(context).hasNotFailed();
            PoolBeanListeners listeners = context.getBean(PoolBeanListeners.class);
            assertThat(listeners.attach("own", own, new Counting("x", new CopyOnWriteArrayList<>()))).isFalse();
        });
    }
}
