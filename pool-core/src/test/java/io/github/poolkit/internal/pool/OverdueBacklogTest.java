package io.github.poolkit.internal.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.LogRecord;

import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;

import io.github.poolkit.OverdueTask;
import io.github.poolkit.PoolListener;
import io.github.poolkit.PoolOptions;
import io.github.poolkit.WorkerPool;
import io.github.poolkit.internal.LogCapture;

/**
 * A listener that hangs does not make overdue reports pile up without bound: at most
 * {@link OverdueWatch#MAX_WAITING_REPORTS} wait for it, the rest are counted but dropped, with a warning when it falls
 * behind and one saying how many were dropped once it keeps up again. Passed 20 runs in a row when written.
 */
@Timeout(60)
class OverdueBacklogTest {

    private static final int DROPPED = 100;

    @RepeatedTest(2)
    void aHungListenerHoldsAtMostTheBacklogAndHearsOfLaterTasksOnceItCatchesUp() throws Exception {
        CountDownLatch hang = new CountDownLatch(1);
        AtomicInteger told = new AtomicInteger();
        PoolListener listener = new PoolListener() {
            @Override
            public void taskOverdue(OverdueTask task) {
                told.incrementAndGet();
                awaitLatch(hang);
            }
        };
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        int queued = OverdueWatch.MAX_WAITING_REPORTS + DROPPED;
        try (LogCapture log = LogCapture.start();
             WorkerPool pool = WorkerPool.create(1, PoolOptions.builder().name("backlog").queueCapacity(-1)
                     .queueTimeout(Duration.ofMillis(200)).listener(listener).build())) {
            try {
                pool.execute(() -> {
                    started.countDown();
                    awaitLatch(release);
                });
                awaitLatch(started);
                for (int i = 0; i < queued; i++) {
                    pool.execute(() -> { });
                }
                // every queued task is found overdue while the listener hangs in its first report
                await().atMost(Duration.ofSeconds(20)).until(() -> pool.stats().overdue() == queued);
                await().atMost(Duration.ofSeconds(20)).until(() -> messages(log).contains("fallen 4096 overdue"));
                assertThat(told.get()).isEqualTo(1);

                hang.countDown();
                await().atMost(Duration.ofSeconds(20)).until(() -> told.get() == OverdueWatch.MAX_WAITING_REPORTS);
                pool.execute(() -> { }); // found once the listener has room again: reported, after the kept ones
                await().atMost(Duration.ofSeconds(20))
                        .until(() -> told.get() == OverdueWatch.MAX_WAITING_REPORTS + 1);
                assertThat(pool.stats().overdue()).isEqualTo(queued + 1);
                // said once the listener has told every report handed on, at a check: one warning each way
                await().atMost(Duration.ofSeconds(20)).until(() -> messages(log)
                        .contains("caught up; " + DROPPED + " overdue reports were dropped"));
                assertThat(log.records().stream().filter(r -> r.getMessage().contains("pool 'backlog'")))
                        .as("one warning as it fell behind, one as it caught up").hasSize(2);
            } finally {
                hang.countDown();
                release.countDown();
            }
        }
    }

    private static String messages(LogCapture log) {
        return String.join("\n", log.records().stream().map(LogRecord::getMessage).toList());
    }

    private static void awaitLatch(CountDownLatch latch) {
        try {
            if (!latch.await(30, TimeUnit.SECONDS)) {
                throw new AssertionError("latch not reached");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
