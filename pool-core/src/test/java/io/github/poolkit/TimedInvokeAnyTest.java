package io.github.poolkit;

import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.AbstractCollection;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A timed {@code invokeAny} whose next task cannot be handed over before the deadline (the pool full, another caller
 * first in line) still returns the result of a task that completed meanwhile, as the {@code ExecutorService} contract
 * says ("the result of one that has completed successfully ... before the given timeout elapses"), rather than
 * throwing {@code TimeoutException}.
 */
@Timeout(20)
class TimedInvokeAnyTest {

    @RepeatedTest(5)
    void aTaskThatSucceededWhileTheNextOneWaitedToBeHandedOverIsTheAnswer() throws Exception {
        assertThat(firstSucceedsWhileTheSecondCannotBeHandedOver(PoolOptions.builder(),
                (pool, tasks) -> pool.invokeAny(tasks, 1, TimeUnit.SECONDS))).isEqualTo("first");
    }

    /**
     * The same when it is the pool's own wait ({@code maxWait}) that runs out, or a pool that does not wait at all
     * ({@code nonblocking}), long before the deadline, timed or not: the overload stops the handing over, and the task
     * already handed over is the answer (this threw {@code PoolOverloadException}, the result at hand thrown away).
     */
    @RepeatedTest(3)
    void aTaskThatSucceededIsTheAnswerAlsoWhenThePoolsOwnWaitRunsOut() throws Exception {
        PoolOptions.Builder maxWait = PoolOptions.builder().maxWait(Duration.ofMillis(300));
        assertThat(firstSucceedsWhileTheSecondCannotBeHandedOver(maxWait,
                (pool, tasks) -> pool.invokeAny(tasks, 10, TimeUnit.SECONDS))).isEqualTo("first");
        assertThat(firstSucceedsWhileTheSecondCannotBeHandedOver(maxWait, WorkerPool::invokeAny))
                .isEqualTo("first");
        assertThat(firstSucceedsWhileTheSecondCannotBeHandedOver(PoolOptions.builder().nonblocking(true),
                WorkerPool::invokeAny)).isEqualTo("first");
    }

    /** An {@code invokeAny} of a pool. */
    private interface Invocation {
        String invoke(WorkerPool pool, Collection2 tasks) throws Exception;
    }

    /**
     * Runs {@code invocation} on a pool of two workers, one held: its first task succeeds on the other worker only once
     * another caller waits for a worker, which then takes it, so that the second task cannot be handed over.
     */
    private static String firstSucceedsWhileTheSecondCannotBeHandedOver(PoolOptions.Builder options,
            Invocation invocation) throws Exception {
        try (WorkerPool pool = WorkerPool.create(2, options.name("invoke-any").build())) {
            Blocker blocker = Blocker.occupy(pool, 1);
            CountDownLatch releaseFirst = new CountDownLatch(1);
            CountDownLatch releaseOther = new CountDownLatch(1);
            Callable<String> first = () -> {
                releaseFirst.await();
                return "first";
            };
            Callable<String> second = () -> "second";
            // the second task is fetched only once the first has succeeded and another caller took its worker, so
            // that the second one waits to be handed over (behind that caller) until the deadline
            Collection2 tasks = new Collection2(first, second, () -> {
                boolean nonblocking = pool.options().nonblocking();
                Thread other = new Thread(() -> {
                    for (;;) { // a nonblocking pool refuses it while full: it tries again until a worker is free
                        try {
                            pool.execute(() -> Latches.await(releaseOther));
                            return;
                        } catch (PoolOverloadException full) {
                            Thread.onSpinWait();
                        }
                    }
                }, "other-caller");
                other.start();
                if (!nonblocking) {
                    await().pollInterval(Duration.ofMillis(1)).until(() -> pool.waiting() == 1); // blocked in line
                }
                releaseFirst.countDown(); // the first succeeds; its worker goes to the other caller
                await().pollInterval(Duration.ofMillis(1)).until(() -> pool.waiting() == 0
                        && pool.stats().completed() >= 1 && pool.stats().busy() == 2);
            });
            try {
                return invocation.invoke(pool, tasks);
            } finally {
                releaseOther.countDown();
                blocker.open();
            }
        }
    }

    /** Two tasks, with something done just before the second one is handed out. */
    private static final class Collection2 extends AbstractCollection<Callable<String>> {

        private final List<Callable<String>> tasks;
        private final Runnable beforeSecond;

        Collection2(Callable<String> first, Callable<String> second, Runnable beforeSecond) {
            this.tasks = List.of(first, second);
            this.beforeSecond = beforeSecond;
        }

        @Override
        public Iterator<Callable<String>> iterator() {
            Iterator<Callable<String>> inner = tasks.iterator();
            return new Iterator<>() {
                private int handedOut;

                @Override
                public boolean hasNext() {
                    return inner.hasNext();
                }

                @Override
                public Callable<String> next() {
                    if (++handedOut == 2) {
                        beforeSecond.run();
                    }
                    return inner.next();
                }
            };
        }

        @Override
        public int size() {
            return tasks.size();
        }
    }
}
