package io.github.poolkit.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;

import io.github.poolkit.WorkerPool;

/**
 * The scenario as a new user meets it: an application whose primary pool runs slow tasks (and has more
 * queued) gets SIGTERM with only {@code poolkit.pool.shutdown-timeout=2s} set. The JVM ends about 2 s later, not after
 * the scheduler's unset timeout; the running tasks are interrupted and clean up; the log and the event name what was
 * left.
 */
@Timeout(60)
class SigtermShutdownTests {

    @Test
    void sigtermWithOnlyThePoolsTimeoutSetInterruptsAtThatDeadline() throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        Process process = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                SlowApplication.class.getName()).redirectErrorStream(true).start();
        List<String> lines = new CopyOnWriteArrayList<>();
        CountDownLatch ready = new CountDownLatch(1);
        CompletableFuture<Void> reader = CompletableFuture.runAsync(() -> {
            try (BufferedReader in = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    lines.add(line);
                    if (line.equals("READY")) {
                        ready.countDown();
                    }
                }
            }
            catch (Exception ex) {
                throw new IllegalStateException(ex);
            }
        });
        try {
            assertThat(ready.await(40, TimeUnit.SECONDS)).as(String.join("\n", lines)).isTrue();
            long start = System.nanoTime();
            process.toHandle().destroy(); // SIGTERM (Process.destroy() would also close the output stream)
            assertThat(process.waitFor(20, TimeUnit.SECONDS)).isTrue();
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            reader.get(10, TimeUnit.SECONDS);
            String output = String.join("\n", lines);
            // 2 s deadline, plus at most 1 s for interrupted tasks, plus the JVM's own exit: never the 30 s default.
            assertThat(took).as(output).isBetween(Duration.ofMillis(1900), Duration.ofSeconds(8));
            assertThat(output).contains("Pool 'workerPool' did not finish within the shutdown deadline of 2s:"
                    + " interrupted 8 running tasks, 2 tasks never started: [slow-8, slow-9]");
            assertThat(output).contains("EVENT pool=workerPool interrupted=8 unstarted=[slow-8, slow-9]");
            assertThat(lines.stream().filter(line -> line.startsWith("CLEANED UP slow-"))).hasSize(8);
        }
        finally {
            process.destroyForcibly();
        }
    }

    /** The application the test starts in its own JVM: ten tasks of 20 s on eight workers, then it waits. */
    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration(PoolkitAutoConfiguration.class)
    static class SlowApplication {

        public static void main(String[] args) throws Exception {
            SpringApplication application = new SpringApplication(SlowApplication.class);
            application.setWebApplicationType(WebApplicationType.NONE);
            ConfigurableApplicationContext context = application.run("--poolkit.pool.shutdown-timeout=2s",
                    "--poolkit.pool.capacity=8", "--poolkit.pool.queue-capacity=10",
                    "--poolkit.semaphore.enabled=false", "--spring.jmx.enabled=false");
            WorkerPool pool = context.getBean(WorkerPool.class);
            CountDownLatch started = new CountDownLatch(8);
            for (int i = 0; i < 10; i++) {
                pool.execute(new Slow("slow-" + i, started));
            }
            started.await();
            System.out.println("READY");
            new CountDownLatch(1).await(); // until SIGTERM
        }

        @EventListener
        void on(PoolTasksAbandonedEvent event) {
            System.out.println("EVENT pool=" + event.getPoolName() + " interrupted=" + event.getInterruptedTasks()
                    + " unstarted=" + event.getUnstartedTasks());
        }
    }

    /** A task of 20 s that says when it cleans up. */
    record Slow(String name, CountDownLatch started) implements Runnable {

        @Override
        public void run() {
            started.countDown();
            try {
                Thread.sleep(20_000);
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
            finally {
                System.out.println("CLEANED UP " + name);
            }
        }

        @Override
        public String toString() {
            return name;
        }
    }
}
