package io.github.poolkit.internal.pool;

import io.github.poolkit.PoolOptions;
import io.github.poolkit.internal.SubmittedTask;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicReference;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An unpooled pool with a queue whose last future a caller saw done is terminated when {@code release()} returns,
 * also while a worker started to fetch queued work has not looked at the queue yet: two places pass on while a task is
 * queued and a caller blocked, so two fetchers start; the caller then gives up (interrupted), the first fetcher takes
 * the task, and the second, held before it runs by the thread factory, has nothing to take. Holding no task, it is
 * retired on its behalf by the close, as a pooled worker started for the queue is; it then takes nothing, and the count
 * of fetchers stays exact, so that after a reboot a queued task still gets a worker.
 */
@Timeout(20)
class UnpooledFetcherReleaseTest {

    /** A fetcher's thread, held at its gate before it runs the worker. */
    private record Held(CountDownLatch gate, Thread thread) {
    }

    /** Virtual threads; while {@link #holding}, one for a worker started without a task waits at a gate first. */
    private static final class HoldingFetchers implements ThreadFactory {
        final BlockingQueue<Held> held = new LinkedBlockingQueue<>();
        volatile boolean holding = true;
        private final ThreadFactory virtual = Thread.ofVirtual().factory();

        @Override
        public Thread newThread(Runnable r) {
            if (!holding || !(r instanceof Worker w) || w.firstTask != null) {
                return virtual.newThread(r);
            }
            CountDownLatch gate = new CountDownLatch(1);
            Thread t = virtual.newThread(() -> {
                awaitQuietly(gate);
                r.run();
            });
            held.add(new Held(gate, t));
            return t;
        }
    }

    @RepeatedTest(10)
    void releaseAfterTheLastFutureRetiresAFetcherThatHasNotLookedYet() throws Exception {
        HoldingFetchers factory = new HoldingFetchers();
        PoolOptions options = PoolOptions.builder().name("uf").virtualThreads(true).queueCapacity(1).build();
        PoolEngine pool = new PoolEngine(2, options, PoolEngine.RUNNABLES,
                WorkerThreads.unpooled(factory, options.name()));
        CountDownLatch firstMayEnd = new CountDownLatch(1);
        CountDownLatch secondMayEnd = new CountDownLatch(1);
        SubmittedTask<String> first = new SubmittedTask<>(() -> awaitThen(firstMayEnd, "first"));
        SubmittedTask<String> second = new SubmittedTask<>(() -> awaitThen(secondMayEnd, "second"));
        SubmittedTask<String> last = new SubmittedTask<>(() -> "last");
        AtomicReference<Throwable> refused = new AtomicReference<>();
        Thread caller = null;
        try {
            pool.execute(first); // both places held
            pool.execute(second);
            pool.execute(last); // the queue is full
            assertThat(pool.stats().queued()).isEqualTo(1);
            caller = Thread.ofVirtual().start(() -> {
                try {
                    pool.execute(new SubmittedTask<>(() -> "never"));
                } catch (Throwable e) {
                    refused.set(e);
                }
            });
            await().atMost(Duration.ofSeconds(10)).until(() -> pool.stats().blocked() == 1);

            // Each place passes to a fetcher: two pieces of work wait (the queued task, the caller's).
            firstMayEnd.countDown();
            assertThat(first.get(10, SECONDS)).isEqualTo("first");
            Held taker = factory.held.poll(10, SECONDS);
            secondMayEnd.countDown();
            assertThat(second.get(10, SECONDS)).isEqualTo("second");
            Held idle = factory.held.poll(10, SECONDS);
            assertThat(taker).isNotNull();
            assertThat(idle).isNotNull();

            caller.interrupt(); // it gives up: one task left for two fetchers
            caller.join(10_000);
            assertThat(refused.get()).isInstanceOf(RejectedExecutionException.class);

            taker.gate().countDown();
            assertThat(last.get(10, SECONDS)).isEqualTo("last"); // the last future, seen done

            pool.release();
            assertThat(pool.isTerminated()).as("terminated when release() returned").isTrue();
            assertThat(pool.running()).isZero();

            idle.gate().countDown(); // retired on its behalf: it takes nothing and leaves
            idle.thread().join(10_000);
            assertThat(idle.thread().isAlive()).isFalse();
            assertThat(pool.running()).isZero();
            assertThat(pool.stats().completed()).isEqualTo(3);

            // The count of fetchers was settled for it: a task queued after a reboot gets a worker.
            factory.holding = false;
            pool.reboot();
            CountDownLatch holdersMayEnd = new CountDownLatch(1);
            SubmittedTask<String> holder1 = new SubmittedTask<>(() -> awaitThen(holdersMayEnd, "h1"));
            SubmittedTask<String> holder2 = new SubmittedTask<>(() -> awaitThen(holdersMayEnd, "h2"));
            SubmittedTask<String> queued = new SubmittedTask<>(() -> "queued");
            pool.execute(holder1);
            pool.execute(holder2);
            pool.execute(queued);
            assertThat(pool.stats().queued()).isEqualTo(1);
            holdersMayEnd.countDown();
            assertThat(queued.get(10, SECONDS)).isEqualTo("queued");
        } finally {
            firstMayEnd.countDown();
            secondMayEnd.countDown();
            factory.held.forEach(h -> h.gate().countDown());
            if (caller != null) {
                caller.interrupt();
            }
            pool.shutdownNow();
        }
        assertThat(pool.awaitTermination(10, SECONDS)).isTrue();
        assertThat(pool.running()).isZero();
    }

    private static String awaitThen(CountDownLatch latch, String result) {
        awaitQuietly(latch);
        return result;
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
