package io.github.poolkit.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.aop.framework.ProxyFactory;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.autoconfigure.task.TaskSchedulingAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Lazy;
import org.springframework.core.task.SimpleAsyncTaskExecutor;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.concurrent.ThreadPoolExecutorFactoryBean;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

import io.github.poolkit.autoconfigure.PoolkitAutoConfiguration;
import io.github.poolkit.autoconfigure.actuate.PoolsEndpoint.PoolsDescriptor;

/**
 * The endpoint's {@code executors}: every executor bean the application made (real JDK and Spring executors, Boot's
 * own), read and changed through the endpoint's operations called directly, failure modes included.
 */
@Timeout(30)
class ExecutorsEndpointTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(TaskExecutionAutoConfiguration.class,
                    TaskSchedulingAutoConfiguration.class, PoolkitAutoConfiguration.class,
                    PoolsEndpointAutoConfiguration.class))
            .withPropertyValues("management.endpoints.web.exposure.include=pools", "poolkit.semaphore.enabled=false",
                    "poolkit.pools.reports.capacity=4");

    private final ApplicationContextRunner withExecutors = runner
            .withUserConfiguration(ApplicationExecutorsConfig.class);

    @Test
    void listsEveryExecutorBeanButPoolkitsOwn() {
        withExecutors.run(context -> {
            PoolsDescriptor all = context.getBean(PoolsEndpoint.class).pools();
            assertThat(all.executors()).containsOnlyKeys("jdkPool", "scheduledPool", "forkJoinPool", "springPool",
                    "simpleAsync", "limitedAsync", "custom", "failing", "stopped", "factoryPool");
            assertThat(all.pools()).containsKeys("workerPool", "reports");
            assertThat(all.schedulers()).containsKey("delayScheduler");
        });
    }

    @Test
    void readsWhatEachKindTellsAndNothingElse() {
        withExecutors.run(context -> {
            PoolsDescriptor all = context.getBean(PoolsEndpoint.class).pools();
            assertThat(all.executors().get("jdkPool"))
                    .isEqualTo(new ExecutorDescriptor("ThreadPoolExecutor", 4, 2, 0, 0, 0, 10, 0L));
            assertThat(all.executors().get("scheduledPool"))
                    .isEqualTo(new ExecutorDescriptor("ScheduledThreadPoolExecutor", 3, 3, 0, 0, 0,
                            Integer.MAX_VALUE, 0L));
            ExecutorDescriptor forkJoin = all.executors().get("forkJoinPool");
            assertThat(forkJoin.type()).isEqualTo("ForkJoinPool");
            assertThat(forkJoin.capacity()).isEqualTo(2);
            assertThat(forkJoin.coreSize()).isNull();
            assertThat(forkJoin.completed()).isNull();
            assertThat(forkJoin.queueRemaining()).isNull();
            assertThat(all.executors().get("springPool"))
                    .isEqualTo(new ExecutorDescriptor("ThreadPoolTaskExecutor", 5, 1, 0, 0, 0, 7, 0L));
            assertThat(all.executors().get("simpleAsync"))
                    .isEqualTo(new ExecutorDescriptor("SimpleAsyncTaskExecutor", -1, null, null, null, null, null,
                            null));
            assertThat(all.executors().get("factoryPool").capacity()).as("a factory bean's executor").isEqualTo(2);
            assertThat(all.executors().get("custom"))
                    .isEqualTo(new ExecutorDescriptor("DirectExecutor", null, null, null, null, null, null, null));
        });
    }

    /** Figures read one getter at a time: busy threads are never shown above the threads alive. */
    @Test
    void busyIsNeverShownAboveRunning() {
        runner.withBean("racy", Executor.class, () -> new ThreadPoolExecutor(1, 4, 1, TimeUnit.MINUTES,
                new LinkedBlockingQueue<>()) {
            @Override
            public int getActiveCount() {
                return 3; // as if threads started between the reads of pool size (0) and active count
            }
        }).run(context -> {
            ExecutorDescriptor racy = (ExecutorDescriptor) context.getBean(PoolsEndpoint.class).pool("racy");
            assertThat(racy.running()).isZero();
            assertThat(racy.busy()).isZero();
            context.getBean("racy", ThreadPoolExecutor.class).shutdown();
        });
    }

    @Test
    void readsAProxiedExecutorAsTheExecutorBehindTheProxy() {
        runner.withUserConfiguration(ProxiedExecutorsConfig.class).run(context -> {
            PoolsDescriptor all = context.getBean(PoolsEndpoint.class).pools();
            assertThat(all.executors().get("classProxied")).as("a CGLIB proxy")
                    .isEqualTo(new ExecutorDescriptor("ThreadPoolTaskExecutor", 5, 1, 0, 0, 0, 7, 0L));
            assertThat(all.executors().get("interfaceProxied")).as("a JDK proxy")
                    .isEqualTo(new ExecutorDescriptor("ThreadPoolExecutor", 4, 2, 0, 0, 0, 10, 0L));
            assertThat(all.executors().get("unknownProxied")).as("a JDK proxy of a kind poolkit does not know")
                    .isEqualTo(new ExecutorDescriptor("DirectExecutor", null, null, null, null, null, null, null));
        });
    }

    @Test
    void theCommonForkJoinPoolIsListedButNotResized() {
        runner.withBean("common", Executor.class, ForkJoinPool::commonPool).run(context -> {
            PoolsEndpoint endpoint = context.getBean(PoolsEndpoint.class);
            int parallelism = ForkJoinPool.commonPool().getParallelism();
            assertThat(((ExecutorDescriptor) endpoint.pool("common")).capacity()).isEqualTo(parallelism);
            assertProblem(endpoint.change("common", String.valueOf(parallelism + 1), null, null, null, null),
                    "capacity", "the JVM's common ForkJoinPool");
            assertProblem(endpoint.change("common", String.valueOf(parallelism + 1), null, null, null, null),
                    "capacity", "-Djava.util.concurrent.ForkJoinPool.common.parallelism");
            assertThat(ForkJoinPool.commonPool().getParallelism()).as("the JVM's common pool").isEqualTo(parallelism);
        });
    }

    @Test
    void listsAndTunesSpringBootsOwnExecutors() {
        runner.withUserConfiguration(SchedulingConfig.class).run(context -> {
            PoolsEndpoint endpoint = context.getBean(PoolsEndpoint.class);
            assertThat(endpoint.pools().executors()).containsOnlyKeys("applicationTaskExecutor", "taskScheduler");
            ExecutorDescriptor tasks = (ExecutorDescriptor) endpoint.pool("applicationTaskExecutor");
            assertThat(tasks.type()).isEqualTo("ThreadPoolTaskExecutor");
            assertThat(tasks.capacity()).as("Boot's default maximum, Integer.MAX_VALUE, is unlimited").isEqualTo(-1);
            assertThat(tasks.coreSize()).isEqualTo(8);
            ExecutorDescriptor scheduler = (ExecutorDescriptor) endpoint.pool("taskScheduler");
            assertThat(scheduler.type()).isEqualTo("ThreadPoolTaskScheduler");
            assertThat(scheduler.capacity()).isEqualTo(1);
            assertThat(scheduler.coreSize()).isEqualTo(1);
            assertOk(endpoint.change("applicationTaskExecutor", "16", null, null, null, null, "4"));
            assertThat(context.getBean("applicationTaskExecutor", ThreadPoolTaskExecutor.class).getMaxPoolSize())
                    .isEqualTo(16);
            assertThat(((ExecutorDescriptor) endpoint.pool("applicationTaskExecutor")).capacity()).isEqualTo(16);
            assertOk(endpoint.change("taskScheduler", "2", null, null, null, null));
            assertThat(((ExecutorDescriptor) endpoint.pool("taskScheduler")).capacity()).isEqualTo(2);
            assertOk(endpoint.change("taskScheduler", null, null, null, null, null, "3"));
            assertThat(context.getBean("taskScheduler", ThreadPoolTaskScheduler.class).getScheduledThreadPoolExecutor()
                    .getCorePoolSize()).isEqualTo(3);
            ExecutorDescriptor resized = (ExecutorDescriptor) endpoint.pool("taskScheduler");
            assertThat(resized.capacity()).isEqualTo(3);
            assertThat(resized.coreSize()).isEqualTo(3);
        });
    }

    @Test
    void aGetterThatThrowsCostsOnlyItsFigureAndAStoppedExecutorIsStillRead() {
        withExecutors.run(context -> {
            PoolsEndpoint endpoint = context.getBean(PoolsEndpoint.class);
            ExecutorDescriptor failing = (ExecutorDescriptor) endpoint.pool("failing");
            assertThat(failing.busy()).isNull();
            assertThat(failing.queued()).isNull();
            assertThat(failing.capacity()).isEqualTo(2);
            assertThat(failing.running()).isZero();
            ExecutorDescriptor stopped = (ExecutorDescriptor) endpoint.pool("stopped");
            assertThat(stopped.type()).isEqualTo("ThreadPoolExecutor");
            assertThat(stopped.capacity()).isEqualTo(2);
            assertThat(stopped.completed()).isEqualTo(1);
            assertThat(endpoint.pools().executors()).containsKeys("failing", "stopped");
            // a shut-down executor runs no more tasks: a new size would read as applied and change nothing
            assertProblem(endpoint.change("stopped", "4", null, null, null, null, "2"), "capacity", "shut down");
            assertThat(context.getBean("stopped", ThreadPoolExecutor.class).getMaximumPoolSize()).isEqualTo(2);
            assertThat(context.getBean("stopped", ThreadPoolExecutor.class).getCorePoolSize()).isEqualTo(1);
        });
    }

    @Test
    void liveFiguresFollowTheExecutor() {
        withExecutors.run(context -> {
            PoolsEndpoint endpoint = context.getBean(PoolsEndpoint.class);
            ThreadPoolExecutor pool = context.getBean("jdkPool", ThreadPoolExecutor.class);
            CountDownLatch started = new CountDownLatch(2);
            CountDownLatch release = new CountDownLatch(1);
            for (int i = 0; i < 3; i++) {
                pool.execute(() -> {
                    started.countDown();
                    awaitQuietly(release);
                });
            }
            assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
            ExecutorDescriptor busy = (ExecutorDescriptor) endpoint.pool("jdkPool");
            assertThat(busy.running()).isEqualTo(2);
            assertThat(busy.busy()).isEqualTo(2);
            assertThat(busy.queued()).isEqualTo(1);
            assertThat(busy.queueRemaining()).isEqualTo(9);
            release.countDown();
            await().atMost(10, TimeUnit.SECONDS)
                    .until(() -> ((ExecutorDescriptor) endpoint.pool("jdkPool")).completed() == 3);
        });
    }

    @Test
    void changesCapacityAndCoreSizeThroughTheExecutorsOwnSetters() {
        withExecutors.run(context -> {
            PoolsEndpoint endpoint = context.getBean(PoolsEndpoint.class);
            ThreadPoolExecutor jdk = context.getBean("jdkPool", ThreadPoolExecutor.class);
            // core 6 is above the current maximum 4: the maximum must grow first
            assertOk(endpoint.change("jdkPool", "8", null, null, null, null, "6"));
            assertThat(jdk.getMaximumPoolSize()).isEqualTo(8);
            assertThat(jdk.getCorePoolSize()).isEqualTo(6);
            // maximum 3 is below the current core 6: the core must shrink first
            assertOk(endpoint.change("jdkPool", "3", null, null, null, null, "1"));
            assertThat(jdk.getMaximumPoolSize()).isEqualTo(3);
            assertThat(jdk.getCorePoolSize()).isEqualTo(1);
            assertOk(endpoint.change("jdkPool", null, null, null, null, null, "3"));
            assertThat(jdk.getCorePoolSize()).isEqualTo(3);

            ThreadPoolTaskExecutor spring = context.getBean("springPool", ThreadPoolTaskExecutor.class);
            assertOk(endpoint.change("springPool", "9", null, null, null, null, "9"));
            assertThat(spring.getThreadPoolExecutor().getMaximumPoolSize()).isEqualTo(9);
            assertThat(spring.getThreadPoolExecutor().getCorePoolSize()).isEqualTo(9);

            ScheduledThreadPoolExecutor scheduled = context.getBean("scheduledPool", ScheduledThreadPoolExecutor.class);
            assertOk(endpoint.change("scheduledPool", "5", null, null, null, null));
            assertThat(scheduled.getCorePoolSize()).isEqualTo(5);
            // its core size is its capacity: either field (or both, equal) changes it through setCorePoolSize
            assertOk(endpoint.change("scheduledPool", null, null, null, null, null, "4"));
            assertThat(scheduled.getCorePoolSize()).isEqualTo(4);
            assertOk(endpoint.change("scheduledPool", "6", null, null, null, null, "6"));
            assertThat(scheduled.getCorePoolSize()).isEqualTo(6);
            ExecutorDescriptor read = (ExecutorDescriptor) endpoint.pool("scheduledPool");
            assertThat(read.capacity()).isEqualTo(6);
            assertThat(read.coreSize()).isEqualTo(6);
            assertOk(endpoint.change("limitedAsync", "3", null, null, null, null));
            assertThat(context.getBean("limitedAsync", SimpleAsyncTaskExecutor.class).getConcurrencyLimit())
                    .isEqualTo(3);
            assertOk(endpoint.change("forkJoinPool", "3", null, null, null, null));
            assertThat(context.getBean("forkJoinPool", ForkJoinPool.class).getParallelism()).isEqualTo(3);
        });
    }

    @Test
    void refusesWhatCannotChangeNamingTheFieldAndTheTypeAndChangesNothing() {
        withExecutors.run(context -> {
            PoolsEndpoint endpoint = context.getBean(PoolsEndpoint.class);
            ThreadPoolExecutor jdk = context.getBean("jdkPool", ThreadPoolExecutor.class);
            assertProblem(endpoint.change("jdkPool", "4", null, null, null, null, "5"), "coreSize", "above");
            assertProblem(endpoint.change("jdkPool", null, null, null, null, null, "5"), "coreSize", "above");
            assertProblem(endpoint.change("jdkPool", "1", null, null, null, null), "capacity", "above");
            assertProblem(endpoint.change("jdkPool", "-3", null, null, null, null), "capacity", "positive");
            assertProblem(endpoint.change("jdkPool", "0", null, null, null, null), "capacity", "positive");
            assertProblem(endpoint.change("jdkPool", "-1", null, null, null, null), "capacity",
                    "-1 is how an unlimited capacity reads, not a size");
            assertProblem(endpoint.change("jdkPool", null, null, null, null, null, "-1"), "coreSize", "negative");
            assertProblem(endpoint.change("jdkPool", "many", null, null, null, null), "capacity", "whole number");
            assertProblem(endpoint.change("jdkPool", null, null, null, null, null, "2.5"), "coreSize",
                    "'2.5' is not valid: expected a whole number such as 16 for a ThreadPoolExecutor");
            assertProblem(endpoint.change("jdkPool", "6", "1s", null, null, null), "maxWait", "ThreadPoolExecutor");
            assertProblem(endpoint.change("jdkPool", null, null, null, "true", null), "nonblocking",
                    "ThreadPoolExecutor");
            assertProblem(endpoint.change("jdkPool", null, null, null, null, "3"), "size", "ThreadPoolExecutor");
            assertProblem(endpoint.change("jdkPool", null, null, null, null, null), "capacity", "nothing to change");
            assertThat(jdk.getMaximumPoolSize()).isEqualTo(4);
            assertThat(jdk.getCorePoolSize()).isEqualTo(2);

            assertProblem(endpoint.change("custom", "3", null, null, null, null), "capacity",
                    "poolkit does not know how to size a DirectExecutor");
            assertProblem(endpoint.change("custom", null, null, null, null, null, "1"), "coreSize",
                    "poolkit does not know how to size a DirectExecutor");
            // the JDK refuses a parallelism above 32767 with no message: the answer says what it means
            assertProblem(endpoint.change("forkJoinPool", "40000", null, null, null, null), "capacity",
                    "IllegalArgumentException without a message (a value out of the range");
            assertThat(context.getBean("forkJoinPool", ForkJoinPool.class).getParallelism()).isEqualTo(2);
            assertProblem(endpoint.change("scheduledPool", "5", null, null, null, null, "2"), "coreSize",
                    "ScheduledThreadPoolExecutor runs on its core threads only");
            assertProblem(endpoint.change("scheduledPool", null, null, null, null, null, "0"), "coreSize",
                    "must be positive");
            assertThat(context.getBean("scheduledPool", ScheduledThreadPoolExecutor.class).getCorePoolSize())
                    .isEqualTo(3);
            assertProblem(endpoint.change("simpleAsync", null, null, null, null, null, "2"), "coreSize",
                    "SimpleAsyncTaskExecutor");
            // Spring: an unlimited one does not count its running tasks, so a limit given while they run miscounts
            assertProblem(endpoint.change("simpleAsync", "3", null, null, null, null), "capacity",
                    "an unlimited SimpleAsyncTaskExecutor cannot be given a limit while it runs");
            assertThat(context.getBean("simpleAsync", SimpleAsyncTaskExecutor.class).getConcurrencyLimit())
                    .isEqualTo(-1);
            assertProblem(endpoint.change("reports", null, null, null, null, null, "2"), "coreSize", "reports");
            assertThat(endpoint.change("nope", null, null, null, null, null, "2").getStatus()).isEqualTo(404);
        });
    }

    /** Jetty's pool is no {@code ExecutorService}: stopped, it is told shut down by Jetty's own state. */
    @Test
    void aStoppedJettyPoolIsShutDownAndNotResized() {
        runner.withBean("jettyPool", Executor.class, () -> {
            org.eclipse.jetty.util.thread.QueuedThreadPool pool = new org.eclipse.jetty.util.thread.QueuedThreadPool(8,
                    2);
            try {
                pool.start();
                pool.stop();
            }
            catch (Exception ex) {
                throw new IllegalStateException(ex);
            }
            return pool;
        }).run(context -> {
            PoolsEndpoint endpoint = context.getBean(PoolsEndpoint.class);
            assertProblem(endpoint.change("jettyPool", "4", null, null, null, null), "capacity", "is shut down");
            assertThat(context.getBean("jettyPool", org.eclipse.jetty.util.thread.QueuedThreadPool.class)
                    .getMaxThreads()).isEqualTo(8);
        });
    }

    @Test
    void anExecutorWithoutAMaximumIsUnlimitedAndItsCapacityStillChanges() {
        runner.withUserConfiguration(UnlimitedExecutorsConfig.class).run(context -> {
            PoolsEndpoint endpoint = context.getBean(PoolsEndpoint.class);
            ExecutorDescriptor cached = (ExecutorDescriptor) endpoint.pool("cachedPool");
            assertThat(cached.type()).isEqualTo("ThreadPoolExecutor");
            assertThat(cached.capacity()).isEqualTo(-1);
            assertThat(cached.coreSize()).isZero();
            assertThat(endpoint.pools().executors().get("unboundedSpring").capacity()).isEqualTo(-1);
            assertOk(endpoint.change("cachedPool", "6", null, null, null, null, "2"));
            ThreadPoolExecutor pool = context.getBean("cachedPool", ThreadPoolExecutor.class);
            assertThat(pool.getMaximumPoolSize()).isEqualTo(6);
            assertThat(pool.getCorePoolSize()).isEqualTo(2);
            assertThat(((ExecutorDescriptor) endpoint.pool("cachedPool")).capacity()).isEqualTo(6);
            assertOk(endpoint.change("unboundedSpring", "4", null, null, null, null));
            assertThat(context.getBean("unboundedSpring", ThreadPoolTaskExecutor.class).getMaxPoolSize()).isEqualTo(4);
        });
    }

    @Test
    void aSetterThatThrowsIsRefusedAndTheFirstChangeUndone() {
        withExecutors.run(context -> {
            PoolsEndpoint endpoint = context.getBean(PoolsEndpoint.class);
            ThreadPoolExecutor failing = context.getBean("failing", ThreadPoolExecutor.class);
            // core 3 above the current maximum 2: the maximum grows first, then the core size is refused
            assertProblem(endpoint.change("failing", "3", null, null, null, null, "3"), "coreSize", "refused");
            assertThat(failing.getCorePoolSize()).isEqualTo(1);
            assertThat(failing.getMaximumPoolSize()).isEqualTo(2);
        });
    }

    /** Should the undo fail too, the answer does not claim that nothing changed: it says what was left changed. */
    @Test
    void aFailedUndoSaysWhichSizeWasLeftChanged() {
        runner.withBean("oneWay", Executor.class, OneWayPool::new).run(context -> {
            PoolsEndpoint endpoint = context.getBean(PoolsEndpoint.class);
            // core 3 above the current maximum 2: the maximum grows first, the core size is refused, and the
            // maximum, which this pool never lowers, cannot be set back
            assertProblem(endpoint.change("oneWay", "3", null, null, null, null, "3"), "coreSize",
                    "undoing the first change failed too, so the OneWayPool's capacity is now 3, not 2");
            assertThat(context.getBean("oneWay", ThreadPoolExecutor.class).getMaximumPoolSize()).isEqualTo(3);
            context.getBean("oneWay", ThreadPoolExecutor.class).shutdown();
        });
    }

    @Test
    void aLazyExecutorIsNotCreatedByARead() {
        withExecutors.withUserConfiguration(LazyExecutorConfig.class).run(context -> {
            PoolsEndpoint endpoint = context.getBean(PoolsEndpoint.class);
            assertThat(endpoint.pools().executors()).doesNotContainKey("lazyPool");
            assertThat(context.getBeanFactory().containsSingleton("lazyPool")).isFalse();
            context.getBean("lazyPool");
            assertThat(endpoint.pools().executors()).containsKey("lazyPool");
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

    private static void assertOk(WebEndpointResponse<Object> response) {
        assertThat(response.getStatus()).as(String.valueOf(response.getBody())).isEqualTo(200);
        assertThat(response.getBody()).isInstanceOf(ExecutorDescriptor.class);
    }

    private static void assertProblem(WebEndpointResponse<Object> response, String field, String detail) {
        assertThat(response.getStatus()).as(String.valueOf(response.getBody())).isEqualTo(400);
        EndpointProblem problem = (EndpointProblem) response.getBody();
        assertThat(problem.field()).isEqualTo(field);
        assertThat(problem.detail()).contains(detail);
    }

    @Configuration(proxyBeanMethods = false)
    @EnableScheduling
    static class SchedulingConfig {
    }

    @Configuration(proxyBeanMethods = false)
    static class ApplicationExecutorsConfig {

        @Bean(destroyMethod = "shutdownNow")
        ThreadPoolExecutor jdkPool() {
            return new ThreadPoolExecutor(2, 4, 1, TimeUnit.MINUTES, new LinkedBlockingQueue<>(10));
        }

        @Bean(destroyMethod = "shutdownNow")
        ScheduledThreadPoolExecutor scheduledPool() {
            return new ScheduledThreadPoolExecutor(3);
        }

        @Bean(destroyMethod = "shutdownNow")
        ForkJoinPool forkJoinPool() {
            return new ForkJoinPool(2);
        }

        @Bean
        ThreadPoolTaskExecutor springPool() {
            ThreadPoolTaskExecutor executor = new ThreadPoolTaskExecutor();
            executor.setCorePoolSize(1);
            executor.setMaxPoolSize(5);
            executor.setQueueCapacity(7);
            return executor;
        }

        @Bean
        ThreadPoolExecutorFactoryBean factoryPool() {
            ThreadPoolExecutorFactoryBean factory = new ThreadPoolExecutorFactoryBean();
            factory.setCorePoolSize(1);
            factory.setMaxPoolSize(2);
            return factory;
        }

        @Bean
        SimpleAsyncTaskExecutor simpleAsync() {
            return new SimpleAsyncTaskExecutor("simple-");
        }

        @Bean
        SimpleAsyncTaskExecutor limitedAsync() {
            SimpleAsyncTaskExecutor limited = new SimpleAsyncTaskExecutor("limited-");
            limited.setConcurrencyLimit(2);
            return limited;
        }

        @Bean
        Executor custom() {
            return new DirectExecutor();
        }

        @Bean(destroyMethod = "shutdownNow")
        ThreadPoolExecutor failing() {
            return new FailingPool();
        }

        @Bean
        ExecutorService stopped() throws InterruptedException {
            ThreadPoolExecutor pool = new ThreadPoolExecutor(1, 2, 1, TimeUnit.MINUTES, new LinkedBlockingQueue<>());
            pool.execute(() -> { });
            pool.shutdown();
            pool.awaitTermination(10, TimeUnit.SECONDS);
            return pool;
        }
    }

    /** Executors with advice (a pass-through here), as {@code @Timed} or an aspect would give them. */
    @Configuration(proxyBeanMethods = false)
    static class ProxiedExecutorsConfig {

        @Bean
        ThreadPoolTaskExecutor classProxied() {
            ThreadPoolTaskExecutor executor = new ThreadPoolTaskExecutor();
            executor.setCorePoolSize(1);
            executor.setMaxPoolSize(5);
            executor.setQueueCapacity(7);
            ProxyFactory proxy = new ProxyFactory(executor);
            proxy.setProxyTargetClass(true);
            proxy.addAdvice((MethodInterceptor) MethodInvocation::proceed);
            return (ThreadPoolTaskExecutor) proxy.getProxy();
        }

        @Bean(destroyMethod = "shutdownNow")
        ExecutorService interfaceProxied() {
            ProxyFactory proxy = new ProxyFactory(
                    new ThreadPoolExecutor(2, 4, 1, TimeUnit.MINUTES, new LinkedBlockingQueue<>(10)));
            proxy.addAdvice((MethodInterceptor) MethodInvocation::proceed);
            return (ExecutorService) proxy.getProxy();
        }

        @Bean
        Executor unknownProxied() {
            ProxyFactory proxy = new ProxyFactory(new DirectExecutor());
            proxy.addAdvice((MethodInterceptor) MethodInvocation::proceed);
            return (Executor) proxy.getProxy();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class UnlimitedExecutorsConfig {

        @Bean(destroyMethod = "shutdownNow")
        ExecutorService cachedPool() {
            return Executors.newCachedThreadPool();
        }

        @Bean
        ThreadPoolTaskExecutor unboundedSpring() {
            return new ThreadPoolTaskExecutor(); // its maximum is Integer.MAX_VALUE unless set
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class LazyExecutorConfig {

        @Bean(destroyMethod = "shutdownNow")
        @Lazy
        ThreadPoolExecutor lazyPool() {
            return new ThreadPoolExecutor(1, 1, 1, TimeUnit.MINUTES, new LinkedBlockingQueue<>());
        }
    }

    /** An executor of a kind poolkit does not know. */
    static final class DirectExecutor implements Executor {

        @Override
        public void execute(Runnable command) {
            command.run();
        }
    }

    /** A pool whose core size never grows and whose maximum never shrinks. */
    static final class OneWayPool extends ThreadPoolExecutor {

        OneWayPool() {
            super(1, 2, 1, TimeUnit.MINUTES, new LinkedBlockingQueue<>());
        }

        @Override
        public void setCorePoolSize(int corePoolSize) {
            if (corePoolSize > getCorePoolSize()) {
                throw new IllegalArgumentException("the core size never grows");
            }
            super.setCorePoolSize(corePoolSize);
        }

        @Override
        public void setMaximumPoolSize(int maximumPoolSize) {
            if (maximumPoolSize < getMaximumPoolSize()) {
                throw new IllegalArgumentException("the maximum never shrinks");
            }
            super.setMaximumPoolSize(maximumPoolSize);
        }
    }

    /** A pool whose activity getters throw, and whose core size setter refuses anything above 1. */
    static final class FailingPool extends ThreadPoolExecutor {

        FailingPool() {
            super(1, 2, 1, TimeUnit.MINUTES, new LinkedBlockingQueue<>());
        }

        @Override
        public int getActiveCount() {
            throw new IllegalStateException("broken getter");
        }

        @Override
        public java.util.concurrent.BlockingQueue<Runnable> getQueue() {
            throw new IllegalStateException("broken getter");
        }

        @Override
        public void setCorePoolSize(int corePoolSize) {
            if (corePoolSize > 1) {
                throw new IllegalArgumentException("refused by the pool");
            }
            super.setCorePoolSize(corePoolSize);
        }
    }
}
