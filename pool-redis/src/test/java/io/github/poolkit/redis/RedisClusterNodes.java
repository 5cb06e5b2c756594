package io.github.poolkit.redis;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A Redis Cluster of three primaries (no replicas), Debian's {@code redis-server} with {@code cluster-enabled}, on
 * loopback on free ports, without persistence; the 16384 slots are spread over the three by
 * {@code redis-cli --cluster create}. Stopped after the class; skipped when {@code redis-server} is not installed.
 *
 * <pre>{@code @RegisterExtension static final RedisClusterNodes cluster = new RedisClusterNodes();}</pre>
 */
public final class RedisClusterNodes implements BeforeAllCallback, AfterAllCallback {

    private static final int NODES = 3;

    private final List<Process> processes = new ArrayList<>();
    private final List<Integer> ports = new ArrayList<>();
    private RedisClusterClient client;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        assumeTrue(RedisServer.installed(), "redis-server is not installed (apt-get install redis-server): skipped");
        Path dir = Files.createTempDirectory("poolkit-redis-cluster");
        for (int i = 0; i < NODES; i++) {
            int port = freePort();
            Path node = Files.createDirectories(dir.resolve("node-" + i));
            processes.add(new ProcessBuilder("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
                    "--dir", node.toString(), "--save", "", "--appendonly", "no", "--cluster-enabled", "yes",
                    "--cluster-config-file", node.resolve("nodes.conf").toString())
                    .redirectErrorStream(true).redirectOutput(node.resolve("redis.log").toFile()).start());
            ports.add(port);
        }
        for (int port : ports) {
            Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                    .ignoreExceptions().until(() -> cli("-p", Integer.toString(port), "PING").contains("PONG"));
        }
        List<String> create = new ArrayList<>(List.of("--cluster", "create"));
        ports.forEach(port -> create.add("127.0.0.1:" + port));
        create.addAll(List.of("--cluster-replicas", "0", "--cluster-yes"));
        String created = cli(create.toArray(String[]::new));
        if (!created.contains("[OK] All 16384 slots covered")) {
            throw new IllegalStateException("redis-cli --cluster create failed: " + created);
        }
        for (int port : ports) {
            Awaitility.await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50))
                    .until(() -> cli("-p", Integer.toString(port), "CLUSTER", "INFO").contains("cluster_state:ok"));
        }
        client = RedisClusterClient.create(RedisURI.create("127.0.0.1", ports.get(0)));
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        if (client != null) {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
        for (Process process : processes) {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        }
    }

    /** @return a Lettuce cluster client for these nodes (shared; shut down after the class) */
    public RedisClusterClient client() {
        return client;
    }

    /** Deletes every key on every node (FLUSHALL on each primary). */
    public void flush() {
        try (var connection = client.connect()) {
            connection.sync().flushall();
        }
    }

    /** @return the nodes as {@code spring.data.redis.cluster.nodes} takes them: {@code host:port,host:port,...} */
    public String nodes() {
        return ports.stream().map(port -> "127.0.0.1:" + port).collect(Collectors.joining(","));
    }

    /** @return the hash slot of every key of the semaphore {@code name}, as the cluster computes it */
    public long slotOf(String name) {
        try (var connection = client.connect()) {
            return connection.sync().clusterKeyslot("poolkit:semaphore:{" + name + "}:meta");
        }
    }

    private static String cli(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("redis-cli"));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        process.waitFor();
        return out;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
