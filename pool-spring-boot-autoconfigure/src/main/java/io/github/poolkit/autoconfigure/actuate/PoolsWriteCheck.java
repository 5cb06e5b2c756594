package io.github.poolkit.autoconfigure.actuate;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.OperationType;
import org.springframework.boot.actuate.endpoint.invoke.OperationInvoker;
import org.springframework.boot.actuate.endpoint.invoke.OperationInvokerAdvisor;
import org.springframework.boot.actuate.endpoint.invoke.OperationParameter;
import org.springframework.boot.actuate.endpoint.invoke.OperationParameters;

/**
 * A check of each write to the {@code pools} endpoint, made on the write's whole body before the operation is invoked:
 * Spring Boot's endpoint infrastructure binds the body's fields to the operation's parameters by name and drops the
 * others without a word, so only an advisor sees them. Each subclass says only when it refuses a write.
 *
 * <p>Invariant: a refused write answers 400 with a problem body naming the field, and the operation is not invoked,
 * so nothing changes; reads, and the other endpoints, are left as they are.
 */
abstract class PoolsWriteCheck implements OperationInvokerAdvisor {

    private static final EndpointId POOLS = EndpointId.of("pools");

    /**
     * The name of the write operation's selector, the bean the path names. Not {@code name}: Actuator lays the body's
     * fields over the path's variables, so a body field named like the selector would replace it.
     */
    private static final String SELECTOR = "beanName";

    @Override
    public final OperationInvoker apply(EndpointId endpointId, OperationType operationType,
            OperationParameters parameters, OperationInvoker invoker) {
        if (!POOLS.equals(endpointId) || operationType != OperationType.WRITE) {
            return invoker;
        }
        Set<String> known = new LinkedHashSet<>();
        parameters.stream().map(OperationParameter::getName).forEach(known::add);
        return context -> {
            InvalidSettingException refusal = refusal(context.getArguments(), known);
            return (refusal != null) ? EndpointProblem.badRequest(refusal) : invoker.invoke(context);
        };
    }

    /** {@return why the write is refused, or {@code null}}: only a write with fields no parameter takes may be. */
    private @Nullable InvalidSettingException refusal(Map<String, Object> arguments, Set<String> known) {
        List<String> unknown = arguments.keySet().stream().filter(field -> !known.contains(field)).toList();
        if (unknown.isEmpty() || !(arguments.get(SELECTOR) instanceof String beanName)) {
            return null;
        }
        return refusal(beanName, unknown);
    }

    /**
     * @param beanName the bean the write's path names
     * @param unknown  the write's fields that no parameter of the operation takes, in the body's order; not empty
     * @return why the write is refused, or {@code null} to let it through (to the operation, which may answer 404)
     */
    abstract @Nullable InvalidSettingException refusal(String beanName, List<String> unknown);
}
