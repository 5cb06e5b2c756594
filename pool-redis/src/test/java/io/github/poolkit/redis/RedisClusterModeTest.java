package io.github.poolkit.redis;

import static io.github.poolkit.redis.RedisPermitSemaphoreTest.assertState;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.poolkit.Permit;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * On Redis Cluster (three primaries, through a {@code RedisClusterClient}): each semaphore's keys share one hash slot,
 * so its script runs on the node that owns it, and its grant messages (published there) reach instances whose
 * pub/sub connection is on another node.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RedisClusterModeTest {

    @RegisterExtension
    static final RedisClusterNodes cluster = new RedisClusterNodes();

    @Test
    void semaphoresOnEveryNodeShareTheirPermitsAndTellGrantsByMessage() throws Exception {
        cluster.flush();
        // names whose slots fall in each third of the 16384 slots, which redis-cli gives one node each
        List<String> names = List.of("b", "c", "gpu-memory");
        assertThat(names.stream().map(cluster::slotOf).map(slot -> slot * 3 / 16384).distinct()).hasSize(3);
        for (String name : names) {
            // a lease of 30 s: no heartbeat (every 10 s) comes within the test, so only a message can tell a grant
            try (RedisPermitSemaphore a = RedisPermitSemaphore.builder(cluster.client(), name).size(10).build();
                    RedisPermitSemaphore b = RedisPermitSemaphore.builder(cluster.client(), name).size(10).build()) {
                Permit held = a.acquirePermit(7);
                assertThat(b.tryAcquire(4)).isFalse();
                CompletableFuture<Permit> large = b.acquireAsync(10);
                await().atMost(Duration.ofSeconds(5)).until(() -> a.waiting() == 1);
                held.close();
                Permit granted = large.get(5, TimeUnit.SECONDS);
                assertThat(granted.fencingToken()).isGreaterThan(held.fencingToken());
                granted.close();
                b.resize(12);
                assertState(a, 12, 0, 0);
            }
        }
    }
}
