package io.github.poolkit.redis;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real Debian {@code redis-server} for a test class: on loopback, on a free port, in a temp dir, without
 * persistence (unless {@link #withAof()}); stopped after the class. Tests are skipped when {@code redis-server} is
 * not installed ({@code apt-get install redis-server}).
 *
 * <pre>{@code @RegisterExtension static final RedisServer redis = new RedisServer();}</pre>
 */
public final class RedisServer implements BeforeAllCallback, AfterAllCallback {

    private static final String BINARY = "redis-server";

    private final boolean aof;
    private Path dir;
    private int port;
    private Process process;
    private RedisClient client;

    public RedisServer() {
        this(false);
    }

    private RedisServer(boolean aof) {
        this.aof = aof;
    }

    /** @return a server that writes an append-only file with fsync on every write, so a restart loses nothing */
    public static RedisServer withAof() {
        return new RedisServer(true);
    }

    public static boolean installed() {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
            if (Files.isExecutable(Path.of(dir, BINARY))) {
                return true;
            }
        }
        return Files.isExecutable(Path.of("/usr/bin", BINARY));
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        assumeTrue(installed(), "redis-server is not installed (apt-get install redis-server): skipped");
        dir = Files.createTempDirectory("poolkit-redis");
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        start();
        client = RedisClient.create(RedisURI.builder().withHost("127.0.0.1").withPort(port)
                .withTimeout(Duration.ofSeconds(10)).build());
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        if (client != null) {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
        stop();
    }

    /** @return the loopback port */
    public int port() {
        return port;
    }

    /** @return a Lettuce client for this server (shared; shut down after the class) */
    public RedisClient client() {
        return client;
    }

    /** @return the server's pid */
    public long pid() {
        return process.pid();
    }

    /** Freezes the server (SIGSTOP): it accepts connections but answers nothing. */
    public void pause() throws Exception {
        signal("STOP");
    }

    /** Lets a paused server go on (SIGCONT). */
    public void resume() throws Exception {
        signal("CONT");
    }

    /** Kills the server (SIGKILL) for good: from then on its port refuses connections, until the class ends. */
    public void kill() throws InterruptedException {
        process.destroyForcibly().waitFor();
    }

    /** Stops the server (SIGTERM; with AOF it flushes first) and starts it again on the same port and dir. */
    public void restart() throws Exception {
        stop();
        start();
    }

    /** @return the value of a string key, as GET returns it ("" when missing) */
    public String get(String key) throws IOException {
        String reply = command("GET " + key);
        if (reply.startsWith("$-1")) {
            return "";
        }
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(2000);
            OutputStream out = socket.getOutputStream();
            out.write(("GET " + key + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            java.io.BufferedReader in = new java.io.BufferedReader(
                    new java.io.InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
            in.readLine(); // $length
            return in.readLine();
        }
    }

    /** Deletes every key (FLUSHALL). */
    public void flush() throws IOException {
        command("FLUSHALL");
    }

    private void start() throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(BINARY, "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--dir", dir.toString(), "--save", "", "--daemonize", "no", "--protected-mode", "yes"));
        cmd.addAll(aof ? List.of("--appendonly", "yes", "--appendfsync", "always") : List.of("--appendonly", "no"));
        process = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(dir.resolve("redis.log").toFile()).start();
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (true) {
            try {
                if (command("PING").contains("PONG")) {
                    return;
                }
            } catch (IOException notYet) {
                if (!process.isAlive() || System.nanoTime() > deadline) {
                    throw new IllegalStateException("redis-server did not start on port " + port + ": "
                            + Files.readString(dir.resolve("redis.log")), notYet);
                }
            }
            Thread.sleep(20); // polling a process we started for readiness, not synchronising threads
        }
    }

    private void stop() throws InterruptedException {
        if (process != null) {
            process.destroy();
            if (!process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        }
    }

    private void signal(String signal) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).start();
        if (kill.waitFor() != 0) {
            throw new IllegalStateException("kill -" + signal + " failed");
        }
    }

    /** One inline command over a plain socket; returns the first reply line. */
    private String command(String command) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(2000);
            OutputStream out = socket.getOutputStream();
            out.write((command + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            StringBuilder line = new StringBuilder();
            int c;
            while ((c = in.read()) != -1 && c != '\n') {
                line.append((char) c);
            }
            return line.toString();
        }
    }
}
