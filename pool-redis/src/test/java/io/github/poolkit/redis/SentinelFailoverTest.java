package io.github.poolkit.redis;

import static io.github.poolkit.redis.RedisPermitSemaphoreTest.assertState;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.poolkit.Permit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A Sentinel failover that takes longer than the lease time (a primary, its replica and one Sentinel on loopback; the
 * application reaches Redis through the Sentinel): the holder learns that its lease was lost before the replica is
 * promoted, and on the new primary the permits are granted to another instance exactly once.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class SentinelFailoverTest {

    /** The Sentinel fails over only after the primary has been silent for twice the lease time. */
    private static final Duration LEASE = Duration.ofSeconds(1);

    @RegisterExtension
    static final SentinelGroup group = new SentinelGroup(LEASE.multipliedBy(2));

    private final List<RedisPermitSemaphore> opened = new ArrayList<>();

    @AfterEach
    void closeInstances() {
        opened.forEach(RedisPermitSemaphore::close);
    }

    private RedisPermitSemaphore open() {
        RedisPermitSemaphore semaphore = RedisPermitSemaphore.builder(group.client(), "failover").size(2)
                .leaseTime(LEASE).commandTimeout(Duration.ofMillis(500)).build();
        opened.add(semaphore);
        return semaphore;
    }

    @Test
    void aFailoverSlowerThanTheLeaseTellsTheHolderThenThePermitsAreGrantedOnceOnTheNewPrimary() throws Exception {
        RedisPermitSemaphore holder = open();
        Permit permit = holder.acquirePermit(2);
        CompletableFuture<Void> lost = permit.lost().toCompletableFuture();
        group.awaitReplicaInSync(); // the lease is on the replica too: it survives the failover

        long killedAt = System.nanoTime();
        group.killPrimary();
        lost.get(20, TimeUnit.SECONDS);
        Duration lostAfter = Duration.ofNanos(System.nanoTime() - killedAt);
        assertThat(permit.isValid()).isFalse();
        // a lease time of silence after the last renewal Redis answered (at most one period, lease / 3, before the
        // kill), noticed at the next heartbeat tick
        assertThat(lostAfter).isLessThan(LEASE.plus(LEASE.dividedBy(3)).plusMillis(700));

        await().atMost(Duration.ofSeconds(30)).until(() -> group.primaryPortBySentinel() == group.replicaPort());
        Duration failover = Duration.ofNanos(System.nanoTime() - killedAt);
        System.out.println("lease lost after " + lostAfter.toMillis() + " ms; failover done after "
                + failover.toMillis() + " ms");
        assertThat(failover).as("the failover took longer than the lease").isGreaterThan(LEASE);
        assertThat(lostAfter).as("the holder knew before the failover ended").isLessThan(failover);

        // on the new primary the replicated lease has expired by Redis's clock: another instance gets the permits
        RedisPermitSemaphore other = open();
        Permit granted = other.acquireAsync(2).get(20, TimeUnit.SECONDS);
        assertThat(granted.fencingToken()).isGreaterThan(permit.fencingToken());
        // the holder's instance reconnects through the Sentinel; closing its lost permit is quiet and releases nothing
        await().atMost(Duration.ofSeconds(20)).ignoreExceptionsInstanceOf(SemaphoreUnavailableException.class)
                .until(() -> holder.used() == 2);
        permit.close();
        assertState(other, 2, 2, 0);
        granted.close();
        assertState(other, 2, 0, 0);
        try (Permit again = holder.acquirePermit(2)) {
            assertThat(again.isValid()).isTrue();
        }
    }
}
