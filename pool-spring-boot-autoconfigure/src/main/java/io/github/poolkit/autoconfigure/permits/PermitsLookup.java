package io.github.poolkit.autoconfigure.permits;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.Aware;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.FactoryBean;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.context.ApplicationListener;
import org.springframework.context.Lifecycle;
import org.springframework.context.Phased;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.annotation.MergedAnnotations.SearchStrategy;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

import io.github.poolkit.annotation.Permits;

/**
 * Finds the {@link Permits} that guards a method of a bean: the method's own annotation (also when declared on the
 * method it overrides or implements), else, for a public instance method, the annotation on the bean's class (or one
 * of its superclasses or interfaces). Methods of {@code Object} ({@code equals}, {@code hashCode}, {@code toString}
 * and their overrides) are never guarded by a type's annotation, nor are the methods Spring MVC and WebFlux call
 * around a controller's handlers ({@code @ExceptionHandler}, {@code @InitBinder}, {@code @ModelAttribute}): they are
 * no requests of their own, and an exception handler runs after its request's permits were refused. Nor are the
 * callbacks the container itself calls through the bean's proxy ({@code CALLBACKS}: a lifecycle's {@code start},
 * {@code stop}, {@code isRunning} and {@code getPhase}, an {@code ApplicationListener}'s {@code onApplicationEvent},
 * {@code getOrder}, a {@code FactoryBean}'s methods, the {@code Aware} setters...): refused while requests hold
 * every permit, a {@code getPhase()} at shutdown would stop the context's ordered stop.
 *
 * <p>The pointcut and the interceptor both ask here, so a method is proxied exactly when it is guarded.
 */
final class PermitsLookup {

    /** Spring web's annotations of the methods it calls around a controller's handlers, by name (an optional jar). */
    private static final List<String> HANDLER_SUPPORT = List.of(
            "org.springframework.web.bind.annotation.ExceptionHandler",
            "org.springframework.web.bind.annotation.InitBinder",
            "org.springframework.web.bind.annotation.ModelAttribute");

    /** A handler's annotation (also behind {@code @GetMapping} and the like). */
    private static final String REQUEST_MAPPING = "org.springframework.web.bind.annotation.RequestMapping";

    /** The container's callback interfaces: a method one of them (or a subinterface) declares is no request. */
    private static final List<Class<?>> CALLBACKS = List.of(Lifecycle.class, Phased.class, ApplicationListener.class,
            Ordered.class, FactoryBean.class, InitializingBean.class, DisposableBean.class,
            SmartInitializingSingleton.class, Aware.class);

    private PermitsLookup() {
    }

    /**
     * @param method      the method called (possibly an interface method)
     * @param targetClass the class of the bean
     * @return the guarding annotation, or {@code null} when the method is not guarded
     */
    static @Nullable Permits find(Method method, Class<?> targetClass) {
        Method specific = AopUtils.getMostSpecificMethod(method, targetClass);
        Permits own = AnnotatedElementUtils.findMergedAnnotation(specific, Permits.class);
        if (own != null) {
            return own;
        }
        int modifiers = specific.getModifiers();
        if (!Modifier.isPublic(modifiers) || Modifier.isStatic(modifiers) || ReflectionUtils.isObjectMethod(specific)) {
            return null;
        }
        MergedAnnotations annotations = MergedAnnotations.from(specific, SearchStrategy.TYPE_HIERARCHY);
        // a handler is guarded, even one whose @ModelAttribute names the attribute its result goes in
        if (!annotations.isPresent(REQUEST_MAPPING) && HANDLER_SUPPORT.stream().anyMatch(annotations::isPresent)) {
            return null;
        }
        return isContainerCallback(specific, targetClass) ? null
                : AnnotatedElementUtils.findMergedAnnotation(targetClass, Permits.class);
    }

    /**
     * @param method the bean's own method (bridges resolved)
     * @return whether it implements a method that Spring's own callback interfaces declare ({@link #CALLBACKS} and
     *         Spring's subinterfaces of them, a generic one's too, such as {@code onApplicationEvent(E)}); a method an
     *         application's interface declares is guarded, even where that interface extends a callback
     */
    private static boolean isContainerCallback(Method method, Class<?> targetClass) {
        for (Class<?> face : ClassUtils.getAllInterfacesForClassAsSet(targetClass)) {
            for (Method declared : face.getMethods()) {
                Class<?> owner = declared.getDeclaringClass();
                if (declared.getName().equals(method.getName())
                        && declared.getParameterCount() == method.getParameterCount()
                        && owner.getName().startsWith("org.springframework.")
                        && CALLBACKS.stream().anyMatch(callback -> callback.isAssignableFrom(owner))
                        && AopUtils.getMostSpecificMethod(declared, targetClass).equals(method)) {
                    return true;
                }
            }
        }
        return false;
    }
}
