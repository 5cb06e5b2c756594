package io.github.poolkit.autoconfigure.permits;

import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;
import org.springframework.web.servlet.HandlerExceptionResolver;

import io.github.poolkit.PermitSemaphore;
import io.github.poolkit.annotation.Permits;
import io.github.poolkit.autoconfigure.PoolkitAutoConfiguration;

/**
 * Auto-configuration of {@link Permits}: the post-processor that guards annotated methods and, in a Spring MVC
 * application, the resolver that turns an unhandled {@code PoolOverloadException} into {@code 429 Too Many Requests}.
 */
@AutoConfiguration(after = PoolkitAutoConfiguration.class)
@ConditionalOnClass(PermitSemaphore.class)
public class PermitsAutoConfiguration {

    /** Created by Spring. */
    public PermitsAutoConfiguration() {
    }

    /** Static: a post-processor must not make its configuration class load early. */
    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    @ConditionalOnMissingBean
    static PermitsPostProcessor permitsPostProcessor() {
        return new PermitsPostProcessor();
    }

    /** The 429 mapping, in servlet web applications. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
    @ConditionalOnClass(HandlerExceptionResolver.class)
    static class WebMvcOverloadMapping {

        @Bean
        @ConditionalOnMissingBean
        PoolOverloadExceptionResolver poolOverloadExceptionResolver() {
            return new PoolOverloadExceptionResolver();
        }
    }
}
