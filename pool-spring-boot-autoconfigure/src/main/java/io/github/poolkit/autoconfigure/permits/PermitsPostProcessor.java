package io.github.poolkit.autoconfigure.permits;

import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.aop.support.annotation.AnnotationMatchingPointcut;
import org.springframework.aop.framework.autoproxy.AbstractBeanFactoryAwareAdvisingPostProcessor;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ListableBeanFactory;

import io.github.poolkit.annotation.Permits;

/**
 * Proxies every bean that has a {@link Permits} method so that {@link PermitsInterceptor} guards those methods (as
 * Spring's {@code MethodValidationPostProcessor} does for {@code @Validated}): no AspectJ weaving, and the proxy class
 * is known ahead of time, so it works with Spring AOT. Proxies are class-based, so concrete classes work too.
 */
public class PermitsPostProcessor extends AbstractBeanFactoryAwareAdvisingPostProcessor {

    private static final long serialVersionUID = 1L;

    /** Created by the auto-configuration. */
    public PermitsPostProcessor() {
        setProxyTargetClass(true);
    }

    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
        super.setBeanFactory(beanFactory);
        this.advisor = new DefaultPointcutAdvisor(AnnotationMatchingPointcut.forMethodAnnotation(Permits.class),
                new PermitsInterceptor((ListableBeanFactory) beanFactory));
    }
}
