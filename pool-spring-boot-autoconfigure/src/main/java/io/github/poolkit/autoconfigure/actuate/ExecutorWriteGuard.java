package io.github.poolkit.autoconfigure.actuate;

import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.OperationType;
import org.springframework.boot.actuate.endpoint.invoke.OperationInvoker;
import org.springframework.boot.actuate.endpoint.invoke.OperationInvokerAdvisor;
import org.springframework.boot.actuate.endpoint.invoke.OperationParameter;
import org.springframework.boot.actuate.endpoint.invoke.OperationParameters;

import io.github.poolkit.autoconfigure.actuate.executors.ApplicationExecutors;
import io.github.poolkit.autoconfigure.actuate.executors.ExecutorAdapter;

/**
 * Refuses a write to one of the application's other executors that carries a field the endpoint does not know (a
 * misspelt {@code capasity}, say), with {@code 400} naming the field and the executor's type, before anything
 * changes. Actuator itself drops such a field silently, so without this guard the rest of the write would apply.
 *
 * <p>It guards only writes whose selector names such an executor; the writes to poolkit's own pools and semaphores
 * are left as they are.
 */
final class ExecutorWriteGuard implements OperationInvokerAdvisor {

    private static final EndpointId POOLS = EndpointId.of("pools");

    private final ApplicationExecutors executors;

    ExecutorWriteGuard(ApplicationExecutors executors) {
        this.executors = executors;
    }

    @Override
    public OperationInvoker apply(EndpointId endpointId, OperationType operationType, OperationParameters parameters,
            OperationInvoker invoker) {
        if (!POOLS.equals(endpointId) || operationType != OperationType.WRITE) {
            return invoker;
        }
        Set<String> known = parameters.stream().map(OperationParameter::getName).collect(Collectors.toSet());
        return context -> {
            Object name = context.getArguments().get("name");
            ExecutorAdapter executor = (name instanceof String selector) ? executors.find(selector) : null;
            if (executor != null) {
                Set<String> unknown = new TreeSet<>(context.getArguments().keySet());
                unknown.removeAll(known);
                if (!unknown.isEmpty()) {
                    String field = unknown.iterator().next();
                    return EndpointProblem.badRequest(new InvalidSettingException(field, "unknown field; a "
                            + ExecutorDescriptor.read(executor::type) + " takes only capacity and coreSize"));
                }
            }
            return invoker.invoke(context);
        };
    }
}
