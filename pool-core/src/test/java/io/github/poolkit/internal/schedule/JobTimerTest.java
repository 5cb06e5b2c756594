package io.github.poolkit.internal.schedule;

import io.github.poolkit.internal.LogCapture;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CancellationException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The timer's failure path, which the public API cannot provoke: an executor that throws unexpectedly. */
@Timeout(10)
class JobTimerTest {

    @Test
    void aTimerWhoseThreadDiesStopsAndCancelsEverythingLeft() throws Exception {
        ThreadPoolExecutor broken = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>()) {
            @Override
            public void execute(Runnable command) {
                throw new IllegalStateException("executor bug (expected by this test)");
            }
        };
        JobTimer timer = JobTimer.start("broken", broken, null);
        ScheduledJob<Void> later = timer.schedule(() -> { }, TimeUnit.HOURS.toNanos(1), 0L);
        try (LogCapture log = LogCapture.start()) {
            ScheduledJob<Void> due = timer.schedule(() -> { }, TimeUnit.MILLISECONDS.toNanos(1), 0L);
            assertThatThrownBy(due::get).as("the job being handed over").isInstanceOf(CancellationException.class);
            assertThat(timer.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
            assertThat(log.records()).singleElement().satisfies(r -> {
                assertThat(r.getMessage()).contains("timer thread of scheduler 'broken' failed");
                assertThat(r.getThrown()).hasMessageContaining("executor bug");
            });
        }
        assertThat(later.isCancelled()).as("the pending job").isTrue();
        assertThat(timer.pending()).isZero();
        assertThat(timer.isShutdown()).isTrue();
        assertThat(broken.isShutdown()).as("the timer shuts its executor down").isTrue();
        assertThatThrownBy(() -> timer.schedule(() -> { }, 1_000L, 0L)).isInstanceOf(RejectedExecutionException.class);
    }
}
