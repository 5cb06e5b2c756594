package io.github.poolkit.autoconfigure;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.github.poolkit.OverdueTask;
import io.github.poolkit.PoolListener;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationEventPublisher;

/**
 * What the starter does with each overdue task of a pool or scheduler bean, its own or the application's (see
 * {@link PoolBeanListeners}): one {@code WARN} log line naming the pool, the kind, the task, the thread and the
 * elapsed time, followed by the worker's stack (for a task that runs too long); a {@link PoolTaskOverdueEvent}; and an
 * entry in the pool's latest {@value #RECENT} overdue tasks, newest first, which the {@code pools} endpoint shows as
 * {@code recentOverdue}.
 *
 * <p>Reports arrive on each pool's overdue reporting thread; the endpoint reads from request threads. Each pool's
 * entries are a small deque guarded by its own monitor (a report per overdue task, not per task: never hot).
 */
public final class PoolOverdueLog {

    /** How many overdue tasks each pool keeps for the endpoint. */
    public static final int RECENT = 10;

    private static final Log logger = LogFactory.getLog(PoolOverdueLog.class);

    private final ApplicationEventPublisher publisher;
    /** By pool or scheduler instance (identity: an application's pool may define equals), whatever its bean name. */
    private final Map<Object, Deque<Entry>> recent = Collections.synchronizedMap(new IdentityHashMap<>());

    /**
     * Creates the log.
     *
     * @param publisher where to publish each {@link PoolTaskOverdueEvent}
     */
    public PoolOverdueLog(ApplicationEventPublisher publisher) {
        this.publisher = publisher;
    }

    /**
     * One overdue task as the endpoint shows it: always the five keys, {@code thread} {@code null} for a task that
     * waits (the endpoint otherwise leaves out null fields).
     *
     * @param kind      {@code run} (ran too long) or {@code queue} (waited too long to start)
     * @param task      the task's description
     * @param thread    the worker's name, or {@code null} for a task that waits
     * @param elapsedMs how long it had run or waited when it was found overdue, in milliseconds
     * @param at        when it was reported, an ISO-8601 instant: when it was found overdue, unless the listeners of
     *                  the pool's earlier overdue tasks were slow (the reports of one pool run in turn)
     */
    @JsonInclude(JsonInclude.Include.ALWAYS) // every entry has the five keys: "thread": null for a task that waits
    public record Entry(String kind, String task, String thread, long elapsedMs, String at) {
    }

    /**
     * Makes the listener that reports the overdue tasks of one pool or scheduler.
     *
     * @param poolName the bean name
     * @param pool     the pool or scheduler, the source of its events
     * @return a listener that only handles {@link PoolListener#taskOverdue}
     */
    PoolListener listenerFor(String poolName, Object pool) {
        return new PoolListener() {
            @Override
            public void taskOverdue(OverdueTask task) {
                report(poolName, pool, task);
            }
        };
    }

    /**
     * Returns the latest overdue tasks of a pool or scheduler, for a reader whose log may be absent.
     *
     * @param log  the log, or {@code null} (none: overdue tasks are not reported)
     * @param pool the pool or scheduler, under whichever of its bean names it is read
     * @return its latest {@value #RECENT} overdue tasks, newest first; empty without a log
     */
    public static List<Entry> recentOf(@Nullable PoolOverdueLog log, Object pool) {
        return (log != null) ? log.recent(pool) : List.of();
    }

    /**
     * Returns the latest overdue tasks of a pool or scheduler.
     *
     * @param pool the pool or scheduler, under whichever of its bean names it is read
     * @return its latest {@value #RECENT} overdue tasks, newest first; empty for one that reports none
     */
    public List<Entry> recent(Object pool) {
        Deque<Entry> entries = recent.get(pool);
        if (entries == null) {
            return List.of();
        }
        synchronized (entries) {
            return List.copyOf(entries);
        }
    }

    private void report(String poolName, Object pool, OverdueTask task) {
        String kind = task.kind().name().toLowerCase(Locale.ROOT);
        Deque<Entry> entries = recent.computeIfAbsent(pool, key -> new ArrayDeque<>(RECENT));
        synchronized (entries) {
            if (entries.size() == RECENT) {
                entries.removeLast();
            }
            entries.addFirst(new Entry(kind, task.task(), task.thread(), task.elapsed().toMillis(),
                    Instant.now().toString()));
        }
        log(poolName, task);
        try {
            publisher.publishEvent(new PoolTaskOverdueEvent(pool, task));
        }
        catch (RuntimeException ex) {
            logger.warn("A listener of PoolTaskOverdueEvent for pool '" + poolName + "' failed", ex);
        }
    }

    private static void log(String poolName, OverdueTask task) {
        boolean running = task.kind() == OverdueTask.Kind.RUN;
        String message = "Overdue task on pool '" + poolName + "': kind " + task.kind() + ", "
                + (running ? "running for " : "waiting to start for ") + task.elapsed().toMillis() + " ms, task '"
                + task.task() + "', thread " + ((task.thread() != null) ? "'" + task.thread() + "'" : "none");
        if (running) {
            logger.warn(message, new WorkerStack(task));
        }
        else {
            logger.warn(message);
        }
    }

    /** Carries a worker's stack into the log, printed after the log line as an exception's stack would be. */
    static final class WorkerStack extends RuntimeException {

        WorkerStack(OverdueTask task) {
            super("stack of worker '" + task.thread() + "' when the task was found overdue", null, false, true);
            setStackTrace(task.stack());
        }
    }
}
