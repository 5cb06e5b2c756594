package io.github.poolkit.autoconfigure.actuate;

import java.util.Collections;
import java.util.List;

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
final class ExecutorWriteGuard extends PoolsWriteCheck<ExecutorAdapter> {

    ExecutorWriteGuard(ApplicationExecutors executors) {
        super(executors::find, executors::beanName);
    }

    @Override
    InvalidSettingException refusal(ExecutorAdapter executor, String beanName, List<String> unknown) {
        return new InvalidSettingException(Collections.min(unknown), "unknown field; a "
                + ExecutorDescriptor.read(executor::type) + " takes only capacity and coreSize");
    }
}
