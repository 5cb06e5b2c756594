package io.github.poolkit.internal;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Captures what poolkit logs through {@link System.Logger} (backed by java.util.logging) while a test runs, and keeps
 * it out of the build log; {@link #close()} restores the logger.
 */
public final class LogCapture implements AutoCloseable {

    private final Logger logger = Logger.getLogger("io.github.poolkit");
    private final boolean useParentHandlers = logger.getUseParentHandlers();
    private final List<LogRecord> records = new CopyOnWriteArrayList<>();
    private final Handler handler = new Handler() {
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

    private LogCapture() {
        logger.addHandler(handler);
        logger.setUseParentHandlers(false);
    }

    /** @return a capture of the {@code io.github.poolkit} logger, active until closed */
    public static LogCapture start() {
        return new LogCapture();
    }

    /** @return the records logged so far */
    public List<LogRecord> records() {
        return List.copyOf(records);
    }

    @Override
    public void close() {
        logger.removeHandler(handler);
        logger.setUseParentHandlers(useParentHandlers);
    }
}
