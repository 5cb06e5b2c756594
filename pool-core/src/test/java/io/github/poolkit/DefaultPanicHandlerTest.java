package io.github.poolkit;

import io.github.poolkit.internal.LogCapture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.logging.Level;
import java.util.logging.LogRecord;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Without a panic handler, a task's exception is logged through System.Logger (java.util.logging by default). */
@Timeout(10)
class DefaultPanicHandlerTest {

    @Test
    void logsTheFailureWithItsStackTraceNamingThePool() throws Exception {
        try (LogCapture log = LogCapture.start();
             WorkerPool pool = WorkerPool.create(1, PoolOptions.builder().name("billing").build())) {
            IllegalStateException boom = new IllegalStateException("boom");
            pool.execute(() -> {
                throw boom;
            });
            await().until(() -> !log.records().isEmpty());
            LogRecord r = log.records().get(0);
            assertThat(r.getLevel()).isEqualTo(Level.SEVERE);
            assertThat(r.getMessage()).contains("billing");
            assertThat(r.getThrown()).isSameAs(boom);
            assertThat(pool.submit(() -> "still works").get()).isEqualTo("still works");
        }
    }
}
