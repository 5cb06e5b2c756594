package io.github.poolkit.internal.pool;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The accept times of a stamped queue and the overdue scan over them: FIFO, each task once, skipping the gone. */
class TaskQueueOverdueScanTest {

    private static final long TIMEOUT = 100;

    @Test
    void reportsTheOverdueHeadInOrderOnceAndStopsAtTheFirstYoungTask() {
        TaskQueue q = new TaskQueue(-1, true);
        q.offer("a", 0);
        q.offer("b", 10);
        q.offer("c", 500);
        List<String> found = new ArrayList<>();
        long next = q.scanOverdue(0, 200, TIMEOUT, (task, waited) -> found.add(task + "@" + waited));
        assertThat(found).containsExactly("a@200", "b@190");
        assertThat(q.scanOverdue(next, 300, TIMEOUT, (task, waited) -> found.add(task + "@" + waited)))
                .isEqualTo(next);
        assertThat(found).hasSize(2);
        next = q.scanOverdue(next, 600, TIMEOUT, (task, waited) -> found.add(task + "@" + waited));
        assertThat(found).containsExactly("a@200", "b@190", "c@100");
        assertThat(next).isEqualTo(3);
    }

    @Test
    void skipsTakenWithdrawnAndUnwatchedTasks() {
        TaskQueue q = new TaskQueue(-1, true);
        q.offer("taken", 0);
        long withdrawn = q.offer("withdrawn", 0);
        q.offer("reported-while-blocked", TaskQueue.UNWATCHED);
        q.offer("due", 0);
        assertThat(q.poll()).isEqualTo("taken");
        assertThat(q.withdraw(withdrawn, "withdrawn")).isTrue();
        List<Object> found = new ArrayList<>();
        q.scanOverdue(0, 1_000, TIMEOUT, (task, waited) -> found.add(task));
        assertThat(found).containsExactly("due");
    }

    @Test
    void walksAcrossSegments() {
        TaskQueue q = new TaskQueue(-1, true);
        int n = TaskQueue.SEGMENT * 2 + 5;
        for (int i = 0; i < n; i++) {
            q.offer(i, i);
        }
        List<Object> found = new ArrayList<>();
        long next = q.scanOverdue(0, n + TIMEOUT, TIMEOUT, (task, waited) -> found.add(task));
        assertThat(found).hasSize(n);
        assertThat(next).isEqualTo(n);
    }

    @Test
    void offerWithoutATimeStampsTheCoarseClock() {
        TaskQueue q = new TaskQueue(2, true);
        long before = System.nanoTime();
        q.offer("now");
        List<Long> waited = new ArrayList<>();
        q.scanOverdue(0, before + 10_000_000_000L, 1, (task, w) -> waited.add(w));
        // the coarse clock lags by a tick or two (more if its thread was late): allow a second
        assertThat(waited).singleElement().satisfies(w -> assertThat(w).isBetween(1L, 11_000_000_000L));
    }
}
