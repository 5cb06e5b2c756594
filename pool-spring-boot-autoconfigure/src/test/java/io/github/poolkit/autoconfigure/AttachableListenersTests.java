package io.github.poolkit.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.github.poolkit.OverdueTask;
import io.github.poolkit.PoolListener;
import io.github.poolkit.SemaphoreListener;
import io.github.poolkit.SemaphoreListener.AcquireOutcome;

/**
 * A bean's forwarding listener tells every attached listener, also after one threw (an {@code Error} too, as an
 * application's event listener may throw): the meters attached after the overdue report still count. The first
 * throwable is then thrown on, the later ones suppressed by it, for the pool or semaphore to log.
 */
class AttachableListenersTests {

    private final List<String> told = new ArrayList<>();

    @Test
    void anOverdueTaskReachesTheListenersAfterOneThatThrowsAnError() {
        PoolTaskListeners listeners = new PoolTaskListeners();
        PoolListener forwarder = listeners.listenerFor("reports");
        listeners.attach("reports", new PoolListener() {
            @Override
            public void taskOverdue(OverdueTask task) {
                throw new AssertionError("an application's listener failed");
            }
        });
        listeners.attach("reports", counting("meters"));
        OverdueTask task = new OverdueTask("reports", OverdueTask.Kind.RUN, "job", "reports-1", Duration.ofSeconds(2),
                null);
        assertThatThrownBy(() -> forwarder.taskOverdue(task)).isInstanceOf(AssertionError.class)
                .hasMessage("an application's listener failed");
        assertThat(told).containsExactly("meters: overdue");
    }

    @Test
    void everyEventReachesEveryListenerAndTheFirstFailureSuppressesTheLater() {
        PoolTaskListeners listeners = new PoolTaskListeners();
        PoolListener forwarder = listeners.listenerFor("reports");
        listeners.attach("reports", new PoolListener() {
            @Override
            public void taskFinished(long waitedNanos, long ranNanos, Throwable failure) {
                throw new IllegalStateException("first");
            }

            @Override
            public void taskRejected(RuntimeException reason) {
                throw new IllegalStateException("first");
            }
        });
        listeners.attach("reports", counting("meters"));
        listeners.attach("reports", new PoolListener() {
            @Override
            public void taskFinished(long waitedNanos, long ranNanos, Throwable failure) {
                throw new IllegalArgumentException("second");
            }
        });
        assertThatThrownBy(() -> forwarder.taskFinished(1, 2, null)).hasMessage("first")
                .satisfies(ex -> assertThat(ex.getSuppressed()).singleElement()
                        .satisfies(second -> assertThat(second).hasMessage("second")));
        assertThatThrownBy(() -> forwarder.taskRejected(new IllegalStateException("full"))).hasMessage("first");
        assertThat(told).containsExactly("meters: finished", "meters: rejected");
    }

    @Test
    void twoListenersThrowingOneInstanceDoNotStopTheOthers() {
        PoolTaskListeners listeners = new PoolTaskListeners();
        PoolListener forwarder = listeners.listenerFor("reports");
        IllegalStateException reason = new IllegalStateException("full");
        PoolListener rethrowing = new PoolListener() {
            @Override
            public void taskRejected(RuntimeException refusal) {
                throw refusal; // the event's own exception, thrown on
            }
        };
        listeners.attach("reports", rethrowing);
        listeners.attach("reports", rethrowing);
        listeners.attach("reports", counting("meters"));
        assertThatThrownBy(() -> forwarder.taskRejected(reason)).isSameAs(reason);
        assertThat(reason.getSuppressed()).isEmpty();
        assertThat(told).containsExactly("meters: rejected");
    }

    @Test
    void aSemaphoreEventReachesTheListenersAfterOneThatThrows() {
        SemaphoreListeners listeners = new SemaphoreListeners();
        SemaphoreListener forwarder = listeners.listenerFor("gpu");
        listeners.attach("gpu", (permits, waitedNanos, outcome) -> {
            throw new StackOverflowError();
        });
        listeners.attach("gpu", (permits, waitedNanos, outcome) -> told.add("timer: " + outcome));
        assertThatThrownBy(() -> forwarder.requestSettled(3, 10, AcquireOutcome.ACQUIRED))
                .isInstanceOf(StackOverflowError.class);
        assertThat(told).containsExactly("timer: ACQUIRED");
    }

    private PoolListener counting(String name) {
        return new PoolListener() {
            @Override
            public void taskFinished(long waitedNanos, long ranNanos, Throwable failure) {
                told.add(name + ": finished");
            }

            @Override
            public void taskRejected(RuntimeException reason) {
                told.add(name + ": rejected");
            }

            @Override
            public void taskOverdue(OverdueTask task) {
                told.add(name + ": overdue");
            }
        };
    }
}
