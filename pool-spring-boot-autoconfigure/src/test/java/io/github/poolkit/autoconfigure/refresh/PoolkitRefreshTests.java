package io.github.poolkit.autoconfigure.refresh;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.cloud.context.environment.EnvironmentChangeEvent;
import org.springframework.cloud.context.refresh.ContextRefresher;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;

import io.github.poolkit.WeightedSemaphore;
import io.github.poolkit.WorkerPool;
import io.github.poolkit.autoconfigure.PoolkitAutoConfiguration;

/**
 * Changed {@code poolkit.*} keys reported by Spring Cloud's {@link EnvironmentChangeEvent} are applied in place, with
 * spring-cloud-context on the classpath: once through the event itself, once through Spring Cloud's own
 * {@link ContextRefresher} re-reading a changed configuration file, as a ConfigMap reload does.
 */
@Timeout(60)
@ExtendWith(OutputCaptureExtension.class)
class PoolkitRefreshTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(PoolkitAutoConfiguration.class,
                    PoolkitRefreshAutoConfiguration.class))
            .withPropertyValues("poolkit.pools.reports.capacity=4", "poolkit.pools.small.capacity=2",
                    "poolkit.pools.inherits.queue-capacity=1", "poolkit.semaphores.gpu.size=10");

    @Test
    void aChangedCapacityIsAppliedToThePrimaryAndToEveryPoolThatInheritsIt(CapturedOutput output) {
        runner.run(context -> {
            refresh(context, Map.of("poolkit.pool.capacity", "12", "poolkit.pools.reports.capacity", "6"));
            assertThat(context.getBean("workerPool", WorkerPool.class).capacity()).isEqualTo(12);
            assertThat(context.getBean("inherits", WorkerPool.class).capacity()).isEqualTo(12);
            assertThat(context.getBean("reports", WorkerPool.class).capacity()).isEqualTo(6);
            assertThat(context.getBean("small", WorkerPool.class).capacity()).isEqualTo(2);
        });
    }

    @Test
    void backsOffWithoutSpringCloud() {
        runner.withClassLoader(new FilteredClassLoader(EnvironmentChangeEvent.class))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(PoolkitRefreshListener.class));
        runner.run(context -> assertThat(context).hasSingleBean(PoolkitRefreshListener.class));
    }

    @Test
    void camelCaseKeysBindToo() {
        runner.run(context -> {
            refresh(context, Map.of("poolkit.pools.small.Capacity", "5"));
            assertThat(context.getBean("small", WorkerPool.class).capacity()).isEqualTo(5);
        });
    }

    /**
     * A pool named in camelCase ({@code reportsPool}, as a bean name often is) is found by a refresh: its own key
     * changes it, and a key of {@code poolkit.pool} that it sets itself leaves it alone.
     */
    @Test
    void aPoolNamedInCamelCaseKeepsItsOwnKeysAndTakesItsChanges() {
        runner.withPropertyValues("poolkit.pools.reportsPool.capacity=4", "poolkit.pools.batch_jobs.capacity=3")
                .run(context -> {
                    refresh(context, Map.of("poolkit.pool.capacity", "64"));
                    assertThat(context.getBean("workerPool", WorkerPool.class).capacity()).isEqualTo(64);
                    assertThat(context.getBean("reportsPool", WorkerPool.class).capacity()).isEqualTo(4);
                    assertThat(context.getBean("batch_jobs", WorkerPool.class).capacity()).isEqualTo(3);
                    refresh(context, Map.of("poolkit.pools.reportsPool.capacity", "6",
                            "poolkit.pools.batch_jobs.capacity", "5"));
                    assertThat(context.getBean("reportsPool", WorkerPool.class).capacity()).isEqualTo(6);
                    assertThat(context.getBean("batch_jobs", WorkerPool.class).capacity()).isEqualTo(5);
                });
    }

    /** A map key in brackets is a named pool's key too, and a nested key is named as one that needs a restart. */
    @Test
    void aBracketedNameAndANestedKeyAreReadAsStartUpReadsThem(CapturedOutput output) {
        runner.run(context -> {
            refresh(context, Map.of("poolkit.pools[reports].capacity", "6", "poolkit.pool.adaptive.max", "10"));
            assertThat(context.getBean("reports", WorkerPool.class).capacity()).isEqualTo(6);
            assertThat(output).contains("Property poolkit.pool.adaptive.max changed to '10' but cannot change while "
                    + "the application runs; restart the application to apply it");
        });
    }

    /**
     * A change that fails in an unexpected way (a pool key given to a semaphore's name, a semaphore whose store does
     * not answer) is logged and changes nothing, and never stops the rest of the refresh: the other changes of the
     * same event are applied, and the event's other listeners still run.
     */
    @Test
    void aChangeThatFailsIsLoggedAndTheOthersAreStillApplied(CapturedOutput output) {
        runner.run(context -> {
            refresh(context, Map.of("poolkit.pools.gpu.max-wait", "1s", "poolkit.semaphores.reports.size", "3",
                    "poolkit.pools.small.capacity", "7"));
            assertThat(context.getBean("small", WorkerPool.class).capacity()).isEqualTo(7);
            assertThat(context.getBean("gpu", WeightedSemaphore.class).size()).isEqualTo(10);
            assertThat(context.getBean("reports", WorkerPool.class).capacity()).isEqualTo(4);
            assertThat(output).contains("Property poolkit.pools.gpu.max-wait configures 'gpu', which is not a pool")
                    .contains("Property poolkit.semaphores.reports.size configures 'reports', which is not a "
                            + "semaphore");
        });
    }

    @Test
    void anInvalidValueChangesNothingAndIsLogged(CapturedOutput output) {
        runner.run(context -> {
            refresh(context, Map.of("poolkit.pools.reports.max-blocking-tasks", "-3"));
            assertThat(context.getBean("reports", WorkerPool.class).options().maxBlockingTasks()).isZero();
            assertThat(output).contains("Could not apply {maxBlockingTasks=-3} to 'reports'")
                    .contains("maxBlockingTasks");
        });
    }

    /**
     * A capacity of zero or less is valid configuration (unlimited, as at start-up), which no running pool can take:
     * named with the restart it needs, not refused as invalid.
     */
    @Test
    void anUnlimitedCapacityIsNamedWithARestartHint(CapturedOutput output) {
        runner.run(context -> {
            refresh(context, Map.of("poolkit.pools.reports.capacity", "-3", "poolkit.pools.small.capacity", "0"));
            assertThat(context.getBean("reports", WorkerPool.class).capacity()).isEqualTo(4);
            assertThat(output).contains("Property poolkit.pools.reports.capacity changed to '-3', an unlimited "
                    + "capacity, but a pool becomes unlimited only when it is created; restart the application to "
                    + "apply it").contains("Property poolkit.pools.small.capacity changed to '0', an unlimited")
                    .doesNotContain("must be positive");
        });
    }

    @Test
    void keysThatCannotChangeLiveAreNamedWithARestartHint(CapturedOutput output) {
        runner.run(context -> {
            refresh(context, Map.of("poolkit.pools.reports.queue-capacity", "9", "poolkit.pool.virtualThreads",
                    "true", "poolkit.pool.pre-alloc", "true", "poolkit.scheduler.workers", "8",
                    "poolkit.pools.brand-new.capacity", "3"));
            assertThat(output)
                    .contains("Property poolkit.pools.reports.queue-capacity changed to '9' but cannot change while "
                            + "the application runs; restart the application to apply it")
                    .contains("Property poolkit.pool.virtualThreads changed to 'true' but cannot change")
                    .contains("Property poolkit.pool.pre-alloc changed to 'true' but cannot change")
                    .contains("Property poolkit.scheduler.workers changed to '8' but cannot change")
                    .contains("'brand-new', which did not exist at start-up; restart the application to create it");
            assertThat(context.getBean("reports", WorkerPool.class).options().queueCapacity()).isZero();
        });
    }

    @Test
    void anUnknownKeyIsNamedWithTheNearestOneAndChangesNothing(CapturedOutput output) {
        runner.run(context -> {
            refresh(context, Map.of("poolkit.pools.reports.capasity", "9"));
            assertThat(output).contains("Property poolkit.pools.reports.capasity is not a poolkit property and was"
                    + " ignored (did you mean poolkit.pools.reports.capacity?)");
            assertThat(context.getBean("reports", WorkerPool.class).capacity()).isEqualTo(4);
        });
    }

    /**
     * A named pool's key made blank is unset, as start-up reads it: the pool takes {@code poolkit.pool}'s value, and
     * follows that key's later changes.
     */
    @Test
    void aNamedKeyMadeBlankInheritsThePrimarysValueAsAtStartUp() {
        runner.withPropertyValues("poolkit.pool.max-wait=200ms", "poolkit.pools.reports.max-wait=1s").run(context -> {
            WorkerPool reports = context.getBean("reports", WorkerPool.class);
            assertThat(reports.options().maxWait()).isEqualTo(Duration.ofSeconds(1));
            refresh(context, Map.of("poolkit.pools.reports.max-wait", ""));
            assertThat(reports.options().maxWait()).isEqualTo(Duration.ofMillis(200));
            // the primary's key changes later (the blank one stays in the environment)
            context.getEnvironment().getPropertySources().addFirst(
                    new MapPropertySource("refreshed later", Map.of("poolkit.pool.max-wait", "300ms")));
            context.publishEvent(new EnvironmentChangeEvent(context, Set.of("poolkit.pool.max-wait")));
            assertThat(reports.options().maxWait()).isEqualTo(Duration.ofMillis(300));
        });
    }

    /** A named key under the name of poolkit's primary bean changes nothing, as start-up refuses it. */
    @Test
    void aNamedKeyUnderThePrimarysBeanNameChangesNothing(CapturedOutput output) {
        runner.run(context -> {
            refresh(context, Map.of("poolkit.pools.workerPool.capacity", "8",
                    "poolkit.semaphores.weightedSemaphore.size", "3"));
            assertThat(output).contains("Property poolkit.pools.workerPool.capacity was ignored: 'workerPool' is the"
                    + " bean name of one of poolkit's own beans, which poolkit.pool.* configures");
            assertThat(output).contains("Property poolkit.semaphores.weightedSemaphore.size was ignored");
            assertThat(context.getBean("workerPool", WorkerPool.class).capacity()).isNotEqualTo(8);
            assertThat(context.getBean("weightedSemaphore", WeightedSemaphore.class).size()).isNotEqualTo(3);
        });
    }

    @Test
    void maxWaitMaxBlockingTasksAndNonblockingAreApplied() {
        runner.run(context -> {
            refresh(context, Map.of("poolkit.pools.reports.max-wait", "250ms",
                    "poolkit.pools.reports.maxBlockingTasks", "3", "poolkit.pools.reports.nonblocking", "true"));
            WorkerPool reports = context.getBean("reports", WorkerPool.class);
            assertThat(reports.options().maxWait()).isEqualTo(Duration.ofMillis(250));
            assertThat(reports.options().maxBlockingTasks()).isEqualTo(3);
            assertThat(reports.options().nonblocking()).isTrue();
        });
    }

    @Test
    void valuesAreReadAsStartUpReadsThem(CapturedOutput output) {
        runner.withPropertyValues("poolkit.pools.small.max-wait=2s").run(context -> {
            refresh(context, Map.of("poolkit.pools.reports.nonblocking", "yes", "poolkit.pools.reports.max-wait",
                    "PT0.5S", "poolkit.pools.small.max-wait", "-1"));
            WorkerPool reports = context.getBean("reports", WorkerPool.class);
            assertThat(reports.options().nonblocking()).as("yes, as a start-up reads it").isTrue();
            assertThat(reports.options().maxWait()).isEqualTo(Duration.ofMillis(500));
            assertThat(context.getBean("small", WorkerPool.class).options().maxWait())
                    .as("a negative max-wait, which start-up refuses, leaves it as it was")
                    .isEqualTo(Duration.ofSeconds(2));
            assertThat(output).contains("Could not apply {maxWait=-1} to 'small' after a configuration refresh, "
                    + "nothing was changed: poolkit.pools.small.max-wait: '-1' is negative: set it to 0 to fail at "
                    + "once, or remove it");
        });
    }

    @Test
    void aValueOfTheWrongTypeIsNamedAndChangesNothing(CapturedOutput output) {
        runner.run(context -> {
            refresh(context, Map.of("poolkit.pools.reports.nonblocking", "maybe"));
            assertThat(context.getBean("reports", WorkerPool.class).options().nonblocking()).isFalse();
            assertThat(output).contains("Could not apply {nonblocking=maybe} to 'reports' after a configuration"
                    + " refresh, nothing was changed: nonblocking: 'maybe' is not valid: expected true or false");
        });
    }

    @Test
    void aSemaphoreIsResized() {
        runner.run(context -> {
            refresh(context, Map.of("poolkit.semaphores.gpu.size", "20"));
            assertThat(context.getBean("gpu", WeightedSemaphore.class).size()).isEqualTo(20);
        });
    }

    @Test
    void springCloudsContextRefresherAppliesAChangedConfigurationFile(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("poolkit.properties");
        Files.writeString(file, "poolkit.pools.reports.capacity=4\n");
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(RefreshableApplication.class)
                .web(WebApplicationType.NONE)
                .properties("spring.config.import=file:" + file)
                .run()) {
            WorkerPool reports = context.getBean("reports", WorkerPool.class);
            assertThat(reports.capacity()).isEqualTo(4);
            Files.writeString(file, "poolkit.pools.reports.capacity=7\n");
            Set<String> changed = context.getBean(ContextRefresher.class).refresh();
            assertThat(changed).contains("poolkit.pools.reports.capacity");
            assertThat(reports.capacity()).isEqualTo(7);
        }
    }

    /**
     * Spring Cloud rebinds every {@code @ConfigurationProperties} bean on a refresh, poolkit's too: a value that does not
     * convert must not fail that rebinding (and with it the whole refresh, before poolkit's own listener runs). It is
     * logged by poolkit, and the other changes of the same refresh are applied.
     */
    @Test
    void springCloudsContextRefresherSurvivesAValueThatDoesNotConvert(@TempDir Path dir, CapturedOutput output)
            throws IOException {
        Path file = dir.resolve("poolkit.properties");
        Files.writeString(file, "poolkit.pools.reports.capacity=4\npoolkit.pools.small.capacity=2\n");
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(RefreshableApplication.class)
                .web(WebApplicationType.NONE)
                .properties("spring.config.import=file:" + file)
                .run()) {
            Files.writeString(file, "poolkit.pools.reports.capacity=4\npoolkit.pools.reports.nonblocking=maybe\n"
                    + "poolkit.pools.small.capacity=7\n");
            Set<String> changed = context.getBean(ContextRefresher.class).refresh();
            assertThat(changed).contains("poolkit.pools.reports.nonblocking", "poolkit.pools.small.capacity");
            assertThat(context.getBean("small", WorkerPool.class).capacity()).isEqualTo(7);
            assertThat(context.getBean("reports", WorkerPool.class).options().nonblocking()).isFalse();
            assertThat(output).contains("Could not apply {nonblocking=maybe} to 'reports'");
        }
    }

    /** The changes of one pool are checked together: one invalid value leaves all of that pool's keys unapplied. */
    @Test
    void aNegativeMaxWaitLeavesTheOtherChangesOfItsPoolUnapplied(CapturedOutput output) {
        runner.run(context -> {
            refresh(context, Map.of("poolkit.pools.reports.capacity", "8", "poolkit.pools.reports.max-wait", "-1s",
                    "poolkit.pools.small.capacity", "3"));
            assertThat(context.getBean("reports", WorkerPool.class).capacity()).isEqualTo(4);
            assertThat(context.getBean("reports", WorkerPool.class).options().maxWait()).isNull();
            assertThat(context.getBean("small", WorkerPool.class).capacity()).isEqualTo(3);
            assertThat(output).contains("Could not apply {capacity=8, maxWait=-1s} to 'reports' after a "
                    + "configuration refresh, nothing was changed: poolkit.pools.reports.max-wait: '-1s' is negative:"
                    + " set it to 0 to fail at once, or remove it");
        });
    }

    /** A named bean whose name has a dot sets its own key (in brackets), which a key of the primary's leaves alone. */
    @Test
    void aNameWithADotKeepsItsOwnKeyWhenThePrimarysChanges() {
        runner.withPropertyValues("poolkit.semaphores[gpu.memory].size=4", "poolkit.pools[batch.jobs].capacity=3")
                .run(context -> {
                    refresh(context, Map.of("poolkit.semaphore.size", "100", "poolkit.pool.capacity", "50"));
                    assertThat(context.getBean("gpu.memory", WeightedSemaphore.class).size()).isEqualTo(4);
                    assertThat(context.getBean("batch.jobs", WorkerPool.class).capacity()).isEqualTo(3);
                    assertThat(context.getBean("weightedSemaphore", WeightedSemaphore.class).size()).isEqualTo(100);
                    assertThat(context.getBean("workerPool", WorkerPool.class).capacity()).isEqualTo(50);
                });
    }

    /** Start-up binds a key in any case and with or without dashes; so does a refresh. */
    @Test
    void aKeyInUpperCaseOrWithoutDashesChangesItsSettingLive() {
        runner.run(context -> {
            refresh(context, Map.of("poolkit.pools.reports.CAPACITY", "6", "poolkit.pools.small.maxwait", "300ms",
                    "poolkit.semaphores.gpu.SIZE", "12", "poolkit.pools.reports.MAXBLOCKINGTASKS", "2"));
            assertThat(context.getBean("reports", WorkerPool.class).capacity()).isEqualTo(6);
            assertThat(context.getBean("reports", WorkerPool.class).options().maxBlockingTasks()).isEqualTo(2);
            assertThat(context.getBean("small", WorkerPool.class).options().maxWait())
                    .isEqualTo(Duration.ofMillis(300));
            assertThat(context.getBean("gpu", WeightedSemaphore.class).size()).isEqualTo(12);
        });
    }

    private static void refresh(ConfigurableApplicationContext context, Map<String, String> changes) {
        Map<String, Object> source = new HashMap<>(changes);
        context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("refreshed", source));
        context.publishEvent(new EnvironmentChangeEvent(context, changes.keySet()));
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class RefreshableApplication {
    }
}
