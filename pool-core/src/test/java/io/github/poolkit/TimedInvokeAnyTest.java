package io.github.poolkit;

import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;

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
        try (WorkerPool pool = WorkerPool.create(2, PoolOptions.builder().name("invoke-any").build())) {
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
                Thread other = new Thread(() -> pool.execute(() -> Latches.await(releaseOther)), "other-caller");
                other.start();
                await().until(() -> pool.waiting() == 1); // blocked: both workers busy
                releaseFirst.countDown(); // the first succeeds; its worker goes to the other caller
                await().until(() -> pool.waiting() == 0);
            });
            try {
                assertThat(pool.invokeAny(tasks, 1, TimeUnit.SECONDS)).isEqualTo("first");
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
