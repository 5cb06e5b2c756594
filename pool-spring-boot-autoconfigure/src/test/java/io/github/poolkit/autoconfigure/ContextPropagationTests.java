package io.github.poolkit.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import io.micrometer.context.ContextRegistry;
import io.micrometer.context.ThreadLocalAccessor;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.MDC;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.core.task.TaskDecorator;

import io.github.poolkit.DelayScheduler;
import io.github.poolkit.WorkerPool;

/**
 * Every task of every pool and of the scheduler that poolkit creates carries the submitting thread's context: with
 * {@code spring.task.execution.propagate-context=true}, through Spring's {@code ContextPropagatingTaskDecorator} and
 * Micrometer's {@link ContextRegistry} (a real {@link ThreadLocalAccessor} for a trace id and one for an SLF4J
 * {@link MDC} value); otherwise through the application's {@link TaskDecorator} bean(s). Each path a task can take is
 * covered: a new worker, an idle worker, the queue, a blocked caller served when a worker finishes, the scheduler's
 * timer. The value is removed from the submitting thread right after the submit, so only a decoration made at submit
 * time can bring it to the task.
 */
@Timeout(30)
class ContextPropagationTests {

    private static final ThreadLocal<String> TRACE = new ThreadLocal<>();
    private static final String TRACE_KEY = "test.trace";
    private static final String MDC_KEY = "requestId";

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(PoolkitAutoConfiguration.class))
            .withPropertyValues("poolkit.semaphore.enabled=false");

    private final ApplicationContextRunner propagating = runner
            .withPropertyValues("spring.task.execution.propagate-context=true");

    @BeforeAll
    static void registerAccessors() {
        ContextRegistry.getInstance().registerThreadLocalAccessor(TRACE_KEY, TRACE);
        ContextRegistry.getInstance().registerThreadLocalAccessor(new MdcAccessor());
    }

    @AfterAll
    static void removeAccessors() {
        ContextRegistry.getInstance().removeThreadLocalAccessor(TRACE_KEY);
        ContextRegistry.getInstance().removeThreadLocalAccessor(MDC_KEY);
    }

    @Test
    void newWorkerThenIdleWorkerSeeTheSubmittersContext() {
        propagating.withPropertyValues("poolkit.pool.capacity=1", "poolkit.pool.disable-purge=true").run(context -> {
            WorkerPool pool = context.getBean(WorkerPool.class);
            Seen first = submitWithContext("new-worker", () -> observe(pool));
            assertThat(first.get()).isEqualTo("new-worker/new-worker");
            // capacity 1 and no purge: the second task runs on the same, now idle, worker
            Seen second = submitWithContext("idle-worker", () -> observe(pool));
            assertThat(second.get()).isEqualTo("idle-worker/idle-worker");
            assertThat(second.thread()).isSameAs(first.thread());
        });
    }

    @Test
    void queuedTaskAndBlockedCallerSeeTheirSubmittersContext() {
        propagating.withPropertyValues("poolkit.pool.capacity=1", "poolkit.pools.queued.capacity=1",
                "poolkit.pools.queued.queue-capacity=4").run(context -> {
                    for (String name : List.of("queued", "workerPool")) {
                        WorkerPool pool = context.getBean(name, WorkerPool.class);
                        CountDownLatch release = occupyTheOnlyWorker(pool);
                        // "queued" has room in its queue; "workerPool" has none, so its caller blocks in execute
                        CompletableFuture<Seen> seen = CompletableFuture
                                .supplyAsync(() -> submitWithContext(name, () -> observe(pool)));
                        await().atMost(10, TimeUnit.SECONDS).until(() -> pool.waiting() == 1);
                        release.countDown();
                        assertThat(seen.get(10, TimeUnit.SECONDS).get()).isEqualTo(name + "/" + name);
                    }
                });
    }

    @Test
    void schedulerJobSeesTheContextOfTheThreadThatScheduledIt() {
        propagating.run(context -> {
            DelayScheduler scheduler = context.getBean(DelayScheduler.class);
            Seen seen = submitWithContext("timer", () -> {
                Seen observed = new Seen();
                scheduler.scheduleOnce(observed::record, Duration.ofMillis(50));
                return observed;
            });
            assertThat(seen.get()).isEqualTo("timer/timer");
        });
    }

    @Test
    void noDecorationWithoutPropagateContextOrADecoratorBean() {
        runner.run(context -> {
            Seen seen = submitWithContext("lost", () -> observe(context.getBean(WorkerPool.class)));
            assertThat(seen.get()).isEqualTo("null/null");
        });
    }

    @Test
    void theApplicationsOneTaskDecoratorIsApplied() {
        runner.withUserConfiguration(MdcCopyingDecorator.class).run(context -> {
            Seen seen = submitWithContext("copied", () -> observe(context.getBean(WorkerPool.class)));
            assertThat(seen.get()).as("only the MDC is copied by this decorator").isEqualTo("null/copied");
        });
    }

    @Test
    void severalTaskDecoratorsAreAllAppliedInOrderAsSpringBootDoes() {
        runner.withUserConfiguration(TwoDecorators.class).withPropertyValues("poolkit.pools.reports.capacity=2")
                .run(context -> {
                    TwoDecorators decorators = context.getBean(TwoDecorators.class);
                    for (String name : List.of("workerPool", "reports")) {
                        decorators.calls.clear();
                        CountDownLatch ran = new CountDownLatch(1);
                        context.getBean(name, WorkerPool.class).execute(ran::countDown);
                        assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
                        // each decorator wraps what the one before returned: the last is outermost
                        assertThat(decorators.calls).containsExactly("second", "first");
                    }
                });
    }

    /** Sets the trace and MDC values, runs {@code submit}, clears them again on this thread. */
    private static Seen submitWithContext(String value, Supplier<Seen> submit) {
        TRACE.set(value);
        MDC.put(MDC_KEY, value);
        try {
            return submit.get();
        }
        finally {
            TRACE.remove();
            MDC.remove(MDC_KEY);
        }
    }

    private static Seen observe(WorkerPool pool) {
        Seen seen = new Seen();
        pool.execute(seen::record);
        return seen;
    }

    private static CountDownLatch occupyTheOnlyWorker(WorkerPool pool) throws InterruptedException {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        pool.execute(() -> {
            started.countDown();
            try {
                release.await(20, TimeUnit.SECONDS);
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        });
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        return release;
    }

    /** What a task saw: "trace/mdc", and on which thread. */
    static final class Seen {

        private final CompletableFuture<String> values = new CompletableFuture<>();
        private volatile Thread thread;

        void record() {
            thread = Thread.currentThread();
            values.complete(TRACE.get() + "/" + MDC.get(MDC_KEY));
        }

        String get() throws Exception {
            return values.get(10, TimeUnit.SECONDS);
        }

        Thread thread() {
            return thread;
        }
    }

    /** Micrometer's context-propagation view of one SLF4J MDC entry. */
    static final class MdcAccessor implements ThreadLocalAccessor<String> {

        @Override
        public Object key() {
            return MDC_KEY;
        }

        @Override
        public String getValue() {
            return MDC.get(MDC_KEY);
        }

        @Override
        public void setValue(String value) {
            MDC.put(MDC_KEY, value);
        }

        @Override
        public void setValue() {
            MDC.remove(MDC_KEY);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class MdcCopyingDecorator {

        @Bean
        TaskDecorator mdcCopyingDecorator() {
            return task -> {
                String value = MDC.get(MDC_KEY);
                return () -> {
                    MDC.put(MDC_KEY, value);
                    try {
                        task.run();
                    }
                    finally {
                        MDC.remove(MDC_KEY);
                    }
                };
            };
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class TwoDecorators {

        final List<String> calls = new CopyOnWriteArrayList<>();

        @Bean
        @Order(2)
        TaskDecorator second() {
            return task -> () -> {
                calls.add("second");
                task.run();
            };
        }

        @Bean
        @Order(1)
        TaskDecorator first() {
            return task -> () -> {
                calls.add("first");
                task.run();
            };
        }
    }
}
