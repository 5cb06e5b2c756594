package io.github.poolkit.autoconfigure.actuate;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.invoke.OperationInvokerAdvisor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;

import io.github.poolkit.WorkerPool;
import io.github.poolkit.autoconfigure.PoolOverdueLog;
import io.github.poolkit.autoconfigure.PoolkitAutoConfiguration;
import io.github.poolkit.autoconfigure.actuate.executors.ApplicationExecutors;

/**
 * Auto-configuration of the {@code pools} Actuator endpoint ({@link PoolsEndpoint}) when Spring Boot Actuator is on
 * the classpath and the endpoint is available (access not {@code none}, and exposed), with the check that refuses a
 * write whose body has a field its target cannot change, and a write or read whose body or query names the bean in
 * place of the path ({@link WriteFieldsCheck}).
 */
@AutoConfiguration(after = PoolkitAutoConfiguration.class)
@ConditionalOnClass({ WorkerPool.class, Endpoint.class, ConditionalOnAvailableEndpoint.class })
@ConditionalOnAvailableEndpoint(PoolsEndpoint.class)
public class PoolsEndpointAutoConfiguration {

    /** Created by Spring. */
    public PoolsEndpointAutoConfiguration() {
    }

    @Bean
    @ConditionalOnMissingBean
    PoolsEndpoint poolsEndpoint(ListableBeanFactory beanFactory, ApplicationContext context,
            ObjectProvider<PoolOverdueLog> overdueLog) {
        return new PoolsEndpoint(new PoolkitBeans(beanFactory), new ApplicationExecutors(context),
                overdueLog.getIfAvailable());
    }

    @Bean
    ExecutorWriteGuard poolsExecutorWriteGuard(ApplicationContext context) {
        return new ExecutorWriteGuard(new ApplicationExecutors(context));
    }

    @Bean
    OperationInvokerAdvisor poolsWriteFieldsCheck(ListableBeanFactory beanFactory) {
        return new WriteFieldsCheck(new PoolkitBeans(beanFactory));
    }
}
