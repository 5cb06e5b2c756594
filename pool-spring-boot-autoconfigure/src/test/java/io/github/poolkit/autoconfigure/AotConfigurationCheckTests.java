package io.github.poolkit.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.github.poolkit.WorkerPool;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.aot.test.generate.TestGenerationContext;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.test.tools.CompileWithForkedClassLoader;
import org.springframework.core.test.tools.TestCompiler;

/**
 * An AOT-processed application checks the {@code poolkit.*} configuration it runs with as a whole, as a regular one
 * does: the bean definitions were made at build time, so the check that runs while they are made
 * ({@link NamedBeansRegistrar}) did not see the run-time values, and without a check at run time the first bean to
 * fail would report its own problem only.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class AotConfigurationCheckTests {

    private static final String[] BUILT_WITH = {"poolkit.pools.reports.capacity=2"};

    private static final String[] PRIMARY_SEMAPHORE_OFF = {"poolkit.pools.reports.capacity=2",
            "poolkit.semaphore.enabled=false"};

    /** Processes a context configured with {@link #BUILT_WITH} ahead of time, then runs it with {@code runWith}. */
    private static void runProcessed(String[] runWith, Consumer<GenericApplicationContext> refreshed) {
        runProcessed(BUILT_WITH, runWith, refreshed);
    }

    /** Processes a context configured with {@code builtWith} ahead of time, then runs it with {@code runWith}. */
    private static void runProcessed(String[] builtWith, String[] runWith,
            Consumer<GenericApplicationContext> refreshed) {
        runProcessed(builtWith, runWith, context -> { }, refreshed);
    }

    /** As above, {@code prepared} applied to both contexts (the one processed and the one run) before refresh. */
    private static void runProcessed(String[] builtWith, String[] runWith,
            Consumer<GenericApplicationContext> prepared, Consumer<GenericApplicationContext> refreshed) {
        AnnotationConfigApplicationContext source = new AnnotationConfigApplicationContext();
        TestPropertyValues.of(builtWith).applyTo(source);
        prepared.accept(source);
        source.register(PoolkitAutoConfiguration.class);
        TestGenerationContext generation = new TestGenerationContext();
        var initializer = new ApplicationContextAotGenerator().processAheadOfTime(source, generation);
        generation.writeGeneratedContent();
        TestCompiler.forSystem().with(generation).compile(compiled -> {
            GenericApplicationContext fresh = new GenericApplicationContext();
            TestPropertyValues.of(runWith).applyTo(fresh);
            prepared.accept(fresh);
            @SuppressWarnings("unchecked")
            ApplicationContextInitializer<GenericApplicationContext> init =
                    compiled.getInstance(ApplicationContextInitializer.class, initializer.reflectionName());
            init.initialize(fresh);
            try {
                refreshed.accept(fresh);
            } finally {
                fresh.close();
            }
        });
    }

    @Test
    @CompileWithForkedClassLoader // the generated code reaches package-private configuration classes
    void everyInvalidRunTimeValueIsReportedAtOnce() {
        runProcessed(new String[] {"poolkit.pools.reports.capacity=2", "poolkit.pools.reports.queue-capacity=-7",
                "poolkit.pool.max-blocking-tasks=-1", "poolkit.scheduler.workers=0", "poolkit.pool.capasity=4"},
                fresh -> {
                    Throwable failure = catchThrowable(fresh::refresh);
                    FailureAnalysis analysis = new PoolkitPropertyFailureAnalyzer().analyze(failure);
                    assertThat(analysis).as("analysis of %s", failure).isNotNull();
                    assertThat(analysis.getDescription()).contains("4 properties")
                            .contains("Property: poolkit.pools.reports.queue-capacity")
                            .contains("Property: poolkit.pool.max-blocking-tasks")
                            .contains("Property: poolkit.scheduler.workers")
                            .contains("Property: poolkit.pool.capasity");
                    assertThat(analysis.getAction()).contains("did you mean poolkit.pool.capacity?");
                });
    }

    @Test
    @CompileWithForkedClassLoader
    void validRunTimeValuesStartAsBuilt() {
        runProcessed(new String[] {"poolkit.pools.reports.capacity=3"}, fresh -> {
            fresh.refresh();
            assertThat(fresh.getBean("reports", WorkerPool.class).capacity()).isEqualTo(3);
        });
    }

    @Test
    @CompileWithForkedClassLoader
    void aBuiltPoolWhoseKeysAreGoneAtRunTimeIsReported() {
        runProcessed(new String[] {}, fresh -> {
            Throwable failure = catchThrowable(fresh::refresh);
            FailureAnalysis analysis = new PoolkitPropertyFailureAnalyzer().analyze(failure);
            assertThat(analysis).as("analysis of %s", failure).isNotNull();
            assertThat(analysis.getDescription()).contains("poolkit.pools.reports");
        });
    }

    @Test
    @CompileWithForkedClassLoader
    void aBuiltPoolDisabledAtRunTimeIsReported() {
        runProcessed(new String[] {"poolkit.pools.reports.capacity=2", "poolkit.pools.reports.enabled=false"},
                fresh -> {
                    Throwable failure = catchThrowable(fresh::refresh);
                    assertThat(failure).as("refresh of a context whose pool 'reports' is disabled at run time")
                            .isNotNull();
                    FailureAnalysis analysis = new PoolkitPropertyFailureAnalyzer().analyze(failure);
                    assertThat(analysis).as("analysis of %s", failure).isNotNull();
                    assertThat(analysis.getDescription()).contains("poolkit.pools.reports.enabled");
                });
    }

    /** The primary beans' switches are conditions, decided when process-aot ran: a run-time change is reported. */
    @Test
    @CompileWithForkedClassLoader
    void aPrimaryBeanSwitchedOffAtRunTimeIsReported() {
        runProcessed(new String[] {"poolkit.pools.reports.capacity=2", "poolkit.pool.enabled=false",
                "poolkit.scheduler.enabled=false"}, fresh -> {
                    Throwable failure = catchThrowable(fresh::refresh);
                    FailureAnalysis analysis = new PoolkitPropertyFailureAnalyzer().analyze(failure);
                    assertThat(analysis).as("analysis of %s", failure).isNotNull();
                    assertThat(analysis.getDescription()).contains("2 properties")
                            .contains("Property: poolkit.pool.enabled").contains("Property: poolkit.scheduler.enabled")
                            .contains("processed ahead of time (AOT) with poolkit's primary pool");
                    assertThat(analysis.getAction()).contains("run process-aot again with poolkit.pool.enabled=false");
                });
    }

    /** The application's own singleton named {@code workerPool} took the primary pool's place then, as it does now. */
    @Test
    @CompileWithForkedClassLoader
    void aPrimaryBeanWhoseNameTheApplicationTakesStarts() {
        WorkerPool own = WorkerPool.create(1);
        try {
            runProcessed(BUILT_WITH, BUILT_WITH, context -> context.getBeanFactory()
                    .registerSingleton(PoolkitAutoConfiguration.WORKER_POOL, own), fresh -> {
                        fresh.refresh();
                        assertThat(fresh.getBean(PoolkitAutoConfiguration.WORKER_POOL)).isSameAs(own);
                    });
        }
        finally {
            own.release();
        }
    }

    @Test
    @CompileWithForkedClassLoader
    void aPrimaryBeanSwitchedOnAtRunTimeIsReported() {
        runProcessed(PRIMARY_SEMAPHORE_OFF, new String[] {"poolkit.pools.reports.capacity=2"}, fresh -> {
            Throwable failure = catchThrowable(fresh::refresh);
            FailureAnalysis analysis = new PoolkitPropertyFailureAnalyzer().analyze(failure);
            assertThat(analysis).as("analysis of %s", failure).isNotNull();
            assertThat(analysis.getDescription()).contains("Property: poolkit.semaphore.enabled")
                    .contains("without poolkit's primary semaphore");
        });
    }

    @Test
    @CompileWithForkedClassLoader
    void aPrimaryBeanSwitchedOffAtBothTimesStarts() {
        runProcessed(PRIMARY_SEMAPHORE_OFF, PRIMARY_SEMAPHORE_OFF, fresh -> {
            fresh.refresh();
            assertThat(fresh.containsBean(PoolkitAutoConfiguration.WEIGHTED_SEMAPHORE)).isFalse();
            assertThat(fresh.getBean(PoolkitAutoConfiguration.WORKER_POOL, WorkerPool.class).isClosed()).isFalse();
        });
    }

    @Test
    @CompileWithForkedClassLoader
    void aPoolConfiguredOnlyAtRunTimeIsReported() {
        runProcessed(new String[] {"poolkit.pools.reports.capacity=2", "poolkit.pools.extra.capacity=3"}, fresh -> {
            Throwable failure = catchThrowable(fresh::refresh);
            assertThat(failure).as("refresh of a context configured with a pool that was not built").isNotNull();
            FailureAnalysis analysis = new PoolkitPropertyFailureAnalyzer().analyze(failure);
            assertThat(analysis).as("analysis of %s", failure).isNotNull();
            assertThat(analysis.getDescription()).contains("poolkit.pools.extra");
        });
    }

    /** A named pool under the name of poolkit's primary pool, configured at run time only, is reported too. */
    @Test
    @CompileWithForkedClassLoader
    void aPoolNamedAfterPoolkitsOwnBeanAtRunTimeIsReported() {
        runProcessed(new String[] {"poolkit.pools.reports.capacity=2", "poolkit.pools.workerPool.capacity=3"},
                fresh -> {
                    Throwable failure = catchThrowable(fresh::refresh);
                    FailureAnalysis analysis = new PoolkitPropertyFailureAnalyzer().analyze(failure);
                    assertThat(analysis).as("analysis of %s", failure).isNotNull();
                    assertThat(analysis.getDescription()).contains("Property: poolkit.pools.workerPool")
                            .contains("one of poolkit's own beans");
                });
    }

    @Test
    @CompileWithForkedClassLoader
    void everyDifferenceOfTheNamedBeansIsReportedWithTheRest() {
        runProcessed(new String[] {"poolkit.pools.reports.capacity=2", "poolkit.semaphores.gpu.size=3"},
                new String[] {"poolkit.pools.reports.capacity=2", "poolkit.semaphores.gpu.enabled=false",
                        "poolkit.semaphores.disk.size=4", "poolkit.pool.max-wait=-1s"},
                fresh -> {
                    Throwable failure = catchThrowable(fresh::refresh);
                    FailureAnalysis analysis = new PoolkitPropertyFailureAnalyzer().analyze(failure);
                    assertThat(analysis).as("analysis of %s", failure).isNotNull();
                    assertThat(analysis.getDescription()).contains("3 properties")
                            .contains("Property: poolkit.semaphores.gpu.enabled")
                            .contains("Property: poolkit.semaphores.disk").contains("without the semaphore 'disk'")
                            .contains("Property: poolkit.pool.max-wait");
                    assertThat(analysis.getAction()).contains("run process-aot again with this configuration");
                });
    }
}
