package io.github.poolkit.sample.reminders;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.github.poolkit.DelayScheduler;
import io.github.poolkit.sample.web.InvalidRequestException;
import io.github.poolkit.sample.web.NotFoundException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.context.support.GenericApplicationContext;

/**
 * {@link ReminderService} on a real {@link DelayScheduler}, without Spring: reminders fire once, cancel once, and a
 * cancel racing the firing job never loses or doubles a reminder.
 */
@Timeout(30)
class ReminderServiceTest {

    private static final Duration PATIENCE = Duration.ofSeconds(10);

    private DelayScheduler scheduler;
    private ReminderService reminders;

    @BeforeEach
    void setUp() {
        scheduler = DelayScheduler.create(2);
        reminders = new ReminderService(scheduler);
    }

    @AfterEach
    void tearDown() {
        reminders.cancelAll();
        scheduler.shutdownNow();
    }

    @Test
    void dueReminderFiresOnceAndMovesToTheFiredList() {
        Reminder reminder = reminders.schedule("stand up", Duration.ofSeconds(1)); // long enough to be seen pending
        assertThat(reminders.pending()).containsExactly(reminder);

        await().atMost(PATIENCE).until(() -> reminders.firedCount() == 1);

        assertThat(reminders.pending()).isEmpty();
        assertThat(reminders.fired()).containsExactly(reminder);
        assertThatThrownBy(() -> reminders.cancel(reminder.id())).isInstanceOf(NotFoundException.class)
                .hasMessageContaining(reminder.id());
    }

    @Test
    void pendingRemindersAreListedSoonestFirstAndCancelledOnce() {
        Reminder later = reminders.schedule("later", Duration.ofHours(2));
        Reminder sooner = reminders.schedule("sooner", Duration.ofHours(1));

        assertThat(reminders.pending()).containsExactly(sooner, later);
        assertThat(reminders.get(later.id())).isEqualTo(later);
        assertThat(reminders.cancel(later.id())).isEqualTo(later);
        assertThatThrownBy(() -> reminders.cancel(later.id())).isInstanceOf(NotFoundException.class);
        assertThatThrownBy(() -> reminders.get(later.id())).isInstanceOf(NotFoundException.class);
        assertThat(reminders.pending()).containsExactly(sooner);
        assertThat(scheduler.pending()).isEqualTo(1);
    }

    @Test
    void cancelAllEmptiesTheSchedulerSoItCanShutDownAtOnce() throws InterruptedException {
        reminders.schedule("tomorrow", Duration.ofHours(20));
        reminders.schedule("tonight", Duration.ofHours(5));

        reminders.cancelAll();

        assertThat(reminders.pending()).isEmpty();
        scheduler.shutdown();
        assertThat(scheduler.awaitTermination(PATIENCE.toMillis(), TimeUnit.MILLISECONDS))
                .isTrue();
        assertThat(reminders.firedCount()).isZero();
    }

    @Test
    void aStopKeepsThePendingRemindersAndOnlyTheStopOfAShutDownCancelsThem() {
        Reminder tomorrow = reminders.schedule("tomorrow", Duration.ofHours(20));
        reminders.start();

        reminders.stop(); // context.stop(), a checkpoint: the scheduler is paused, not shut down
        assertThat(reminders.isRunning()).isFalse();
        assertThat(reminders.pending()).containsExactly(tomorrow);
        assertThat(scheduler.pending()).isEqualTo(1);

        reminders.start();
        try (GenericApplicationContext own = new GenericApplicationContext();
                GenericApplicationContext child = new GenericApplicationContext(own)) {
            reminders.setApplicationContext(own);
            reminders.onApplicationEvent(new ContextClosedEvent(child)); // a child's close is not this one's
            reminders.stop();
            assertThat(reminders.pending()).containsExactly(tomorrow);
            reminders.start();
            reminders.onApplicationEvent(new ContextClosedEvent(own));
        }
        reminders.stop();
        assertThat(reminders.pending()).isEmpty();
        assertThat(scheduler.pending()).isZero();
    }

    @Test
    void cancelRacingTheFiringJobEndsEachReminderExactlyOnce() {
        int rounds = 200;
        int cancelled = 0;
        for (int i = 0; i < rounds; i++) {
            Reminder reminder = reminders.schedule("race " + i, Duration.ZERO);
            try {
                reminders.cancel(reminder.id());
                cancelled++;
            } catch (NotFoundException firedFirst) {
                assertThat(reminders.fired()).contains(reminder);
            }
        }
        // Every reminder was either cancelled or fired (the cancel found it gone), never both, never neither.
        assertThat(reminders.pending()).isEmpty();
        assertThat(reminders.firedCount()).isEqualTo(rounds - cancelled);
    }

    @Test
    void badInputIsRefusedWithAMessageNamingTheProblem() {
        assertThatThrownBy(() -> reminders.schedule(" ", Duration.ZERO))
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("text");
        assertThatThrownBy(() -> reminders.schedule("x".repeat(201), Duration.ZERO))
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("200");
        assertThatThrownBy(() -> reminders.schedule("x", Duration.ofMillis(-1)))
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("delayMs").hasMessageContaining("-1");
        assertThatThrownBy(() -> reminders.schedule("x", Duration.ofDays(1).plusMillis(1)))
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("delayMs");
        assertThat(reminders.pending()).isEmpty();
    }
}
