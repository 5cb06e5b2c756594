package io.github.poolkit.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.poolkit.PoolOptions;
import io.github.poolkit.PoolOverloadException;
import io.github.poolkit.WorkerPool;

/**
 * The worker-pool beans: the primary pool, named pools, their properties, inheritance from {@code poolkit.pool},
 * {@code enabled: false}, the user's own beans, virtual threads and the panic handler. The semaphore and the scheduler
 * are switched off here so that these tests are about pools only.
 */
@Timeout(30)
class PoolBeansTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(PoolkitAutoConfiguration.class))
            .withPropertyValues("poolkit.semaphore.enabled=false", "poolkit.scheduler.enabled=false");

    @Test
    void primaryPoolHasTheDocumentedDefaults() {
        runner.run(context -> {
            assertThat(context).hasSingleBean(WorkerPool.class);
            WorkerPool pool = context.getBean("workerPool", WorkerPool.class);
            assertThat(pool.capacity()).isEqualTo(256);
            assertThat(pool.name()).isEqualTo("workerPool");
            assertThat(pool.isClosed()).isFalse();
            assertThat(runOn(pool).getName()).startsWith("workerPool-");
        });
    }

    @Test
    void primaryPoolTakesItsProperties() {
        runner.withPropertyValues("poolkit.pool.capacity=1", "poolkit.pool.nonblocking=true").run(context -> {
            WorkerPool pool = context.getBean(WorkerPool.class);
            assertThat(pool.capacity()).isEqualTo(1);
            assertNonblocking(pool);
        });
    }

    @Test
    void capacityZeroMeansUnlimited() {
        runner.withPropertyValues("poolkit.pool.capacity=0")
                .run(context -> assertThat(context.getBean(WorkerPool.class).capacity()).isEqualTo(-1));
    }

    @Test
    void queueCapacityBindsInCamelCaseToo() {
        runner.withPropertyValues("poolkit.pool.capacity=1", "poolkit.pool.queueCapacity=2",
                "poolkit.pool.nonblocking=true").run(context -> {
                    WorkerPool pool = context.getBean(WorkerPool.class);
                    CountDownLatch release = new CountDownLatch(1);
                    pool.execute(() -> waitFor(release));
                    pool.execute(() -> { });
                    pool.execute(() -> { });
                    assertThat(pool.waiting()).isEqualTo(2);
                    assertThatThrownBy(() -> pool.execute(() -> { })).isInstanceOf(PoolOverloadException.class);
                    release.countDown();
                });
    }

    @Test
    void preAllocMakesTuneANoOp() {
        runner.withPropertyValues("poolkit.pool.capacity=4", "poolkit.pool.pre-alloc=true").run(context -> {
            WorkerPool pool = context.getBean(WorkerPool.class);
            pool.tune(8);
            assertThat(pool.capacity()).isEqualTo(4);
        });
    }

    @Test
    void negativeExpiryIsFineWithDisablePurge() {
        runner.withPropertyValues("poolkit.pool.expiry=-1s", "poolkit.pool.disable-purge=true")
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(WorkerPool.class));
    }

    @Test
    void namedPoolIsABeanNamedAfterItsKeyAndTheSecondaryCandidate() {
        runner.withPropertyValues("poolkit.pools.reports.capacity=4").run(context -> {
            assertThat(context.getBeansOfType(WorkerPool.class)).containsOnlyKeys("workerPool", "reports");
            WorkerPool reports = context.getBean("reports", WorkerPool.class);
            assertThat(reports.capacity()).isEqualTo(4);
            assertThat(reports.name()).isEqualTo("reports");
            assertThat(runOn(reports).getName()).startsWith("reports-");
            assertThat(context.getBean(WorkerPool.class)).isSameAs(context.getBean("workerPool"));
        });
    }

    @Test
    void namedPoolInheritsUnsetKeysFromThePrimary() {
        runner.withPropertyValues("poolkit.pool.capacity=16", "poolkit.pool.nonblocking=true",
                "poolkit.pools.reports.capacity=1", "poolkit.pools.batch.queue-capacity=-1").run(context -> {
                    WorkerPool reports = context.getBean("reports", WorkerPool.class);
                    assertThat(reports.capacity()).isEqualTo(1);
                    assertNonblocking(reports);
                    assertThat(context.getBean("batch", WorkerPool.class).capacity()).isEqualTo(16);
                });
    }

    @Test
    void namedPoolOverridesAnInheritedTrueWithFalse() {
        runner.withPropertyValues("poolkit.pool.nonblocking=true", "poolkit.pools.reports.capacity=1",
                "poolkit.pools.reports.nonblocking=false").run(context -> {
                    WorkerPool reports = context.getBean("reports", WorkerPool.class);
                    CountDownLatch release = new CountDownLatch(1);
                    reports.execute(() -> waitFor(release));
                    CompletableFuture<Void> blocked = CompletableFuture.runAsync(() -> reports.execute(() -> { }));
                    await().atMost(10, TimeUnit.SECONDS).until(() -> reports.waiting() == 1);
                    assertThat(blocked).isNotDone();
                    release.countDown();
                    blocked.get(10, TimeUnit.SECONDS);
                });
    }

    @Test
    void primaryCanBeSwitchedOffWhileNamedPoolsStay() {
        runner.withPropertyValues("poolkit.pool.enabled=false", "poolkit.pools.reports.capacity=2").run(context -> {
            assertThat(context).doesNotHaveBean("workerPool");
            assertThat(context.getBean("reports", WorkerPool.class).capacity()).isEqualTo(2);
        });
    }

    /** A singleton the application registered in code is its bean too: poolkit's definition would destroy it. */
    @Test
    @ExtendWith(OutputCaptureExtension.class)
    void aSingletonTheApplicationRegisteredUnderANamedPoolsNameWins(CapturedOutput output) {
        WorkerPool mine = WorkerPool.create(3, PoolOptions.builder().name("mine").build());
        try {
            runner.withInitializer(context -> context.getBeanFactory().registerSingleton("reports", mine))
                    .withPropertyValues("poolkit.pools.reports.capacity=9").run(context -> {
                        assertThat(context).hasNotFailed();
                        assertThat(context.getBean("reports", WorkerPool.class)).isSameAs(mine);
                        assertThat(mine.isClosed()).isFalse();
                        assertThat(output).contains("poolkit.pools.reports is ignored: the name 'reports' is taken by"
                                + " the application's bean 'reports' (a singleton registered in code)");
                    });
        }
        finally {
            mine.release();
        }
    }

    /**
     * A child context with the same configuration uses its parent's named pool, as it does the primary one, rather
     * than make a second pool of that name (which would double the bound).
     */
    @Test
    void aChildContextUsesItsParentsNamedPool() {
        try (ConfigurableApplicationContext parent = new SpringApplicationBuilder(Plain.class)
                .web(WebApplicationType.NONE)
                .run("--poolkit.pools.reports.capacity=4", "--spring.main.banner-mode=off");
                ConfigurableApplicationContext child = new SpringApplicationBuilder(Plain.class).parent(parent)
                        .web(WebApplicationType.NONE).run("--poolkit.pools.reports.capacity=4")) {
            assertThat(child.getBean("reports", WorkerPool.class))
                    .isSameAs(parent.getBean("reports", WorkerPool.class));
            assertThat(child.getBean("workerPool", WorkerPool.class))
                    .isSameAs(parent.getBean("workerPool", WorkerPool.class));
            assertThat(child.getBeanFactory().containsLocalBean("reports")).isFalse();
        }
    }

    /** An application with poolkit's auto-configuration only. */
    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration(PoolkitAutoConfiguration.class)
    static class Plain {
    }

    @Test
    void namedPoolCanBeSwitchedOff() {
        runner.withPropertyValues("poolkit.pools.reports.enabled=false", "poolkit.pools.batch.capacity=2")
                .run(context -> assertThat(context.getBeansOfType(WorkerPool.class))
                        .containsOnlyKeys("workerPool", "batch"));
    }

    @Test
    void usersOwnPrimaryPoolWins() {
        runner.withUserConfiguration(UserPools.class).run(context -> {
            assertThat(context.getBean("workerPool", WorkerPool.class).name()).isEqualTo("mine");
            assertThat(context.getBean("workerPool", WorkerPool.class).capacity()).isEqualTo(3);
        });
    }

    @Test
    @ExtendWith(OutputCaptureExtension.class)
    void usersOwnBeanOfANamedPoolsNameWinsWithAWarningNamingTheKeyAndTheBean(CapturedOutput output) {
        runner.withUserConfiguration(UserPools.class).withPropertyValues("poolkit.pools.reports.capacity=9")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean("reports", WorkerPool.class).name()).isEqualTo("my-reports");
                    assertThat(output).containsPattern("WARN .*poolkit\\.pools\\.reports is ignored: the name"
                            + " 'reports' is taken by the application's bean 'reports'");
                });
    }

    @Test
    void virtualThreadsAreAskedOfTheCoreLibraryAndInherited() {
        runner.withPropertyValues("poolkit.pool.virtual-threads=true", "poolkit.pools.reports.capacity=2",
                "poolkit.pools.batch.virtual-threads=false").run(context -> {
                    assertThat(context.getBean("workerPool", WorkerPool.class).options().virtualThreads()).isTrue();
                    assertThat(context.getBean("reports", WorkerPool.class).options().virtualThreads()).isTrue();
                    assertThat(context.getBean("batch", WorkerPool.class).options().virtualThreads()).isFalse();
                });
    }

    @Test
    void virtualThreadsFollowSpringThreadsVirtualEnabledWhenUnset() {
        runner.withPropertyValues("spring.threads.virtual.enabled=true", "poolkit.pools.batch.virtual-threads=false",
                "poolkit.pools.reports.capacity=2").run(context -> {
                    assertThat(context.getBean("workerPool", WorkerPool.class).options().virtualThreads()).isTrue();
                    assertThat(context.getBean("reports", WorkerPool.class).options().virtualThreads()).isTrue();
                    assertThat(context.getBean("batch", WorkerPool.class).options().virtualThreads()).isFalse();
                });
        runner.run(context -> assertThat(context.getBean(WorkerPool.class).options().virtualThreads()).isFalse());
    }

    @Test
    void virtualThreadsRunEachTaskOnAVirtualThreadNamedAfterThePool() {
        runner.withPropertyValues("poolkit.pools.reports.virtual-threads=true").run(context -> {
            Thread reportsThread = runOn(context.getBean("reports", WorkerPool.class));
            assertThat(reportsThread.isVirtual()).isTrue();
            assertThat(reportsThread.getName()).startsWith("reports-");
            Thread primaryThread = runOn(context.getBean("workerPool", WorkerPool.class));
            assertThat(primaryThread.isVirtual()).isFalse();
        });
    }

    @Test
    void maxWaitIsInheritedAndOverridden() {
        runner.withPropertyValues("poolkit.pool.max-wait=250ms", "poolkit.pools.reports.capacity=2",
                "poolkit.pools.fast.max-wait=0").run(context -> {
                    assertThat(context.getBean("workerPool", WorkerPool.class).options().maxWait())
                            .isEqualTo(Duration.ofMillis(250));
                    assertThat(context.getBean("reports", WorkerPool.class).options().maxWait())
                            .isEqualTo(Duration.ofMillis(250));
                    assertThat(context.getBean("fast", WorkerPool.class).options().maxWait()).isEqualTo(Duration.ZERO);
                });
        runner.run(context -> assertThat(context.getBean(WorkerPool.class).options().maxWait()).isNull());
    }

    @Test
    void maxWaitOfZeroRefusesAtOnceWhenFull() {
        runner.withPropertyValues("poolkit.pool.capacity=1", "poolkit.pool.max-wait=0")
                .run(context -> assertNonblocking(context.getBean(WorkerPool.class)));
    }

    @Test
    @ExtendWith(OutputCaptureExtension.class)
    void panicHandlerLogsNamingThePool(CapturedOutput output) {
        runner.withPropertyValues("poolkit.pools.reports.capacity=1").run(context -> {
            context.getBean("reports", WorkerPool.class).execute(() -> {
                throw new IllegalStateException("boom in a task");
            });
            await().atMost(10, TimeUnit.SECONDS).until(() -> output.getOut().contains("boom in a task")
                    || output.getErr().contains("boom in a task"));
            assertThat(output).contains("Task on pool 'reports' failed")
                    .contains("java.lang.IllegalStateException: boom in a task");
        });
    }

    private static Thread runOn(WorkerPool pool) throws Exception {
        CompletableFuture<Thread> thread = new CompletableFuture<>();
        pool.execute(() -> thread.complete(Thread.currentThread()));
        return thread.get(10, TimeUnit.SECONDS);
    }

    private static void assertNonblocking(WorkerPool pool) {
        CountDownLatch release = new CountDownLatch(1);
        for (int i = 0; i < pool.capacity(); i++) {
            pool.execute(() -> waitFor(release));
        }
        try {
            assertThatThrownBy(() -> pool.execute(() -> { })).isInstanceOf(PoolOverloadException.class);
        }
        finally {
            release.countDown();
        }
    }

    private static void waitFor(CountDownLatch latch) {
        try {
            latch.await(20, TimeUnit.SECONDS);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class UserPools {

        @Bean(destroyMethod = "release")
        WorkerPool workerPool() {
            return WorkerPool.create(3, io.github.poolkit.PoolOptions.builder().name("mine").build());
        }

        @Bean(destroyMethod = "release")
        WorkerPool reports() {
            return WorkerPool.create(2, io.github.poolkit.PoolOptions.builder().name("my-reports").build());
        }
    }
}
