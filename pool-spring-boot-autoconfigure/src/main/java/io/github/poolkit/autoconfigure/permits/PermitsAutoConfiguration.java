package io.github.poolkit.autoconfigure.permits;

import java.util.List;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;
import org.springframework.http.codec.ServerCodecConfigurer;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.converter.HttpMessageConverters;
import org.springframework.web.server.WebExceptionHandler;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerAdapter;

import io.github.poolkit.PermitSemaphore;
import io.github.poolkit.annotation.Permits;
import io.github.poolkit.autoconfigure.PoolTaskListeners;
import io.github.poolkit.autoconfigure.PoolkitAutoConfiguration;

/**
 * Auto-configuration of {@link Permits} and of the {@code 429} answer to overloads: the post-processor that guards
 * annotated methods, the {@link RetryAfterEstimator}, and, in a Spring MVC application, the resolver (in a WebFlux
 * application, the exception handler) that turns an unhandled overload into {@code 429 Too Many Requests}.
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

    @Bean
    @ConditionalOnMissingBean
    RetryAfterEstimator retryAfterEstimator(ListableBeanFactory beanFactory,
            ObjectProvider<PoolTaskListeners> poolTaskListeners) {
        return new RetryAfterEstimator(beanFactory, poolTaskListeners.getIfUnique());
    }

    /** The 429 answer, in servlet web applications. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
    @ConditionalOnClass(HandlerExceptionResolver.class)
    static class WebMvcOverloadMapping {

        @Bean
        @ConditionalOnMissingBean
        PoolOverloadExceptionResolver poolOverloadExceptionResolver(RetryAfterEstimator estimator,
                ObjectProvider<RequestMappingHandlerAdapter> adapters) {
            return new PoolOverloadExceptionResolver(estimator, () -> {
                RequestMappingHandlerAdapter adapter = adapters.getIfUnique();
                List<HttpMessageConverter<?>> converters = (adapter != null) ? adapter.getMessageConverters()
                        : List.of();
                return converters.isEmpty() ? HttpMessageConverters.forServer().registerDefaults().build()
                        : converters;
            });
        }
    }

    /** The 429 answer, in reactive web applications. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
    @ConditionalOnClass(WebExceptionHandler.class)
    static class WebFluxOverloadMapping {

        @Bean
        @ConditionalOnMissingBean
        PoolOverloadWebExceptionHandler poolOverloadWebExceptionHandler(RetryAfterEstimator estimator,
                ObjectProvider<ServerCodecConfigurer> codecs) {
            return new PoolOverloadWebExceptionHandler(estimator,
                    () -> codecs.getIfAvailable(ServerCodecConfigurer::create).getWriters());
        }
    }
}
