package io.github.poolkit.autoconfigure;

import static io.github.poolkit.autoconfigure.FailureAnalyses.analyze;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import io.github.poolkit.WeightedSemaphore;
import io.github.poolkit.WorkerPool;
import io.github.poolkit.autoconfigure.redis.PoolkitRedisAutoConfiguration;

/**
 * The configuration check sees every property source an application has (YAML files, command-line arguments,
 * environment variables), in every context shape (lazy initialization, a child context), and accepts what the binder
 * accepts.
 */
class StrictInputSourcesConfigurationCheckTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(PoolkitAutoConfiguration.class));

    @Test
    void aMisspeltCommandLineArgumentIsReported() {
        FailureAnalysis analysis = analyzeStartup("--poolkit.pools.reports.capasity=4");
        assertThat(analysis.getDescription()).contains("Property: poolkit.pools.reports.capasity")
                .contains("commandLineArgs");
        assertThat(analysis.getAction()).contains("did you mean poolkit.pools.reports.capacity?");
    }

    @Test
    void yamlProblemsAreAllReportedWithTheirLines() {
        FailureAnalysis analysis = analyzeStartup("--spring.config.name=strict-input-typos");
        assertThat(analysis.getDescription()).contains("2 properties")
                .contains("Property: poolkit.pools.reports.capasity").contains("strict-input-typos.yml")
                .contains("Property: poolkit.pools.reports.max-wait");
    }

    @Test
    void lazyInitializationStillChecks() {
        FailureAnalysis analysis = analyzeStartup("--spring.main.lazy-initialization=true",
                "--poolkit.pool.capasity=4");
        assertThat(analysis.getDescription()).contains("Property: poolkit.pool.capasity");
    }

    @Test
    void aChildContextIsChecked() {
        SpringApplicationBuilder parent = new SpringApplicationBuilder(Empty.class)
                .web(WebApplicationType.NONE);
        SpringApplicationBuilder child = parent.child(Application.class).web(WebApplicationType.NONE);
        Throwable failure = catchThrowable(() -> child.run("--poolkit.pool.capasity=4").close());
        FailureAnalysis analysis = new PoolkitPropertyFailureAnalyzer().analyze(failure);
        assertThat(analysis).as("analysis of %s", failure).isNotNull();
        assertThat(analysis.getDescription()).contains("Property: poolkit.pool.capasity");
    }

    @Test
    void validYamlShapesStart() {
        try (ConfigurableApplicationContext context = start("--spring.config.name=strict-input-valid")) {
            assertThat(context.getBean("reports.eu", WorkerPool.class).capacity()).isEqualTo(2);
            assertThat(context.getBean("gpu", WeightedSemaphore.class).size()).isEqualTo(3);
            assertThat(context.getBeansOfType(WorkerPool.class)).hasSize(3);
        }
    }

    @Test
    void aPoolDeclaredWithEveryDefaultStarts() {
        try (ConfigurableApplicationContext context = start("--spring.config.name=strict-input-empty-pool")) {
            assertThat(context.getBeansOfType(WorkerPool.class)).containsKey("reports");
        }
    }

    @Test
    void aMisspeltEnvironmentVariableOfANamedPoolIsReported() {
        FailureAnalysis analysis = analyze(withVariables(Map.of("POOLKIT_POOLS_REPORTS_CAPASITY", "4")));
        assertThat(analysis.getDescription()).contains("Property: poolkit.pools.reports.capasity")
                .contains("POOLKIT_POOLS_REPORTS_CAPASITY");
        assertThat(analysis.getAction()).contains("did you mean poolkit.pools.reports.capacity?");
    }

    @Test
    void anEnvironmentVariableNamedLikeThePrefixAloneIsNotPoolkits() {
        // POOLKIT (as a tool's home or version) binds to nothing: Spring Boot's binding of PoolkitProperties ignores it
        withVariables(Map.of("POOLKIT", "/opt/poolkit")).run(context -> assertThat(context).hasNotFailed());
    }

    @Test
    void anyEnvironmentVariableUnderThePrefixIsAKey() {
        FailureAnalysis analysis = analyze(withVariables(Map.of("POOLKIT_HOME", "/opt/poolkit",
                "POOLKIT_SEMAPHORES_GPU_MEMORY_SIZE", "4")));
        assertThat(analysis.getDescription()).contains("2 properties").contains("Property: poolkit.home")
                .contains("Property: poolkit.semaphores.gpu.memory.size");
    }

    @Test
    void aDisabledEntrysUnknownKeysAndUnconvertibleValuesAreReported() {
        FailureAnalysis analysis = analyze(runner, "poolkit.pools.off.enabled=false",
                "poolkit.pools.off.max-wait=soon", "poolkit.pools.off.capasity=3",
                "poolkit.pools.off.queue-capacity=-9");
        assertThat(analysis.getDescription()).contains("2 properties").contains("Property: poolkit.pools.off.max-wait")
                .contains("Property: poolkit.pools.off.capasity").doesNotContain("queue-capacity");
    }

    @Test
    void theSchedulersInheritedValuesAreCheckedWhenThePrimaryPoolIsDisabled() {
        FailureAnalysis analysis = analyze(runner, "poolkit.pool.enabled=false", "poolkit.pool.run-timeout=-1s",
                "poolkit.scheduler.workers=0");
        assertThat(analysis.getDescription()).contains("2 properties").contains("Property: poolkit.pool.run-timeout")
                .contains("Property: poolkit.scheduler.workers");
    }

    @Test
    void aNamedSemaphoresAdaptiveBoundsAreReportedWithTheRest() {
        FailureAnalysis analysis = analyze(runner, "poolkit.semaphores.gpu.size=4",
                "poolkit.semaphores.gpu.adaptive.algorithm=aimd", "poolkit.semaphores.gpu.adaptive.min=0",
                "poolkit.scheduler.workers=0");
        assertThat(analysis.getDescription()).contains("2 properties")
                .contains("Property: poolkit.semaphores.gpu.adaptive.min")
                .contains("Property: poolkit.scheduler.workers");
    }

    @Test
    void anAdaptiveClusterSemaphoreIsReportedWithTheRest() {
        FailureAnalysis analysis = analyze(runner.withConfiguration(
                AutoConfigurations.of(PoolkitRedisAutoConfiguration.class)),
                "poolkit.semaphores.quota.scope=cluster", "poolkit.semaphores.quota.adaptive.algorithm=aimd",
                "poolkit.scheduler.workers=0");
        assertThat(analysis.getDescription()).contains("2 properties")
                .contains("Property: poolkit.semaphores.quota.adaptive.algorithm")
                .contains("Property: poolkit.scheduler.workers");
    }

    @Test
    void otherPrefixesAreNotPoolkits() {
        runner.withPropertyValues("poolkitx.pool.capasity=4", "poolkit-extras.anything=1", "pool.kit=2")
                .run(context -> assertThat(context).hasNotFailed());
    }

    @Test
    void aValueGivenToAGroupOfKeysIsReportedWithTheRest() {
        FailureAnalysis analysis = analyze(runner, "poolkit.pools[0]=reports", "poolkit.pool=5",
                "poolkit.scheduler.workers=0");
        assertThat(analysis.getDescription()).contains("3 properties").contains("Property: poolkit.pools[0]")
                .contains("Property: poolkit.pool\n").contains("takes no value of its own")
                .contains("Property: poolkit.scheduler.workers");
        assertThat(analysis.getAction()).contains("remove the value of poolkit.pool and set the keys under it");
    }

    @Test
    void aSwitchOfTheDefaultBeansTakesTrueOrFalseOnly() {
        FailureAnalysis analysis = analyze(runner, "poolkit.pool.enabled=yes", "poolkit.semaphore.enabled=on",
                "poolkit.scheduler.enabled=FALSE");
        assertThat(analysis.getDescription()).contains("2 properties").contains("Property: poolkit.pool.enabled")
                .contains("Value:    yes").contains("Property: poolkit.semaphore.enabled")
                .doesNotContain("poolkit.scheduler.enabled");
        assertThat(analysis.getAction()).contains("set poolkit.pool.enabled to true or false");
        runner.withPropertyValues("poolkit.pool.enabled=True", "poolkit.semaphore.enabled=false")
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(WorkerPool.class)
                        .doesNotHaveBean(WeightedSemaphore.class));
    }

    @Test
    void aSubSecondDurationIsShownAsWritten() {
        FailureAnalysis analysis = analyze(runner.withConfiguration(
                AutoConfigurations.of(PoolkitRedisAutoConfiguration.class)),
                "poolkit.semaphores.quota.scope=cluster", "poolkit.semaphores.quota.lease-time=10ms");
        assertThat(analysis.getDescription()).contains("Property: poolkit.semaphores.quota.lease-time")
                .contains("Value:    10ms");
    }

    @Test
    void aValueGivenToAGroupOfKeysNextToKeysUnderItIsReported() {
        // the binder binds the keys under the group and drops the group's own value without a word
        FailureAnalysis analysis = analyze(runner, "poolkit.pools.reports=true", "poolkit.pools.reports.capacity=4",
                "poolkit.pool=5", "poolkit.pool.capacity=3", "poolkit.semaphores=gpu", "poolkit.semaphores.gpu.size=2");
        assertThat(analysis.getDescription()).contains("3 properties").contains("Property: poolkit.pools.reports\n")
                .contains("Property: poolkit.pool\n").contains("Property: poolkit.semaphores\n")
                .contains("takes no value of its own");
        assertThat(analysis.getAction()).contains("remove the value of poolkit.pools.reports and set the keys under");
    }

    @Test
    void aValueGivenToAGroupByAnEnvironmentVariableNextToKeysUnderItIsReported() {
        FailureAnalysis analysis = analyze(withVariables(Map.of("POOLKIT_POOLS_REPORTS", "true",
                "POOLKIT_POOLS_REPORTS_CAPACITY", "4")));
        assertThat(analysis.getDescription()).contains("Property: poolkit.pools.reports\n")
                .contains("takes no value of its own").contains("POOLKIT_POOLS_REPORTS");
    }

    @Test
    void anEmptyGroupIsNamedAsItself() {
        // YAML's "pool:" with nothing under it (its keys commented out): Spring Boot cannot bind an empty value there
        FailureAnalysis analysis = analyze(runner, "poolkit.scheduler=");
        assertThat(analysis.getDescription()).contains("Property: poolkit.scheduler\n")
                .contains("takes no value of its own");
        assertThat(analysis.getAction()).contains("remove the value of poolkit.scheduler and set the keys under it");
    }

    @Test
    void aPoolDeclaredEmptyInYamlWhoseKeysAreSetElsewhereIsReported() {
        // Spring Boot binds the empty "reports:" as every default and drops the capacity given on the command line
        FailureAnalysis analysis = analyzeStartup("--spring.config.name=strict-input-empty-pool",
                "--poolkit.pools.reports.capacity=4");
        assertThat(analysis.getDescription()).contains("Property: poolkit.pools.reports\n")
                .contains("strict-input-empty-pool.yml").contains("such as poolkit.pools.reports.capacity")
                .contains("commandLineArgs");
        assertThat(analysis.getAction()).contains("set one of its keys (such as enabled: true)");
        FailureAnalysis variables = analyze(withVariables(Map.of("POOLKIT_POOLS_REPORTS_CAPACITY", "4"))
                .withPropertyValues("poolkit.pools.reports="));
        assertThat(variables.getDescription()).contains("Property: poolkit.pools.reports\n")
                .contains("POOLKIT_POOLS_REPORTS_CAPACITY");
    }

    @Test
    void aPoolDeclaredWithOneKeyTakesTheKeysSetElsewhere() {
        withVariables(Map.of("POOLKIT_POOLS_REPORTS_CAPACITY", "4")).withPropertyValues(
                "poolkit.pools.reports.enabled=true", "poolkit.pools.reports.max-wait=", "poolkit.pool.capacity=3")
                .run(context -> assertThat(context).hasNotFailed().getBean("reports", WorkerPool.class)
                        .extracting(WorkerPool::capacity).isEqualTo(4));
    }

    @Test
    void anEmptyMapOfNamedEntriesBesideEntriesSetElsewhereIsFine() {
        // YAML's "pools:" with every pool commented out, or a JSON source's {}, beside a pool that another source adds:
        // Spring Boot binds the names under a map whatever the map's own value
        withVariables(Map.of("POOLKIT_POOLS_REPORTS_CAPACITY", "4")).withPropertyValues("poolkit.pools=",
                "poolkit.semaphores=").run(context -> assertThat(context).hasNotFailed()
                        .getBean("reports", WorkerPool.class).extracting(WorkerPool::capacity).isEqualTo(4));
        withVariables(Map.of("POOLKIT_POOLS_REPORTS_CAPACITY", "4")).withInitializer(context -> context
                .getEnvironment().getPropertySources().addLast(new MapPropertySource("json",
                        Map.of("poolkit.pools", Map.of(), "poolkit.pools.fixed", Map.of()))))
                .run(context -> assertThat(context).hasNotFailed()
                        .getBean("reports", WorkerPool.class).extracting(WorkerPool::capacity).isEqualTo(4));
    }

    private ApplicationContextRunner withVariables(Map<String, Object> variables) {
        return runner.withInitializer(context -> context.getEnvironment().getPropertySources().addFirst(
                new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                        variables)));
    }

    private static ConfigurableApplicationContext start(String... args) {
        SpringApplication application = new SpringApplication(Application.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        return application.run(args);
    }

    private static FailureAnalysis analyzeStartup(String... args) {
        Throwable failure = catchThrowable(() -> start(args).close());
        FailureAnalysis analysis = new PoolkitPropertyFailureAnalyzer().analyze(failure);
        assertThat(analysis).as("analysis of %s", failure).isNotNull();
        return analysis;
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration(PoolkitAutoConfiguration.class)
    static class Application {
    }

    @Configuration(proxyBeanMethods = false)
    static class Empty {
    }
}
