package io.github.poolkit.autoconfigure.actuate;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.UnaryOperator;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.InvocationContext;
import org.springframework.boot.actuate.endpoint.OperationArgumentResolver;
import org.springframework.boot.actuate.endpoint.OperationType;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.invoke.OperationInvoker;
import org.springframework.boot.actuate.endpoint.invoke.OperationInvokerAdvisor;
import org.springframework.boot.actuate.endpoint.invoke.OperationParameter;
import org.springframework.boot.actuate.endpoint.invoke.OperationParameters;
import org.springframework.boot.actuate.endpoint.web.WebServerNamespace;

/**
 * A check of each write to the {@code pools} endpoint, made on the write's whole body before the operation is invoked:
 * Spring Boot's endpoint infrastructure binds the body's fields to the operation's parameters by name and drops the
 * others without a word, so only an advisor sees them. Each subclass says which beans it guards (a write to any other
 * bean is let through) and why it refuses a write to one of them.
 *
 * <p>The path decides which bean a write changes, or a read of one entry reads. Actuator lays the body's fields, then
 * the query's parameters, over the path's variables when it builds the operation's arguments, so a {@code beanName}
 * field or parameter would replace the bean the path names. The selector of both operations captures the path's
 * remaining segments, which Actuator hands over as a {@code String[]} while a body field or a query parameter is a
 * {@code String} (or a list): any other value means the body or the query named the bean, and the write or the read
 * is refused, whatever bean it names. A read's other query parameters are no parameters of it and are ignored.
 *
 * <p>The name is the rest of the path, its non-empty segments joined by {@code /}, so that a bean whose name holds a
 * slash ({@code poolkit.pools.[eu/reports]}, {@code @Bean("jobs/nightly")}), listed like any other, can be read and
 * written too; and an alias of a listed bean stands for that bean, as {@code getBean} and {@code @Async} take it. Both
 * are settled here, before the check and the operation, which then see the bean's name as the list shows it (Actuator
 * would hand the operation the segments joined by commas).
 *
 * <p>Over JMX (no web server namespace to resolve, and exactly the operation's parameters as arguments, each one given,
 * {@code null} when left out) none can be laid over another: the name is the selector's value as given (an alias
 * resolved as above), so nothing here refuses a JMX call; the operation checks its values as for any write. Any other
 * invocation is checked as a web one.
 *
 * <p>Invariant: a refused write or read answers 400 with a problem body naming the field (404 when the path names no
 * bean), and the operation is not invoked, so nothing changes; the read of every entry, and the other endpoints, are
 * left as they are.
 */
abstract class PoolsWriteCheck<T> implements OperationInvokerAdvisor {

    private static final EndpointId POOLS = EndpointId.of("pools");

    /** The name of the selector of the write and of the read of one entry: the bean the path names. */
    static final String SELECTOR = "beanName";

    private final Function<String, @Nullable T> targets;

    private final UnaryOperator<String> beanNames;

    /**
     * @param targets   finds what this check knows of the bean a write's path names, or {@code null} for a bean it
     *                  does not guard
     * @param beanNames the bean name a name of the path stands for: the bean's own name for an alias, else the name
     */
    PoolsWriteCheck(Function<String, @Nullable T> targets, UnaryOperator<String> beanNames) {
        this.targets = targets;
        this.beanNames = beanNames;
    }

    @Override
    public final OperationInvoker apply(EndpointId endpointId, OperationType operationType,
            OperationParameters parameters, OperationInvoker invoker) {
        Set<String> known = new LinkedHashSet<>();
        parameters.stream().map(OperationParameter::getName).forEach(known::add);
        if (!POOLS.equals(endpointId) || !known.contains(SELECTOR)) {
            return invoker; // another endpoint, or the read of every entry
        }
        boolean write = operationType == OperationType.WRITE;
        return context -> {
            Map<String, Object> arguments = context.getArguments();
            if (!context.canResolve(WebServerNamespace.class) && arguments.keySet().equals(known)) { // JMX
                return (arguments.get(SELECTOR) instanceof String name)
                        ? invoker.invoke(named(context, beanNames.apply(name))) : invoker.invoke(context);
            }
            if (!(arguments.get(SELECTOR) instanceof String[] segments)) {
                return EndpointProblem.badRequest(new InvalidSettingException(SELECTOR, write
                        ? "is not a setting: the path names the bean to change (.../pools/{name}), so leave it out of "
                                + "the body and the query; nothing was changed"
                        : "is not a parameter of a read: the path names the bean to read (.../pools/{name}), so leave "
                                + "it out of the query"));
            }
            if (segments.length == 0) {
                return EndpointProblem.notFound("The path names no bean: give its name, .../pools/{name}");
            }
            String beanName = beanNames.apply(String.join("/", segments));
            InvalidSettingException refusal = write ? refusal(beanName, arguments, known) : null;
            return (refusal != null) ? EndpointProblem.badRequest(refusal) : invoker.invoke(named(context, beanName));
        };
    }

    /**
     * @return the invocation with {@code beanName} as the path's one segment, so that the operation (and a check made
     *         after this one) gets it whole; everything else as it was
     */
    private static InvocationContext named(InvocationContext context, String beanName) {
        Map<String, Object> arguments = new LinkedHashMap<>(context.getArguments());
        arguments.put(SELECTOR, new String[] { beanName });
        SecurityContext security = context.resolveArgument(SecurityContext.class);
        return new InvocationContext((security != null) ? security : SecurityContext.NONE, arguments,
                new OperationArgumentResolver() {

                    @Override
                    public boolean canResolve(Class<?> type) {
                        return context.canResolve(type);
                    }

                    @Override
                    public <R> @Nullable R resolve(Class<R> type) {
                        return context.resolveArgument(type);
                    }
                });
    }

    /**
     * {@return why the write is refused, or {@code null}}: only a write to a bean this check guards, with fields no
     * parameter takes, or a field given as {@code null} (which the operation could not tell from one left out), may
     * be; any other goes on to the operation (which may answer 404).
     */
    private @Nullable InvalidSettingException refusal(String beanName, Map<String, Object> arguments,
            Set<String> known) {
        List<String> unknown = arguments.keySet().stream().filter(field -> !known.contains(field)).toList();
        List<String> nulls = arguments.keySet().stream()
                .filter(field -> known.contains(field) && arguments.get(field) == null).toList();
        if (unknown.isEmpty() && nulls.isEmpty()) {
            return null;
        }
        T target = targets.apply(beanName);
        if (target == null) {
            return null;
        }
        if (!unknown.isEmpty()) {
            return refusal(target, beanName, unknown);
        }
        return new InvalidSettingException(nulls.get(0), "is null, which is no value: leave the field out to keep "
                + "the setting as it is, or give a value; nothing was changed");
    }

    /**
     * @param target   what this check knows of the bean the write's path names
     * @param beanName that bean's name
     * @param unknown  the write's fields that no parameter of the operation takes, in the body's order; not empty
     * @return why the write is refused
     */
    abstract InvalidSettingException refusal(T target, String beanName, List<String> unknown);
}
