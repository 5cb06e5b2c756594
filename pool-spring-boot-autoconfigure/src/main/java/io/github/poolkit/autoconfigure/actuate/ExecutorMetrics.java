package io.github.poolkit.autoconfigure.actuate;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;

import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationListener;
import org.springframework.context.event.ContextRefreshedEvent;

import io.github.poolkit.autoconfigure.actuate.executors.ApplicationExecutors;
import io.github.poolkit.autoconfigure.actuate.executors.ExecutorAdapter;

/**
 * Micrometer's executor meters ({@code executor.active}, {@code executor.pool.size}, {@code executor.pool.max},
 * {@code executor.queued}, {@code executor.queue.remaining}, {@code executor.completed}, tagged {@code name}, as
 * {@code ExecutorServiceMetrics} names them) for the application's executors that nobody meters yet: the executor
 * beans poolkit did not create, and the web server's request thread pool as {@code webServer}.
 *
 * <p>Rules:
 * <ul>
 *   <li>No meter is registered twice: a meter whose name and {@code name} tag the registry already holds (Spring Boot
 *       meters its {@code ThreadPoolTaskExecutor} and {@code ThreadPoolTaskScheduler} beans itself, before the binders
 *       are bound) is left to its owner.</li>
 *   <li>A figure the executor cannot tell gets no meter; a gauge whose getter throws later reads {@code NaN}.</li>
 *   <li>The web server creates its pool when it starts, after the binders are bound: its meters are bound when the
 *       context has been refreshed, and read the server's current pool at each scrape.</li>
 *   <li>Micrometer holds a gauge's object weakly: this binder keeps the adapters for as long as it lives.</li>
 *   <li>A lazy executor bean that nobody has asked for yet is created when the meters are bound (as Spring Boot's
 *       own executor meters create the lazy {@code TaskExecutor} beans), so that every executor is metered with
 *       {@code spring.main.lazy-initialization} too; one that cannot be created is left out (logged at DEBUG).</li>
 * </ul>
 */
public class ExecutorMetrics implements MeterBinder, ApplicationListener<ContextRefreshedEvent> {

    private final ApplicationExecutors executors;
    private final List<MeterRegistry> registries = new CopyOnWriteArrayList<>();
    private final List<ExecutorAdapter> adapters = new CopyOnWriteArrayList<>();

    /**
     * Creates the meter binder.
     *
     * @param executors where to find the application's executors
     */
    public ExecutorMetrics(ApplicationExecutors executors) {
        this.executors = executors;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        registries.add(registry);
        executors.beansIncludingLazy().forEach((name, executor) -> bind(registry, name, executor));
        bindWebServer(registry);
    }

    /**
     * Binds the web server's meters once the context, and so the server, has started.
     *
     * @param event the refresh of the context (or of a child, whose refresh changes nothing here)
     */
    @Override
    public void onApplicationEvent(ContextRefreshedEvent event) {
        registries.forEach(this::bindWebServer);
    }

    private void bindWebServer(MeterRegistry registry) {
        ExecutorAdapter webServer = executors.webServer();
        if (webServer != null && !executors.webServerNameTaken() && !executors.webServerPoolIsABean()) {
            bind(registry, ApplicationExecutors.WEB_SERVER, webServer);
        }
    }

    private void bind(MeterRegistry registry, String name, ExecutorAdapter executor) {
        int before = registry.getMeters().size();
        gauge(registry, "executor.active", "The approximate number of threads that are actively executing tasks",
                BaseUnits.THREADS, name, executor, ExecutorAdapter::busy);
        gauge(registry, "executor.pool.size", "The current number of threads in the pool", BaseUnits.THREADS, name,
                executor, ExecutorAdapter::running);
        gauge(registry, "executor.pool.max", "The maximum allowed number of threads in the pool; Integer.MAX_VALUE "
                + "when unlimited", BaseUnits.THREADS, name, executor, ExecutorMetrics::max);
        gauge(registry, "executor.pool.core", "The core number of threads for the pool", BaseUnits.THREADS, name,
                executor, ExecutorAdapter::coreSize);
        gauge(registry, "executor.queued", "The approximate number of tasks that are queued for execution",
                BaseUnits.TASKS, name, executor, ExecutorAdapter::queued);
        gauge(registry, "executor.queue.remaining", "The number of additional elements that this queue can ideally "
                + "accept without blocking", BaseUnits.TASKS, name, executor, ExecutorAdapter::queueRemaining);
        if (tells(executor, ExecutorAdapter::completed) && !registered(registry, "executor.completed", name)) {
            FunctionCounter.builder("executor.completed", executor, e -> value(e, ExecutorAdapter::completed))
                    .description("The approximate total number of tasks that have completed execution")
                    .baseUnit(BaseUnits.TASKS).tag("name", name).register(registry);
        }
        if (registry.getMeters().size() != before) {
            adapters.add(executor); // a gauge holds its object weakly: keep it while its meters live
        }
    }

    private static @Nullable Integer max(ExecutorAdapter executor) {
        Integer capacity = executor.capacity();
        return (capacity != null && capacity < 0) ? Integer.valueOf(Integer.MAX_VALUE) : capacity;
    }

    private static void gauge(MeterRegistry registry, String meter, String description, String baseUnit,
            String name, ExecutorAdapter executor, Function<ExecutorAdapter, @Nullable Number> figure) {
        if (tells(executor, figure) && !registered(registry, meter, name)) {
            Gauge.builder(meter, executor, e -> value(e, figure)).description(description).baseUnit(baseUnit)
                    .tag("name", name).register(registry);
        }
    }

    /** @return whether the executor tells this figure now; the web server's pool always may, once it starts */
    private static boolean tells(ExecutorAdapter executor, Function<ExecutorAdapter, @Nullable Number> figure) {
        return ExecutorDescriptor.read(() -> figure.apply(executor)) != null;
    }

    private static boolean registered(MeterRegistry registry, String meter, String name) {
        return registry.find(meter).tag("name", name).meter() != null;
    }

    private static double value(ExecutorAdapter executor, Function<ExecutorAdapter, @Nullable Number> figure) {
        Number value = ExecutorDescriptor.read(() -> figure.apply(executor));
        return (value != null) ? value.doubleValue() : Double.NaN;
    }
}
