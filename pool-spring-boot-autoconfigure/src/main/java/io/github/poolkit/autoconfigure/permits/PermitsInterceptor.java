package io.github.poolkit.autoconfigure.permits;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.expression.Expression;
import org.springframework.expression.spel.standard.SpelExpressionParser;

import io.github.poolkit.PermitSemaphore;
import io.github.poolkit.PoolOverloadException;
import io.github.poolkit.annotation.Permits;

/**
 * Runs a {@link Permits} method while holding its permits: acquire (FIFO, at most {@code maxWait}), proceed, release
 * on return or throw, or when a returned {@link CompletionStage} completes.
 *
 * <p>Invariant: every permit acquired is released exactly once: by the {@code catch} when the method throws, else by
 * the returned stage's single completion callback, else right after the return. Each method's annotation is read,
 * its semaphore looked up, its weight expression parsed and its wait parsed once, then cached.
 */
final class PermitsInterceptor implements MethodInterceptor {

    private static final SpelExpressionParser PARSER = new SpelExpressionParser();

    private final ListableBeanFactory beanFactory;
    private final ParameterNameDiscoverer parameterNames = new DefaultParameterNameDiscoverer();
    private final Map<Method, Guard> guards = new ConcurrentHashMap<>();

    PermitsInterceptor(ListableBeanFactory beanFactory) {
        this.beanFactory = beanFactory;
    }

    @Override
    public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
        Method method = invocation.getMethod();
        Class<?> targetClass = (invocation.getThis() != null) ? AopUtils.getTargetClass(invocation.getThis())
                : method.getDeclaringClass();
        Guard guard = guards.computeIfAbsent(AopUtils.getMostSpecificMethod(method, targetClass), this::guardOf);
        long weight = guard.weight(invocation.getThis(), method, invocation.getArguments(), parameterNames);
        guard.acquire(weight);
        Object result;
        try {
            result = invocation.proceed();
        }
        catch (Throwable ex) {
            guard.semaphore().release(weight);
            throw ex;
        }
        if (result instanceof CompletionStage<?> stage) {
            stage.whenComplete((value, failure) -> guard.semaphore().release(weight));
        }
        else {
            guard.semaphore().release(weight);
        }
        return result;
    }

    private Guard guardOf(Method method) {
        Permits permits = AnnotatedElementUtils.findMergedAnnotation(method, Permits.class);
        if (permits == null) {
            throw new IllegalStateException("@Permits not found on " + method);
        }
        String name = permits.value();
        String where = "@Permits on " + method.getDeclaringClass().getSimpleName() + "." + method.getName();
        PermitSemaphore semaphore;
        try {
            semaphore = name.isEmpty() ? beanFactory.getBean(PermitSemaphore.class)
                    : beanFactory.getBean(name, PermitSemaphore.class);
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
        return new Guard(where, name.isEmpty() ? "(primary)" : name, semaphore, weight, maxWait);
    }

    /** One method's parsed annotation. */
    private record Guard(String where, String semaphoreName, PermitSemaphore semaphore, Expression weightExpression,
            Duration maxWait) {

        long weight(@Nullable Object target, Method method, @Nullable Object[] arguments,
                ParameterNameDiscoverer names) {
            Object value = weightExpression.getValue(new MethodBasedEvaluationContext(target, method, arguments,
                    names));
            if (!(value instanceof Number number) || number.doubleValue() != Math.floor(number.doubleValue())) {
                throw new IllegalArgumentException(where + ": weight '" + weightExpression.getExpressionString()
                        + "' gave " + value + ", not a whole number of permits");
            }
            long weight = number.longValue();
            if (weight < 0) {
                throw new IllegalArgumentException(where + ": weight '" + weightExpression.getExpressionString()
                        + "' gave " + weight + "; a weight cannot be negative");
            }
            return weight;
        }

        void acquire(long weight) {
            try {
                if (semaphore.tryAcquire(weight, maxWait)) {
                    return;
                }
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw overloaded(weight, "interrupted while waiting");
            }
            throw overloaded(weight, (weight > semaphore.size())
                    ? "more than the semaphore's size of " + semaphore.size() + ", so they can never come"
                    : "not granted within " + DurationStyle.SIMPLE.print(maxWait));
        }

        private PoolOverloadException overloaded(long weight, String why) {
            return new PoolOverloadException(weight + " permits of semaphore '" + semaphoreName + "' (maxWait "
                    + DurationStyle.SIMPLE.print(maxWait) + "): " + why + "; " + where);
        }
    }
}
