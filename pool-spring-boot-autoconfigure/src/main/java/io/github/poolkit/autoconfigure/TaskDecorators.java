package io.github.poolkit.autoconfigure;

import java.util.List;
import java.util.function.UnaryOperator;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.env.Environment;
import org.springframework.core.task.TaskDecorator;
import org.springframework.core.task.support.CompositeTaskDecorator;
import org.springframework.core.task.support.ContextPropagatingTaskDecorator;
import org.springframework.util.ClassUtils;

/**
 * Picks the task decorator of every pool and scheduler poolkit creates, the way Spring Boot picks the one of its own
 * {@code applicationTaskExecutor}: the application's one {@link TaskDecorator} bean; with several, all of them in
 * {@code @Order} order, each decorating what the one before returned (a {@link CompositeTaskDecorator}); with none, Spring's
 * {@link ContextPropagatingTaskDecorator} when {@code spring.task.execution.propagate-context} is {@code true} and
 * Micrometer's context-propagation library is present (Spring Boot itself registers that decorator as a bean then,
 * which the first rule finds), else no decorator. A decorated task is a {@link DecoratedTask}, which still shows and
 * gives back the task that was submitted.
 */
final class TaskDecorators {

    /** The Spring Boot property that asks for context propagation without a decorator bean. */
    static final String PROPAGATE_CONTEXT = "spring.task.execution.propagate-context";

    private static final String CONTEXT_SNAPSHOT = "io.micrometer.context.ContextSnapshot";

    private TaskDecorators() {
    }

    /**
     * @param decorators  the application's {@link TaskDecorator} beans
     * @param environment for {@value #PROPAGATE_CONTEXT}
     * @return the decorator to give {@code PoolOptions.taskDecorator}, or {@code null} for none
     */
    static UnaryOperator<Runnable> pick(ObjectProvider<TaskDecorator> decorators, Environment environment) {
        List<TaskDecorator> beans = decorators.orderedStream().toList();
        TaskDecorator decorator;
        if (beans.size() == 1) {
            decorator = beans.get(0);
        }
        else if (!beans.isEmpty()) {
            decorator = new CompositeTaskDecorator(beans);
        }
        else if (environment.getProperty(PROPAGATE_CONTEXT, Boolean.class, false)
                && ClassUtils.isPresent(CONTEXT_SNAPSHOT, TaskDecorators.class.getClassLoader())) {
            decorator = new ContextPropagatingTaskDecorator();
        }
        else {
            return null;
        }
        return task -> new DecoratedTask(task, decorator.decorate(task));
    }
}
