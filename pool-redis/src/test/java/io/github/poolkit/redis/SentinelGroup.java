package io.github.poolkit.redis;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.sentinel.api.StatefulRedisSentinelConnection;
import io.lettuce.core.resource.Delay;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A primary, its replica and one Sentinel ({@code redis-server --sentinel}, Debian's {@code redis-server} binary), all
 * on loopback on free ports, without persistence; stopped after the class. The Sentinel promotes the replica once the
 * primary has been silent for {@code downAfter}. Skipped when {@code redis-server} is not installed.
 *
 * <pre>{@code @RegisterExtension static final SentinelGroup group = new SentinelGroup(Duration.ofSeconds(2));}</pre>
 */
final class SentinelGroup implements BeforeAllCallback, AfterAllCallback {

    /** The name the Sentinel monitors the primary under. */
    static final String MASTER = "poolkit";

    private final Duration downAfter;
    private final List<Process> processes = new ArrayList<>();
    private Path dir;
    private int primaryPort;
    private int replicaPort;
    private int sentinelPort;
    private Process primary;
    private ClientResources resources;
    private RedisClient client;

    SentinelGroup(Duration downAfter) {
        this.downAfter = downAfter;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        assumeTrue(RedisServer.installed(), "redis-server is not installed (apt-get install redis-server): skipped");
        dir = Files.createTempDirectory("poolkit-sentinel");
        primaryPort = freePort();
        replicaPort = freePort();
        sentinelPort = freePort();
        primary = start("primary", List.of("--port", Integer.toString(primaryPort)));
        start("replica", List.of("--port", Integer.toString(replicaPort), "--replicaof", "127.0.0.1",
                Integer.toString(primaryPort)));
        Path conf = dir.resolve("sentinel.conf");
        Files.writeString(conf, String.join("\n",
                "port " + sentinelPort,
                "bind 127.0.0.1",
                "dir " + dir,
                "sentinel monitor " + MASTER + " 127.0.0.1 " + primaryPort + " 1",
                "sentinel down-after-milliseconds " + MASTER + " " + downAfter.toMillis(),
                "sentinel failover-timeout " + MASTER + " 10000",
                "sentinel parallel-syncs " + MASTER + " 1",
                ""));
        processes.add(new ProcessBuilder("redis-server", conf.toString(), "--sentinel").redirectErrorStream(true)
                .redirectOutput(dir.resolve("sentinel.log").toFile()).start());
        // reconnect every 100 ms (Lettuce's default backs off to 30 s), asking the Sentinel for the primary each time
        resources = ClientResources.builder().reconnectDelay(Delay.constant(Duration.ofMillis(100))).build();
        client = RedisClient.create(resources, RedisURI.Builder.sentinel("127.0.0.1", sentinelPort, MASTER)
                .withTimeout(Duration.ofSeconds(5)).build());
        try (StatefulRedisConnection<String, String> replica = direct(replicaPort)) {
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (!replica.sync().info("replication").contains("master_link_status:up")) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the replica did not sync with the primary; see " + dir);
                }
                Thread.sleep(20); // polling processes we started for readiness, not synchronising threads
            }
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!sentinelKnowsTheReplica()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the Sentinel did not find the replica; see " + dir);
            }
            Thread.sleep(50); // as above
        }
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        if (client != null) {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            resources.shutdown(0, 2, TimeUnit.SECONDS);
        }
        for (Process process : processes) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** @return a Lettuce client that finds the primary through the Sentinel (shared; shut down after the class) */
    RedisClient client() {
        return client;
    }

    /** @return the replica's port: the primary's once the Sentinel promoted it */
    int replicaPort() {
        return replicaPort;
    }

    /** Waits until the replica has every write the primary had when this was called. */
    void awaitReplicaInSync() throws InterruptedException {
        try (StatefulRedisConnection<String, String> p = direct(primaryPort);
                StatefulRedisConnection<String, String> r = direct(replicaPort)) {
            long target = offset(p.sync().info("replication"), "master_repl_offset:");
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (offset(r.sync().info("replication"), "slave_repl_offset:") < target) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the replica did not catch up with the primary; see " + dir);
                }
                Thread.sleep(10); // polling Redis's replication offset, not synchronising threads
            }
        }
    }

    private static long offset(String info, String field) {
        int at = info.indexOf(field) + field.length();
        int end = info.indexOf('\r', at);
        return Long.parseLong(info.substring(at, end < 0 ? info.length() : end).trim());
    }

    /** Kills the primary ({@code SIGKILL}): its connections drop, and the Sentinel fails over after downAfter. */
    void killPrimary() throws InterruptedException {
        primary.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }

    /** @return the port of the primary as the Sentinel reports it now */
    int primaryPortBySentinel() {
        try (StatefulRedisSentinelConnection<String, String> sentinel = sentinel()) {
            return ((InetSocketAddress) sentinel.sync().getMasterAddrByName(MASTER)).getPort();
        }
    }

    private boolean sentinelKnowsTheReplica() {
        try (StatefulRedisSentinelConnection<String, String> sentinel = sentinel()) {
            return sentinel.sync().info("sentinel").contains("slaves=1");
        }
    }

    private StatefulRedisSentinelConnection<String, String> sentinel() {
        return client.connectSentinel(RedisURI.builder().withHost("127.0.0.1").withPort(sentinelPort)
                .withTimeout(Duration.ofSeconds(5)).build());
    }

    private StatefulRedisConnection<String, String> direct(int port) {
        return client.connect(RedisURI.builder().withHost("127.0.0.1").withPort(port)
                .withTimeout(Duration.ofSeconds(5)).build());
    }

    private Process start(String name, List<String> options) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("redis-server", "--bind", "127.0.0.1", "--dir", dir.toString(),
                "--save", "", "--appendonly", "no", "--daemonize", "no", "--dbfilename", name + ".rdb"));
        cmd.addAll(options);
        Process process = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(dir.resolve(name + ".log").toFile()).start();
        processes.add(process);
        int port = Integer.parseInt(options.get(1));
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (true) {
            if (pong(port)) {
                return process;
            }
            if (!process.isAlive() || System.nanoTime() > deadline) {
                throw new IllegalStateException("redis-server (" + name + ") did not start on port " + port + ": "
                        + Files.readString(dir.resolve(name + ".log")));
            }
            Thread.sleep(20); // polling a process we started for readiness, not synchronising threads
        }
    }

    private static boolean pong(int port) {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(2000);
            socket.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            byte[] reply = new byte[5];
            return socket.getInputStream().readNBytes(reply, 0, 5) == 5
                    && new String(reply, StandardCharsets.US_ASCII).equals("+PONG");
        } catch (IOException notYet) {
            return false;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
