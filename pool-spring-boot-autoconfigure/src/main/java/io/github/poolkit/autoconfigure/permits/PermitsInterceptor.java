package io.github.poolkit.autoconfigure.permits;

import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

import org.aopalliance.intercept.MethodInterceptor;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.config.AutowireCapableBeanFactory;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.beans.factory.config.NamedBeanHolder;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.MethodClassKey;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.core.ResolvableType;
import org.springframework.expression.Expression;
import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.util.ClassUtils;

import io.github.poolkit.Permit;
import io.github.poolkit.PermitSemaphore;
import io.github.poolkit.annotation.Permits;

/**
 * Runs a {@link Permits} method while holding its permits.
 * <ul>
 *   <li>A plain method: acquire (FIFO, at most {@code maxWait}, blocking the caller), proceed, release on return or
 *       throw; when it returns a {@link CompletionStage}, release when that stage completes.</li>
 *   <li>A method returning a Reactor {@code Mono} or {@code Flux} (or a {@code Publisher}, with Reactor present): the
 *       method runs at once and builds its publisher; the permits are acquired without blocking when that publisher
 *       is subscribed and released when the subscription completes, errors or is cancelled
 *       ({@link ReactivePermits}).</li>
 * </ul>
 *
 * <p>Every form holds a {@link Permit} of the semaphore's own and closes it, never {@code release(n)}: only a closed
 * permit tells an adaptive semaphore how long it was held, so only then does its size follow its limit.
 *
 * <p>Invariant: every permit acquired is released exactly once: for a plain method by the {@code catch} when it
 * throws, else once by {@link StageRelease} for a returned stage, else right after the return; for a reactive one
 * by its {@link PermitLease}. Each method's annotation is read, its semaphore looked up, its weight expression parsed
 * and its wait parsed once (per bean class), then cached.
 */
final class PermitsInterceptor implements MethodInterceptor {

    private static final Log logger = LogFactory.getLog(PermitsInterceptor.class);

    private static final SpelExpressionParser PARSER = new SpelExpressionParser();

    private static final Set<String> REACTOR_TYPES = Set.of("reactor.core.publisher.Mono",
            "reactor.core.publisher.Flux");

    private final ListableBeanFactory beanFactory;
    private final boolean reactorPresent;
    private final ParameterNameDiscoverer parameterNames = new DefaultParameterNameDiscoverer();
    private final Map<MethodClassKey, PermitsGuard> guards = new ConcurrentHashMap<>();
    private volatile @Nullable RetryAfterEstimator estimator;

    PermitsInterceptor(ListableBeanFactory beanFactory) {
        this.beanFactory = beanFactory;
        ClassLoader classLoader = (beanFactory instanceof ConfigurableBeanFactory configurable)
                ? configurable.getBeanClassLoader() : null;
        this.reactorPresent = ClassUtils.isPresent("reactor.core.publisher.Flux", classLoader);
    }

    @Override
    public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
        Method method = invocation.getMethod();
        Class<?> targetClass = (invocation.getThis() != null) ? AopUtils.getTargetClass(invocation.getThis())
                : method.getDeclaringClass();
        // keyed by the JDK proxy's own class where the bean is one (each Spring Data repository is, over one target
        // class that every repository shares): its guard may come from the proxy's interface (guardOf)
        Object target = invocation.getThis();
        Class<?> keyClass = (target != null && Proxy.isProxyClass(target.getClass())) ? target.getClass() : targetClass;
        PermitsGuard guard = guards.computeIfAbsent(new MethodClassKey(method, keyClass),
                key -> guardOf(method, targetClass, target));
        long weight = guard.weight(invocation.getThis(), method, invocation.getArguments(), parameterNames);
        if (guard.reactive()) {
            Object publisher = invocation.proceed();
            return (publisher != null) ? ReactivePermits.guard(publisher, guard, weight) : null;
        }
        Permit permit = guard.acquire(weight);
        long acquiredAt = System.nanoTime();
        Object result;
        try {
            result = invocation.proceed();
        }
        catch (Throwable ex) {
            guard.release(permit, acquiredAt);
            throw ex;
        }
        if (result instanceof CompletionStage<?> stage) {
            return StageRelease.holdUntilDone(stage, guard, permit, acquiredAt);
        }
        guard.release(permit, acquiredAt);
        return result;
    }

    /**
     * @param target the bean called, when it is a proxy itself (a Spring Data repository, an HTTP interface client)
     *               whose target class lacks the interface that carries the annotation, where to find it
     */
    private PermitsGuard guardOf(Method method, Class<?> targetClass, @Nullable Object target) {
        Permits permits = PermitsLookup.find(method, targetClass);
        if (permits == null && target != null && target.getClass() != targetClass) {
            permits = PermitsLookup.find(method, target.getClass());
        }
        if (permits == null) {
            throw new IllegalStateException("@Permits not found on " + method + " nor on " + targetClass);
        }
        String name = permits.value();
        String where = "@Permits on " + ClassUtils.getUserClass(targetClass).getSimpleName() + "." + method.getName();
        PermitSemaphore semaphore;
        String semaphoreName = name;
        try {
            if (name.isEmpty() && beanFactory instanceof AutowireCapableBeanFactory autowiring) {
                NamedBeanHolder<PermitSemaphore> primary = autowiring.resolveNamedBean(PermitSemaphore.class);
                semaphore = primary.getBeanInstance();
                semaphoreName = primary.getBeanName(); // the messages name the bean, as for a named one
            }
            else {
                semaphore = name.isEmpty() ? beanFactory.getBean(PermitSemaphore.class)
                        : beanFactory.getBean(name, PermitSemaphore.class);
            }
        }
        catch (BeansException ex) {
            throw new IllegalStateException(where + ": no single semaphore bean " + (name.isEmpty() ? "(primary)"
                    : "named '" + name + "'") + " (" + ex.getMessage() + "); define it, e.g. poolkit.semaphores."
                    + (name.isEmpty() ? "<name>" : name) + ".size, or name an existing PermitSemaphore bean", ex);
        }
        Expression weight;
        try {
            weight = PARSER.parseExpression(permits.weight());
        }
        catch (RuntimeException ex) {
            throw new IllegalStateException(where + ": weight '" + permits.weight()
                    + "' is not a valid SpEL expression; use a number or an expression such as #request.sizeMb", ex);
        }
        String waitText = (beanFactory instanceof ConfigurableBeanFactory configurable)
                ? configurable.resolveEmbeddedValue(permits.maxWait()) : permits.maxWait();
        Duration maxWait;
        try {
            maxWait = DurationStyle.detectAndParse(waitText);
        }
        catch (RuntimeException ex) {
            throw new IllegalStateException(where + ": maxWait '" + waitText
                    + "' is not a duration; use Spring Boot's format such as 500ms or 2s", ex);
        }
        if (maxWait.isNegative()) {
            throw new IllegalStateException(where + ": maxWait cannot be negative, was " + waitText
                    + "; use 0s to fail at once");
        }
        String early = EarlyRelease.why(method, targetClass);
        if (early != null) {
            logger.warn(where + ": " + early);
        }
        RetryAfterEstimator estimates = estimator();
        boolean reactive = isReactive(ResolvableType.forMethodReturnType(method, targetClass)
                .resolve(method.getReturnType()));
        return new PermitsGuard(where, semaphoreName.isEmpty() ? "(primary)" : semaphoreName, semaphore, weight,
                maxWait, reactive, estimates, estimates.holdTimes(semaphore));
    }

    /** @return whether permits are held per subscription: a {@code Mono}, {@code Flux} or, with Reactor, Publisher */
    private boolean isReactive(Class<?> returnType) {
        String name = returnType.getName();
        return REACTOR_TYPES.contains(name)
                || (reactorPresent && name.equals("org.reactivestreams.Publisher"));
    }

    private RetryAfterEstimator estimator() {
        RetryAfterEstimator known = estimator;
        if (known == null) {
            known = beanFactory.getBeanProvider(RetryAfterEstimator.class)
                    .getIfAvailable(() -> new RetryAfterEstimator(null, null));
            estimator = known;
        }
        return known;
    }
}
