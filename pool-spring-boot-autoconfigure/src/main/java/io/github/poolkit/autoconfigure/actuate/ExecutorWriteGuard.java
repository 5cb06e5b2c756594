package io.github.poolkit.autoconfigure.actuate;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.jspecify.annotations.Nullable;

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
final class ExecutorWriteGuard extends PoolsWriteCheck {

    private final ApplicationExecutors executors;

    ExecutorWriteGuard(ApplicationExecutors executors) {
        this.executors = executors;
    }

    @Override
    @Nullable InvalidSettingException refusal(Map<String, Object> arguments, Set<String> known) {
        Object name = arguments.get(SELECTOR);
        ExecutorAdapter executor = (name instanceof String selector) ? executors.find(selector) : null;
        if (executor == null) {
            return null;
        }
        Set<String> unknown = new TreeSet<>(arguments.keySet());
        unknown.removeAll(known);
        if (unknown.isEmpty()) {
            return null;
        }
        String field = unknown.iterator().next();
        return new InvalidSettingException(field, "unknown field; a " + ExecutorDescriptor.read(executor::type)
                + " takes only capacity and coreSize");
    }
}
