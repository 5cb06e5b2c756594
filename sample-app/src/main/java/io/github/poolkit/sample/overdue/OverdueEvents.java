package io.github.poolkit.sample.overdue;

import java.util.concurrent.atomic.AtomicLong;

import io.github.poolkit.OverdueTask;
import io.github.poolkit.autoconfigure.PoolTaskOverdueEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Listens to the starter's {@link PoolTaskOverdueEvent}s, as an application would to page someone, and shows how many
 * it received: {@code GET /api/overdue} answers {@code {"events": n, "latest": "..."}}. The dashboard shows it beside
 * the pools' {@code recentOverdue} entries, and the starter's WARN line with the worker's stack is in the log.
 */
@Component
@RestController
public class OverdueEvents {

    private final AtomicLong events = new AtomicLong();
    private volatile String latest;

    /**
     * Counts an overdue task (called on poolkit's reporting thread, never the worker's).
     *
     * @param event the event
     */
    @EventListener
    public void onOverdue(PoolTaskOverdueEvent event) {
        OverdueTask task = event.getOverdueTask();
        latest = task.pool() + ": " + task.kind() + " " + task.task() + " (" + task.elapsed().toMillis() + " ms)";
        events.incrementAndGet();
    }

    /**
     * Reads the count.
     *
     * @return the events received so far and the latest one
     */
    @GetMapping("/api/overdue")
    public Summary summary() {
        return new Summary(events.get(), latest);
    }

    /**
     * The answer of {@code GET /api/overdue}.
     *
     * @param events overdue events received since start-up
     * @param latest the latest one in words, or {@code null}
     */
    public record Summary(long events, String latest) {
    }
}
