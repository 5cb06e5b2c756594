package io.github.poolkit.autoconfigure.permits;

import java.lang.reflect.Method;

import org.springframework.aop.framework.autoproxy.AbstractBeanFactoryAwareAdvisingPostProcessor;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.aop.support.StaticMethodMatcherPointcut;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ListableBeanFactory;

import io.github.poolkit.annotation.Permits;

/**
 * Proxies every bean that has a {@link Permits} method, or {@code @Permits} on its type, so that
 * {@link PermitsInterceptor} guards those methods (as Spring's {@code MethodValidationPostProcessor} does for
 * {@code @Validated}): no AspectJ weaving, and the proxy class is known ahead of time, so it works with Spring AOT.
 * Proxies are class-based, so concrete classes work too.
 *
 * <p>On a bean that is proxied already (by {@code @Transactional}, {@code @Cacheable} and other auto-proxied
 * advice), the permits advisor goes before the existing ones, as {@code @Async}'s does: the permits are taken before
 * a transaction begins and released after it ends, so a call waiting for permits holds no database connection, and a
 * refused call starts no transaction.
 */
public class PermitsPostProcessor extends AbstractBeanFactoryAwareAdvisingPostProcessor {

    private static final long serialVersionUID = 1L;

    /** Created by the auto-configuration. */
    public PermitsPostProcessor() {
        setProxyTargetClass(true);
        setBeforeExistingAdvisors(true);
    }

    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
        super.setBeanFactory(beanFactory);
        this.advisor = new DefaultPointcutAdvisor(new PermitsPointcut(),
                new PermitsInterceptor((ListableBeanFactory) beanFactory));
    }

    /** Matches the methods {@link PermitsLookup} finds guarded: annotated, or public on an annotated type. */
    private static final class PermitsPointcut extends StaticMethodMatcherPointcut {

        @Override
        public boolean matches(Method method, Class<?> targetClass) {
            return PermitsLookup.find(method, targetClass) != null;
        }
    }
}
