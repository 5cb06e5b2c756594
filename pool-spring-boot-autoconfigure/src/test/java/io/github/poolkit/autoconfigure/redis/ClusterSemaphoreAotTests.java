package io.github.poolkit.autoconfigure.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.github.poolkit.PermitSemaphore;
import io.github.poolkit.autoconfigure.PoolkitAutoConfiguration;
import io.github.poolkit.autoconfigure.PoolkitPropertyFailureAnalyzer;
import io.github.poolkit.redis.RedisPermitSemaphore;
import io.github.poolkit.redis.RedisServer;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.aot.test.generate.TestGenerationContext;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.test.tools.CompileWithForkedClassLoader;
import org.springframework.core.test.tools.TestCompiler;

/**
 * The cluster semaphore beans survive Spring's AOT processing: the generated initializer, compiled and run, creates
 * the same {@code scope: cluster} bean (a factory-method definition, no instance supplier).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ClusterSemaphoreAotTests {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private static TestPropertyValues properties() {
        return TestPropertyValues.of("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + redis.port(),
                "poolkit.semaphores.gpu-memory.scope=cluster", "poolkit.semaphores.gpu-memory.size=8");
    }

    private AnnotationConfigApplicationContext source() {
        AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
        properties().applyTo(context);
        context.register(DataRedisAutoConfiguration.class, PoolkitAutoConfiguration.class,
                PoolkitRedisAutoConfiguration.class);
        return context;
    }

    @Test
    @CompileWithForkedClassLoader // the generated code reaches package-private configuration classes
    @SuppressWarnings("unchecked")
    void theGeneratedInitializerCreatesTheClusterSemaphore() {
        TestGenerationContext generation = new TestGenerationContext();
        var initializerName = new ApplicationContextAotGenerator().processAheadOfTime(source(), generation);
        assertThat(RuntimeHintsPredicates.resource().forResource(ClusterSemaphoreRuntimeHints.SCRIPT))
                .as("the script is kept in a native image").accepts(generation.getRuntimeHints());
        generation.writeGeneratedContent();
        TestCompiler.forSystem().with(generation).compile(compiled -> {
            GenericApplicationContext fresh = new GenericApplicationContext();
            properties().applyTo(fresh);
            compiled.getInstance(ApplicationContextInitializer.class, initializerName.reflectionName()).initialize(fresh);
            fresh.refresh();
            try {
                PermitSemaphore gpu = fresh.getBean("gpu-memory", PermitSemaphore.class);
                assertThat(gpu).isInstanceOf(RedisPermitSemaphore.class);
                assertThat(gpu.size()).isEqualTo(8);
            } finally {
                fresh.close();
            }
        });
    }

    @Test
    @CompileWithForkedClassLoader
    @SuppressWarnings("unchecked")
    void aScopeChangedAtRunTimeIsReported() {
        TestGenerationContext generation = new TestGenerationContext();
        var initializerName = new ApplicationContextAotGenerator().processAheadOfTime(source(), generation);
        generation.writeGeneratedContent();
        TestCompiler.forSystem().with(generation).compile(compiled -> {
            GenericApplicationContext fresh = new GenericApplicationContext();
            properties().and("poolkit.semaphores.gpu-memory.scope=local").applyTo(fresh);
            compiled.getInstance(ApplicationContextInitializer.class, initializerName.reflectionName()).initialize(fresh);
            try {
                Throwable failure = catchThrowable(fresh::refresh);
                FailureAnalysis analysis = new PoolkitPropertyFailureAnalyzer().analyze(failure);
                assertThat(analysis).as("analysis of %s", failure).isNotNull();
                assertThat(analysis.getDescription()).contains("Property: poolkit.semaphores.gpu-memory.scope")
                        .contains("with the cluster semaphore 'gpu-memory'");
            } finally {
                fresh.close();
            }
        });
    }
}
