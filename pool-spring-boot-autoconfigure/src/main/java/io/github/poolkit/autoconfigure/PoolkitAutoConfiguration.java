package io.github.poolkit.autoconfigure;

import java.time.Duration;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.autoconfigure.task.TaskSchedulingAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.ImportRuntimeHints;
import org.springframework.context.annotation.Primary;
import org.springframework.core.env.Environment;
import org.springframework.core.task.TaskDecorator;

import io.github.poolkit.DelayScheduler;
import io.github.poolkit.WeightedSemaphore;
import io.github.poolkit.WorkerPool;

/**
 * Auto-configuration of poolkit's beans from {@link PoolkitProperties}: the primary {@link WorkerPool}
 * {@code workerPool}, one pool per {@code poolkit.pools.<name>}, the primary
 * {@link WeightedSemaphore} {@code weightedSemaphore}, one semaphore per
 * {@code poolkit.semaphores.<name>}, and the {@link DelayScheduler} {@code delayScheduler}.
 *
 * <p>Each bean backs off when its {@code enabled} key is {@code false} or when the application defines a bean of the
 * same name. The configuration runs after Spring Boot's task execution and scheduling auto-configurations, whose
 * {@code applicationTaskExecutor} and {@code taskScheduler} back off as soon as any {@code Executor} or
 * {@code ScheduledExecutorService} bean exists: running after them keeps them. Pools and the scheduler are released by
 * {@link PoolkitLifecycle} on context close, within one deadline (the longest {@code shutdown-timeout} set, else
 * {@code spring.lifecycle.timeout-per-shutdown-phase}), and paused and resumed by it on the context's {@code stop()} and
 * {@code start()}; their destroy methods ({@code release}, {@code shutdown}) never block.
 *
 * <p>Every pool and the scheduler get the application's task decorator ({@link TaskDecorators}) and then the
 * {@link PoolCustomizer} beans, in order, after their properties.
 */
@AutoConfiguration(after = { TaskExecutionAutoConfiguration.class, TaskSchedulingAutoConfiguration.class })
@ConditionalOnClass(WorkerPool.class)
@EnableConfigurationProperties(PoolkitProperties.class)
@Import(NamedBeansRegistrar.class)
@ImportRuntimeHints(PoolkitRuntimeHints.class)
public class PoolkitAutoConfiguration {

    /** The bean name of the primary worker pool, from {@code poolkit.pool}. */
    public static final String WORKER_POOL = "workerPool";

    /** The bean name of the primary weighted semaphore, from {@code poolkit.semaphore}. */
    public static final String WEIGHTED_SEMAPHORE = "weightedSemaphore";

    /** The bean name of the delay scheduler, from {@code poolkit.scheduler}. */
    public static final String DELAY_SCHEDULER = "delayScheduler";

    /** Spring Boot's property whose value is the shutdown deadline when no {@code shutdown-timeout} is set. */
    static final String LIFECYCLE_TIMEOUT = "spring.lifecycle.timeout-per-shutdown-phase";

    /** Spring Boot's default of {@value #LIFECYCLE_TIMEOUT}. */
    static final Duration DEFAULT_LIFECYCLE_TIMEOUT = Duration.ofSeconds(30);

    /** Created by Spring. */
    public PoolkitAutoConfiguration() {
    }

    /**
     * Checks the configuration at run time where the bean definitions were made ahead of time.
     *
     * @return the check ({@code static}: a bean factory post-processor)
     */
    @Bean
    static RunTimeConfigurationCheck poolkitRunTimeConfigurationCheck() {
        return new RunTimeConfigurationCheck();
    }

    @Bean
    PoolkitLifecycle poolkitLifecycle(Environment environment) {
        return new PoolkitLifecycle(Binder.get(environment).bind(LIFECYCLE_TIMEOUT, Duration.class)
                .orElse(DEFAULT_LIFECYCLE_TIMEOUT));
    }

    @Bean
    PoolTaskListeners poolTaskListeners() {
        return new PoolTaskListeners();
    }

    @Bean
    SemaphoreListeners semaphoreListeners() {
        return new SemaphoreListeners();
    }

    @Bean
    PoolOverdueLog poolOverdueLog(ApplicationEventPublisher publisher) {
        return new PoolOverdueLog(publisher);
    }

    @Bean
    PoolBeanListeners poolBeanListeners(ListableBeanFactory beanFactory, PoolTaskListeners poolTaskListeners,
            PoolOverdueLog poolOverdueLog) {
        return new PoolBeanListeners(beanFactory, poolTaskListeners, poolOverdueLog);
    }

    @Bean(PoolkitFactory.BEAN_NAME)
    PoolkitFactory poolkitFactory(PoolkitProperties properties, PoolTaskListeners poolTaskListeners,
            SemaphoreListeners semaphoreListeners, PoolkitLifecycle poolkitLifecycle,
            ObjectProvider<TaskDecorator> taskDecorators, ObjectProvider<PoolCustomizer> customizers,
            Environment environment, PoolOverdueLog poolOverdueLog) {
        return new PoolkitFactory(properties, poolTaskListeners, semaphoreListeners, poolkitLifecycle,
                TaskDecorators.pick(taskDecorators, environment), customizers.orderedStream().toList(),
                environment.getProperty("spring.threads.virtual.enabled", Boolean.class, false), poolOverdueLog);
    }

    @Bean(name = WORKER_POOL, destroyMethod = "release")
    @Primary
    @ConditionalOnMissingBean(name = WORKER_POOL)
    @ConditionalOnBooleanProperty(name = "poolkit.pool.enabled", matchIfMissing = true)
    WorkerPool workerPool(PoolkitFactory poolkitFactory) {
        return poolkitFactory.primaryPool();
    }

    @Bean(name = WEIGHTED_SEMAPHORE)
    @Primary
    @ConditionalOnMissingBean(name = WEIGHTED_SEMAPHORE)
    @ConditionalOnBooleanProperty(name = "poolkit.semaphore.enabled", matchIfMissing = true)
    WeightedSemaphore weightedSemaphore(PoolkitFactory poolkitFactory) {
        return poolkitFactory.primarySemaphore();
    }

    @Bean(name = DELAY_SCHEDULER, destroyMethod = "shutdown")
    @ConditionalOnMissingBean(name = DELAY_SCHEDULER)
    @ConditionalOnBooleanProperty(name = "poolkit.scheduler.enabled", matchIfMissing = true)
    DelayScheduler delayScheduler(PoolkitFactory poolkitFactory) {
        return poolkitFactory.delayScheduler();
    }
}
