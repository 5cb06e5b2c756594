package io.github.poolkit.autoconfigure.permits;

import java.lang.reflect.Method;

import org.springframework.aop.Advisor;
import org.springframework.aop.framework.Advised;
import org.springframework.aop.framework.AopInfrastructureBean;
import org.springframework.aop.framework.autoproxy.AbstractBeanFactoryAwareAdvisingPostProcessor;
import org.springframework.aop.interceptor.AsyncExecutionInterceptor;
import org.springframework.aop.support.AopUtils;
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
 * advice), the permits advisor goes before the existing ones: the permits are taken before a transaction begins and
 * released after it ends, so a call waiting for permits holds no database connection, and a refused call starts no
 * transaction. Only {@code @Async} stays outside it, whichever post-processor runs first: an asynchronous method's
 * permits are taken on the executor's thread and held while the method runs.
 */
public class PermitsPostProcessor extends AbstractBeanFactoryAwareAdvisingPostProcessor {

    private static final long serialVersionUID = 1L;

    /** Created by the auto-configuration. */
    public PermitsPostProcessor() {
        setProxyTargetClass(true);
    }

    /**
     * On a bean proxied already, places the permits advisor right after {@code @Async}'s (which puts itself first when
     * it comes later), else first; else proxies the bean as usual.
     */
    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (this.advisor != null && bean instanceof Advised advised && !(bean instanceof AopInfrastructureBean)
                && !advised.isFrozen() && isEligible(AopUtils.getTargetClass(bean))) {
            if (advised.indexOf(this.advisor) < 0) { // a bean seen twice (a @Bean method returning it) is guarded once
                advised.addAdvisor(afterAsync(advised), this.advisor);
            }
            return bean;
        }
        return super.postProcessAfterInitialization(bean, beanName);
    }

    /**
     * {@return the position after the last {@code @Async} advisor (0 when there is none)} Other advice that puts
     * itself first ({@code @Retryable}, {@code @ConcurrencyLimit}) may come before {@code @Async}'s.
     */
    private static int afterAsync(Advised advised) {
        Advisor[] advisors = advised.getAdvisors();
        int position = 0;
        for (int i = 0; i < advisors.length; i++) {
            if (advisors[i].getAdvice() instanceof AsyncExecutionInterceptor) {
                position = i + 1;
            }
        }
        return position;
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
