package io.github.poolkit.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.GeneratedFiles.Kind;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.core.env.MapPropertySource;
import org.springframework.javapoet.ClassName;


/**
 * Spring's AOT engine can turn the bean definitions of named pools and semaphores into code: they name a factory
 * method of the {@code poolkitFactory} bean, never an instance supplier (which AOT refuses: "instance supplier is not
 * supported").
 */
class AotProcessingTests {

    @Test
    void namedBeansAreFactoryMethodDefinitions() {
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(PoolkitAutoConfiguration.class))
                .withPropertyValues("poolkit.pools.reports.capacity=2", "poolkit.semaphores.gpu-memory.size=8")
                .run(context -> {
                    for (Map.Entry<String, String> bean : Map.of("reports", "namedPool", "gpu-memory",
                            "namedSemaphore").entrySet()) {
                        BeanDefinition definition = context.getBeanFactory().getBeanDefinition(bean.getKey());
                        assertThat(definition.getFactoryBeanName()).isEqualTo(PoolkitFactory.BEAN_NAME);
                        assertThat(definition.getFactoryMethodName()).isEqualTo(bean.getValue());
                    }
                });
    }

    @Test
    void aheadOfTimeProcessingGeneratesCodeForNamedPoolsAndSemaphores() throws Exception {
        AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
        context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("test",
                Map.of("poolkit.pools.reports.capacity", "2", "poolkit.semaphores.gpu-memory.size", "8")));
        context.register(PoolkitAutoConfiguration.class);
        InMemoryGeneratedFiles files = new InMemoryGeneratedFiles();
        DefaultGenerationContext generation = new DefaultGenerationContext(
                new ClassNameGenerator(ClassName.get("com.example", "AotTest")), files);

        new ApplicationContextAotGenerator().processAheadOfTime(context, generation);
        generation.writeGeneratedContent();

        StringBuilder code = new StringBuilder();
        for (String path : files.getGeneratedFiles(Kind.SOURCE).keySet()) {
            code.append(files.getGeneratedFileContent(Kind.SOURCE, path));
        }
        assertThat(code.toString()).contains("registerBeanDefinition(\"reports\"")
                .contains("registerBeanDefinition(\"gpu-memory\"").contains("namedPool")
                .contains("namedSemaphore");
        assertThat(RuntimeHintsPredicates.reflection().onType(PoolProperties.class)).accepts(generation.getRuntimeHints());
    }
}
