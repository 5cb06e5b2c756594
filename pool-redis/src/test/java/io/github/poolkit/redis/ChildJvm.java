package io.github.poolkit.redis;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** Another JVM running one of this package's test mains, with this JVM's classpath; its stdout lines are readable. */
final class ChildJvm implements AutoCloseable {

    private final Process process;
    private final LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final CompletableFuture<Void> ended = new CompletableFuture<>();

    ChildJvm(Class<?> main, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "-cp", System.getProperty("java.class.path"), "-Xss512k", "-XX:TieredStopAtLevel=1",
                main.getName()));
        cmd.addAll(List.of(args));
        process = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                    lines.add(line);
                }
            } catch (IOException ignored) {
                // the process died
            } finally {
                ended.complete(null);
            }
        }, "child-jvm-reader");
        reader.setDaemon(true);
        reader.start();
    }

    /** @return the next line starting with {@code prefix} (others are skipped), within {@code timeout} */
    String awaitLine(String prefix, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            String line = lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (line == null) {
                throw new AssertionError("child JVM printed no '" + prefix + "' line within " + timeout
                        + "; alive=" + process.isAlive() + ", other output: " + lines);
            }
            if (line.startsWith(prefix)) {
                return line;
            }
            System.out.println("[child] " + line);
        }
    }

    /** @return every line up to and including the first that starts with {@code prefix}, within {@code timeout} */
    List<String> linesUntil(String prefix, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<String> seen = new ArrayList<>();
        while (true) {
            String line = lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (line == null) {
                throw new AssertionError("child JVM printed no '" + prefix + "' line within " + timeout
                        + "; alive=" + process.isAlive() + ", output: " + seen);
            }
            seen.add(line);
            if (line.startsWith(prefix)) {
                return seen;
            }
        }
    }

    /** Kills the JVM with SIGKILL (kill -9): no shutdown hook, no finally block runs. */
    void kill9() throws InterruptedException {
        process.destroyForcibly(); // SIGKILL on Linux
        process.waitFor();
    }

    int waitFor(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
            throw new AssertionError("child JVM did not end within " + timeout);
        }
        return process.exitValue();
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            kill9();
        }
    }
}
