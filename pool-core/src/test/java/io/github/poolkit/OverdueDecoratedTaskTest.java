package io.github.poolkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An overdue report names the task the application submitted, also when the pool has a task decorator: the pool
 * decorates the task itself, so it sees through the decorator's wrapper (which is typically a lambda); and
 * {@code shutdownNow} gives back the submitted tasks, not their decoration.
 */
@Timeout(30)
class OverdueDecoratedTaskTest {

    private static final Duration TIMEOUT = Duration.ofMillis(100);

    /** A decorator whose wrapper has no useful {@code toString()}, as a context-propagating one would. */
    private static final UnaryOperator<Runnable> LAMBDA_DECORATOR = task -> () -> task.run();

    /** A task named for the reports that blocks until released. */
    record Named(String name, CountDownLatch release) implements Runnable {
        Named(String name) {
            this(name, new CountDownLatch(1));
        }

        @Override
        public void run() {
            Latches.awaitUninterruptibly(release);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    private final List<OverdueTask> reports = new CopyOnWriteArrayList<>();

    private PoolOptions.Builder options() {
        return PoolOptions.builder().taskDecorator(LAMBDA_DECORATOR).listener(new PoolListener() {
            @Override
            public void taskOverdue(OverdueTask task) {
                reports.add(task);
            }
        });
    }

    private OverdueTask awaitReport() {
        await().atMost(Duration.ofSeconds(10)).until(() -> !reports.isEmpty());
        return reports.get(0);
    }

    @Test
    void aDecoratedTaskGivenToExecuteIsNamedByItself() {
        Named task = new Named("executed-task");
        WorkerPool pool = WorkerPool.create(1, options().runTimeout(TIMEOUT).build());
        try {
            pool.execute(task);
            assertThat(awaitReport().task()).isEqualTo("executed-task");
        } finally {
            task.release().countDown();
            pool.release();
        }
    }

    @Test
    void aDecoratedQueuedTaskIsNamedByItself() {
        Named first = new Named("first");
        Named queued = new Named("queued-task");
        WorkerPool pool = WorkerPool.create(1, options().queueTimeout(TIMEOUT).queueCapacity(1).build());
        try {
            pool.execute(first);
            pool.execute(queued);
            OverdueTask report = awaitReport();
            assertThat(report.kind()).isEqualTo(OverdueTask.Kind.QUEUE);
            assertThat(report.task()).isEqualTo("queued-task");
        } finally {
            first.release().countDown();
            queued.release().countDown();
            pool.release();
        }
    }

    /** The pool keeps a decorated task with the task itself, and gives that back when shut down now. */
    @Test
    void shutdownNowGivesBackTheSubmittedTasksNotTheirDecoration() {
        Named first = new Named("first");
        Runnable queued = new Named("queued");
        WorkerPool pool = WorkerPool.create(1, options().queueCapacity(1).build());
        try {
            pool.execute(first);
            pool.execute(queued);
            assertThat(pool.shutdownNow()).containsExactly(queued);
        } finally {
            first.release().countDown();
        }
    }

    @Test
    void aDecoratedMultiPoolTaskIsNamedByItself() {
        Named task = new Named("multi-task");
        MultiPool pool = MultiPool.create(2, 1, MultiPool.LoadBalancing.ROUND_ROBIN,
                options().runTimeout(TIMEOUT).build());
        try {
            pool.execute(task);
            assertThat(awaitReport().task()).isEqualTo("multi-task");
        } finally {
            task.release().countDown();
            pool.release();
        }
    }

    @Test
    void aDecoratedInvocationIsNamedByItsArgument() {
        CountDownLatch release = new CountDownLatch(1);
        FuncPool<String> pool = FuncPool.create(1, argument -> Latches.awaitUninterruptibly(release),
                options().runTimeout(TIMEOUT).build());
        try {
            pool.invoke("the-argument");
            assertThat(awaitReport().task()).isEqualTo("the-argument");
        } finally {
            release.countDown();
            pool.release();
        }
    }

    @Test
    void decoratedSchedulerJobsAreNamedByThemselves() {
        Named executed = new Named("executed-job");
        Named scheduled = new Named("scheduled-job");
        DelayScheduler scheduler = DelayScheduler.create(2, options().runTimeout(TIMEOUT).build());
        try {
            scheduler.execute(executed);
            scheduler.schedule(scheduled, 1, TimeUnit.MILLISECONDS);
            await().atMost(Duration.ofSeconds(10)).until(() -> reports.size() == 2);
            assertThat(reports).extracting(OverdueTask::task)
                    .containsExactlyInAnyOrder("executed-job", "scheduled-job");
        } finally {
            executed.release().countDown();
            scheduled.release().countDown();
            scheduler.shutdown();
        }
    }
}
