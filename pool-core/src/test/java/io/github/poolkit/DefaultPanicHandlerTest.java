package io.github.poolkit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Without a panic handler, a task's exception is logged through System.Logger (java.util.logging by default). */
@Timeout(10)
class DefaultPanicHandlerTest {

    @Test
    void logsTheFailureWithItsStackTraceNamingThePool() throws Exception {
        List<LogRecord> records = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                records.add(record);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger logger = Logger.getLogger("io.github.poolkit");
        logger.addHandler(capture);
        boolean parents = logger.getUseParentHandlers();
        logger.setUseParentHandlers(false); // keep the expected stack trace out of the build log
        try (WorkerPool pool = WorkerPool.create(1, PoolOptions.builder().name("billing").build())) {
            IllegalStateException boom = new IllegalStateException("boom");
            pool.execute(() -> {
                throw boom;
            });
            await().until(() -> !records.isEmpty());
            LogRecord r = records.get(0);
            assertThat(r.getLevel()).isEqualTo(Level.SEVERE);
            assertThat(r.getMessage()).contains("billing");
            assertThat(r.getThrown()).isSameAs(boom);
            assertThat(pool.submit(() -> "still works").get()).isEqualTo("still works");
        } finally {
            logger.removeHandler(capture);
            logger.setUseParentHandlers(parents);
        }
    }
}
