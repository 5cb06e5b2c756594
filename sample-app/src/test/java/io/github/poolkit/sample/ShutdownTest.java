package io.github.poolkit.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import io.github.poolkit.DelayScheduler;
import io.github.poolkit.WorkerPool;
import io.github.poolkit.sample.reminders.Reminder;
import io.github.poolkit.sample.reminders.ReminderService;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Closing the application is quick and leaves nothing behind, even with a reminder due tomorrow: the reminders are
 * cancelled before the starter shuts the scheduler down (which would otherwise wait for them for its whole
 * shutdown timeout), and the pools are released.
 */
@Timeout(60)
class ShutdownTest {

    @Test
    void closingTheApplicationCancelsFarOffRemindersSoTheSchedulerTerminates() {
        ConfigurableApplicationContext context = new SpringApplicationBuilder(SampleApplication.class)
                .run("--spring.main.web-application-type=none");
        ReminderService reminders = context.getBean(ReminderService.class);
        DelayScheduler scheduler = context.getBean(DelayScheduler.class);
        WorkerPool reports = context.getBean("reports", WorkerPool.class);
        reminders.schedule("tomorrow", Duration.ofDays(1));
        assertThat(scheduler.pending()).isEqualTo(1);

        context.close();

        assertThat(reminders.pending()).isEmpty();
        assertThat(scheduler.isTerminated()).as("scheduler terminated within its shutdown timeout").isTrue();
        assertThat(reports.isClosed()).isTrue();
    }

    @Test
    void stoppingAndStartingTheApplicationKeepsItsRemindersAndFiresThemAfterwards() {
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(SampleApplication.class)
                .run("--spring.main.web-application-type=none")) {
            ReminderService reminders = context.getBean(ReminderService.class);
            reminders.schedule("tomorrow", Duration.ofDays(1));
            reminders.schedule("soon", Duration.ofSeconds(3)); // still pending when the slow stop() has paused it

            context.stop();
            assertThat(reminders.pending()).hasSize(2);
            context.start();

            await().atMost(Duration.ofSeconds(20)).until(() -> reminders.firedCount() == 1);
            assertThat(reminders.fired()).extracting(Reminder::text).containsExactly("soon");
            assertThat(reminders.pending()).extracting(Reminder::text).containsExactly("tomorrow");
        }
    }
}
