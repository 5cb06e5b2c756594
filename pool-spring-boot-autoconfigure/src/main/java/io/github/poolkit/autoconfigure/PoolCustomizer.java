package io.github.poolkit.autoconfigure;

import io.github.poolkit.PoolOptions;

/**
 * Adjusts the options of a pool that poolkit's auto-configuration creates, after its {@code poolkit.*} properties have
 * been applied: the primary {@code workerPool}, each {@code poolkit.pools.<name>} pool, and the {@code delayScheduler}'s
 * worker pool. Every {@code PoolCustomizer} bean is called for every such pool, in {@link org.springframework.core.annotation.Order @Order}
 * (or {@link org.springframework.core.Ordered}) order, so a later customizer sees and may override what an earlier one
 * set; the pool keeps its bean, its lifecycle and its meters.
 *
 * <pre>{@code
 * @Bean
 * PoolCustomizer reportsOnVirtualThreads() {
 *     return (beanName, options) -> {
 *         if (beanName.equals("reports")) {
 *             options.virtualThreads(true).maxWait(Duration.ofMillis(200));
 *         }
 *     };
 * }
 * }</pre>
 *
 * <p>The builder already carries the pool's name (its bean name), the application's task decorator if any, the
 * logging panic handler and poolkit's listener; replacing the name or the panic handler is possible but loses what
 * poolkit set there. A listener set here is told as well as poolkit's own (which feeds the meters and the overdue
 * reports), after it: the pool is made with poolkit's, then given yours with {@code addListener}. Options the core
 * library refuses stop start-up with a report naming the option.
 */
@FunctionalInterface
public interface PoolCustomizer {

    /**
     * Customizes the options of one pool before it is created.
     *
     * @param beanName the pool's bean name, such as {@code workerPool}, {@code reports} or {@code delayScheduler}
     * @param options  the options built from the properties so far; change them in place
     */
    void customize(String beanName, PoolOptions.Builder options);
}
