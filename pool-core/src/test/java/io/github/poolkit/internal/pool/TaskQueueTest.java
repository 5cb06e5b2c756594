package io.github.poolkit.internal.pool;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;

import static org.assertj.core.api.Assertions.assertThat;

class TaskQueueTest {

    @Test
    void takesTasksInTheOrderTheyCameAcrossSegments() {
        TaskQueue q = new TaskQueue(-1);
        int n = TaskQueue.SEGMENT * 3 + 7;
        for (int i = 0; i < n; i++) {
            assertThat(q.offer(i)).isEqualTo(i);
        }
        assertThat(q.size()).isEqualTo(n);
        for (int i = 0; i < n; i++) {
            assertThat(q.poll()).isEqualTo(i);
        }
        assertThat(q.poll()).isNull();
        assertThat(q.isEmpty()).isTrue();
        assertThat(q.size()).isZero();
    }

    @Test
    void anEmptyQueueGivesNull() {
        TaskQueue q = new TaskQueue(-1);
        assertThat(q.poll()).isNull();
        assertThat(q.isEmpty()).isTrue();
        assertThat(q.hasRoom()).isTrue();
    }

    @Test
    void aBoundedQueueRefusesWhenFullAndTakesAgainOnceATaskIsTaken() {
        TaskQueue q = new TaskQueue(3);
        assertThat(q.offer("a")).isNotNegative();
        assertThat(q.offer("b")).isNotNegative();
        assertThat(q.offer("c")).isNotNegative();
        assertThat(q.hasRoom()).isFalse();
        assertThat(q.offer("d")).isEqualTo(-1);
        assertThat(q.poll()).isEqualTo("a");
        assertThat(q.hasRoom()).isTrue();
        assertThat(q.offer("d")).isNotNegative();
        assertThat(List.of(q.poll(), q.poll(), q.poll())).containsExactly("b", "c", "d");
    }

    @Test
    void aWithdrawnTaskIsNeverTaken() {
        TaskQueue q = new TaskQueue(-1);
        q.offer("a");
        long b = q.offer("b");
        q.offer("c");
        assertThat(q.withdraw(b, "b")).isTrue();
        assertThat(q.poll()).isEqualTo("a");
        assertThat(q.poll()).isEqualTo("c");
        assertThat(q.poll()).isNull();
        assertThat(q.isEmpty()).isTrue();
    }

    @Test
    void aTakenTaskCannotBeWithdrawn() {
        TaskQueue q = new TaskQueue(-1);
        long a = q.offer("a");
        assertThat(q.poll()).isEqualTo("a");
        assertThat(q.withdraw(a, "a")).isFalse();
    }

    @Test
    void aTaskTakenFromASegmentTheConsumersLeftBehindCannotBeWithdrawn() {
        TaskQueue q = new TaskQueue(-1);
        long first = q.offer("first");
        for (int i = 1; i <= TaskQueue.SEGMENT; i++) {
            q.offer(i);
        }
        for (int i = 0; i <= TaskQueue.SEGMENT; i++) {
            assertThat(q.poll()).isNotNull();
        }
        assertThat(q.withdraw(first, "first")).isFalse();
    }

    @Test
    void withdrawingTheHeadFreesItsRoomAtOnce() {
        TaskQueue q = new TaskQueue(1);
        long a = q.offer("a");
        assertThat(q.offer("b")).isEqualTo(-1);
        assertThat(q.withdraw(a, "a")).isTrue();
        assertThat(q.size()).isZero();
        assertThat(q.offer("b")).isNotNegative();
        assertThat(q.poll()).isEqualTo("b");
    }

    @Test
    void withdrawalsInAnyOrderLeaveAnEmptyQueueEmpty() {
        TaskQueue q = new TaskQueue(-1);
        q.offer("x");
        q.poll();
        long a = q.offer("a");
        long b = q.offer("b");
        assertThat(q.withdraw(b, "b")).isTrue();
        assertThat(q.size()).isEqualTo(2); // "a" still waits in front of the withdrawn "b"
        assertThat(q.withdraw(a, "a")).isTrue();
        assertThat(q.size()).isZero();
        assertThat(q.isEmpty()).isTrue();
        assertThat(q.poll()).isNull();
    }

    @Test
    void theSameTaskQueuedTwiceIsTakenTwice() {
        TaskQueue q = new TaskQueue(-1);
        Object task = new Object();
        long first = q.offer(task);
        long second = q.offer(task);
        assertThat(q.withdraw(second, task)).isTrue();
        assertThat(q.poll()).isSameAs(task);
        assertThat(q.poll()).isNull();
        assertThat(q.withdraw(first, task)).isFalse();
    }

    /**
     * Two appenders (each withdrawing every fifth task it appended) and two consumers, through many segments, with a
     * small bound (appenders CAS the tail) and without one (appenders take indices with an atomic increment and link
     * segments while consumers may already wait at them): every task is taken exactly once or withdrawn, never both,
     * and each consumer sees each appender's tasks in the order they were appended.
     */
    @ParameterizedTest(name = "queue capacity {0}")
    @ValueSource(ints = {64, -1})
    @Timeout(60)
    void concurrentAppendersAndConsumersLoseNothingAndKeepEachAppendersOrder(int capacity) throws Exception {
        int perProducer = 200_000;
        TaskQueue q = new TaskQueue(capacity);
        AtomicIntegerArray taken = new AtomicIntegerArray(2 * perProducer);
        AtomicIntegerArray withdrawn = new AtomicIntegerArray(2 * perProducer);
        AtomicBoolean producing = new AtomicBoolean(true);
        CyclicBarrier start = new CyclicBarrier(4);
        List<Throwable> failures = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < 2; p++) {
            int base = p * perProducer;
            threads.add(Thread.ofPlatform().start(() -> {
                await(start);
                for (int i = 0; i < perProducer; i++) {
                    Integer task = base + i;
                    long index;
                    while ((index = q.offer(task)) < 0) {
                        Thread.onSpinWait(); // full
                    }
                    if (i % 5 == 0 && q.withdraw(index, task)) {
                        withdrawn.incrementAndGet(task);
                    }
                }
            }));
        }
        List<Thread> consumers = new ArrayList<>();
        for (int c = 0; c < 2; c++) {
            consumers.add(Thread.ofPlatform().start(() -> {
                await(start);
                int[] last = {-1, -1};
                for (;;) {
                    Object t = q.poll();
                    if (t == null) {
                        if (!producing.get() && q.isEmpty()) {
                            return;
                        }
                        Thread.onSpinWait();
                        continue;
                    }
                    int task = (Integer) t;
                    int producer = task / perProducer;
                    if (task <= last[producer]) {
                        synchronized (failures) {
                            failures.add(new AssertionError("task " + task + " after " + last[producer]));
                        }
                    }
                    last[producer] = task;
                    taken.incrementAndGet(task);
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        producing.set(false);
        for (Thread t : consumers) {
            t.join();
        }
        assertThat(failures).isEmpty();
        int withdrawals = 0;
        for (int i = 0; i < 2 * perProducer; i++) {
            assertThat(taken.get(i) + withdrawn.get(i)).as("task %d taken + withdrawn", i).isEqualTo(1);
            withdrawals += withdrawn.get(i);
        }
        assertThat(withdrawals).as("some withdrawals won").isPositive();
        assertThat(q.poll()).isNull();
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
