package io.github.poolkit.redis;

import static io.github.poolkit.redis.RedisPermitSemaphoreTest.assertState;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.github.poolkit.Permit;
import io.lettuce.core.KillArgs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Faults, each ending with an audit that nothing was over-granted and nothing lost: a holder JVM killed with
 * {@code kill -9}, Redis frozen with {@code SIGSTOP} longer than a request's timeout, Redis restarted (with AOF, the
 * recommended setup), and random load from three JVMs with cancellations.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class RedisFaultTest {

    @RegisterExtension
    static final RedisServer redis = RedisServer.withAof();

    @RegisterExtension
    final SemaphoreInstances semaphores = new SemaphoreInstances(redis);

    private RedisPermitSemaphore open(long size, Duration leaseTime, Duration commandTimeout) {
        return semaphores.open(size, leaseTime, commandTimeout);
    }

    @Test
    void aHolderKilledWithKill9LosesItsPermitsWithinTheLeaseTime() throws Exception {
        Duration lease = Duration.ofSeconds(1);
        try (ChildJvm holder = new ChildJvm(HolderProcess.class, Integer.toString(redis.port()), semaphores.name(),
                "3", "2", Long.toString(lease.toMillis()))) {
            long token = Long.parseLong(holder.awaitLine("HELD ", Duration.ofSeconds(30)).substring(5));
            RedisPermitSemaphore observer = open(3, lease, Duration.ofSeconds(2));
            assertState(observer, 3, 2, 0);
            assertThat(observer.tryAcquire(2)).isFalse();

            long killedAt = System.nanoTime();
            holder.kill9();
            Permit all = observer.acquirePermit(3); // granted once the dead holder's lease is reaped
            long waited = System.nanoTime() - killedAt;

            // the last renewal was at most lease/3 before the kill; the observer's own heartbeat (every lease/3)
            // runs the script that reaps it
            assertThat(Duration.ofNanos(waited)).isLessThan(lease.plus(lease.dividedBy(3)).plusMillis(700));
            assertThat(all.fencingToken()).isGreaterThan(token);
            all.close();
            assertState(observer, 3, 0, 0);
        }
    }

    /**
     * Redis closes every client connection ({@code CLIENT KILL}, as a proxy restart or an idle timeout would): Lettuce
     * reconnects and re-subscribes, the holder keeps its lease, and the waiter still hears of its grant.
     */
    @Test
    void connectionsClosedByRedisAreReopenedWithoutLosingALeaseOrAGrant() throws Exception {
        // a lease of 30 s: no heartbeat (every 10 s) comes within the test, so only a grant message can tell the waiter
        RedisPermitSemaphore holder = open(4, Duration.ofSeconds(30), Duration.ofSeconds(2));
        RedisPermitSemaphore waiter = open(4, Duration.ofSeconds(30), Duration.ofSeconds(2));
        Permit held = holder.acquirePermit(3);
        CompletableFuture<Permit> queued = waiter.acquireAsync(2);
        await().until(() -> holder.waiting() == 1);

        try (var admin = redis.client().connect()) {
            String grantChannels = "poolkit:semaphore:{" + semaphores.name() + "}:grants:*";
            assertThat(admin.sync().pubsubChannels(grantChannels)).hasSize(2); // one per instance
            assertThat(admin.sync().clientKill(KillArgs.Builder.typeNormal().skipme())).isPositive();
            assertThat(admin.sync().clientKill(KillArgs.Builder.typePubsub().skipme())).isPositive();
            // both subscribed again before the release, so the grant goes by message (a grant published before
            // that is found on re-subscribing: GrantAfterReconnectTest)
            await().until(() -> admin.sync().pubsubChannels(grantChannels).size() == 2);
        }
        await().until(() -> holder.waiting() == 1); // the place in line survived the reconnect
        assertThat(held.isValid()).isTrue();
        held.close();
        Permit granted = queued.get(5, TimeUnit.SECONDS); // told on the re-subscribed grant channel
        assertThat(held.lost().toCompletableFuture()).isNotDone();
        granted.close();
        assertState(holder, 4, 0, 0);
    }

    @Test
    void redisFrozenLongerThanARequestsTimeoutGivesAClearErrorInTimeThenRecovers() throws Exception {
        RedisPermitSemaphore a = open(2, Duration.ofSeconds(10), Duration.ofMillis(500));
        RedisPermitSemaphore b = open(2, Duration.ofSeconds(10), Duration.ofMillis(500));
        Permit held = a.acquirePermit(1);

        redis.pause();
        try {
            long start = System.nanoTime();
            assertThatThrownBy(() -> b.tryAcquire(1, Duration.ofMillis(300)))
                    .isInstanceOf(SemaphoreUnavailableException.class).hasMessageContaining("did not answer");
            // the request's timeout, then the command timeout for Redis to confirm the withdrawal (plus slack for a
            // slow machine; without the bound it would wait for the lease of 10 s)
            assertThat(Duration.ofNanos(System.nanoTime() - start))
                    .isLessThan(Duration.ofMillis(300 + 500 + 500 + 2000));

            start = System.nanoTime();
            assertThatThrownBy(() -> b.acquire(1)).isInstanceOf(SemaphoreUnavailableException.class)
                    .hasMessageContaining("did not answer within 500 ms");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(500 + 2000));
            assertThatThrownBy(b::used).isInstanceOf(SemaphoreUnavailableException.class);
        } finally {
            redis.resume();
        }

        // the requests Redis ran late were withdrawn: only a's permit is held, nobody waits
        await().until(() -> b.used() == 1 && b.waiting() == 0);
        held.close(); // its lease outlived the pause
        assertThat(b.tryAcquire(2)).isTrue();
        b.release(2);
        assertState(b, 2, 0, 0);
    }

    @Test
    void aWaitingRequestFailsOnceRedisHasBeenSilentForLongerThanTheLeaseTimeThenTheLineIsClean() throws Exception {
        Duration lease = Duration.ofMillis(600);
        RedisPermitSemaphore a = open(1, lease, Duration.ofMillis(200));
        RedisPermitSemaphore b = open(1, lease, Duration.ofMillis(200));
        Permit held = a.acquirePermit(1);
        CompletableFuture<Permit> waiting = b.acquireAsync(1); // no timeout of its own
        await().until(() -> a.waiting() == 1);

        long start = System.nanoTime(); // before the pause: its last renewal may have been just before
        redis.pause();
        try {
            // its place is renewed every lease / 3; once Redis has been silent for longer than the lease time, the
            // place is lost, and the request says so instead of waiting for a Redis that may never come back
            assertThatThrownBy(() -> waiting.get(10, TimeUnit.SECONDS)).cause()
                    .isInstanceOf(SemaphoreUnavailableException.class).hasMessageContaining("lost its place in line");
            // its place was last confirmed at most one renewal period (lease / 3) before the pause
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThan(lease.dividedBy(2))
                    .isLessThan(Duration.ofSeconds(3));
        } finally {
            redis.resume();
        }
        // the place is gone (withdrawn, or expired: Redis's clock ran on while it was frozen)
        await().until(() -> a.waiting() == 0);
        // Redis was silent for longer than the lease time: the holder was told its lease was lost, and closes quietly
        assertThat(held.lost()).succeedsWithin(Duration.ofSeconds(5));
        assertThat(held.isValid()).isFalse();
        held.close();
        assertState(b, 1, 0, 0);
        assertThat(b.tryAcquire(1)).isTrue();
        b.release(1);
    }

    @Test
    void anAcquireAnsweredAfterItsCallerGaveUpIsWithdrawnOnceMoreBehindItsAnswer() throws Exception {
        // The first cancel runs after the acquire here (one connection keeps the order); it would not if Redis had
        // lost the script and the acquire were sent again whole behind it. So an acquire answered "queued" or
        // "granted" after the caller gave up is always followed by one more cancel, sent once Redis has run it.
        // renewals every 20 s: none runs during the test, so Redis runs only the calls counted below
        RedisPermitSemaphore a = open(1, Duration.ofSeconds(60), Duration.ofSeconds(2));
        RedisPermitSemaphore b = open(1, Duration.ofSeconds(60), Duration.ofSeconds(2));
        a.acquire(1);
        try (var admin = redis.client().connect()) {
            admin.sync().configResetstat();
            redis.pause();
            try {
                CompletableFuture<Permit> waiting = b.acquireAsync(1); // sent, not yet run
                waiting.cancel(true); // its cancel is sent behind it
            } finally {
                redis.resume();
            }
            // the acquire (queued), its cancel, and one more cancel after the acquire's answer
            await().atMost(Duration.ofSeconds(5))
                    .until(() -> admin.sync().info("commandstats").contains("cmdstat_evalsha:calls=3,"));
        }
        assertState(b, 1, 1, 0);
        a.release(1);
        assertThat(b.tryAcquire(1)).isTrue();
        b.release(1);
    }

    @Test
    void redisRestartedWithAofKeepsLeasesAndTheLine() throws Exception {
        RedisPermitSemaphore a = open(3, Duration.ofSeconds(20), Duration.ofSeconds(2));
        RedisPermitSemaphore b = open(3, Duration.ofSeconds(20), Duration.ofSeconds(2));
        Permit held = a.acquirePermit(2);
        CompletableFuture<Permit> waiter = b.acquireAsync(3);
        await().until(() -> a.waiting() == 1);

        redis.restart();

        await().ignoreExceptionsInstanceOf(SemaphoreUnavailableException.class)
                .until(() -> a.used() == 2 && a.waiting() == 1);
        held.close(); // the lease survived the restart
        Permit granted = waiter.get(20, TimeUnit.SECONDS); // by message, or by the heartbeat if it was lost
        assertThat(granted.fencingToken()).isGreaterThan(held.fencingToken());
        granted.close();
        assertState(a, 3, 0, 0);
    }

    @Test
    void manyClientsInThreeJvmsUnderRandomLoadNeverOverGrantAndKeepFifo() throws Exception {
        long size = 5;
        String port = Integer.toString(redis.port());
        String name = semaphores.name();
        List<long[]> fifo = new ArrayList<>();
        try (ChildJvm first = new ChildJvm(LoadProcess.class, port, name, "5", "3", "50", "1", "10000");
                ChildJvm second = new ChildJvm(LoadProcess.class, port, name, "5", "3", "50", "2", "10000")) {
            first.awaitLine("READY", Duration.ofSeconds(30));
            second.awaitLine("READY", Duration.ofSeconds(30));
            try (var start = redis.client().connect()) {
                start.sync().rpush(name + LoadProcess.START_SUFFIX, "go", "go", "go");
            }
            LoadProcess here = new LoadProcess();
            here.run(redis.client(), name, size, 3, 50, 3, Duration.ofSeconds(10));
            assertThat(here.over.get()).as("over-grants seen in this JVM").isZero();
            assertThat(here.errors.get()).as("failed requests in this JVM").isZero();
            assertThat(here.grants.get()).isPositive();
            fifo.addAll(here.fifo);
            for (ChildJvm child : List.of(first, second)) {
                List<String> lines = child.linesUntil("DONE ", Duration.ofSeconds(60));
                String done = lines.get(lines.size() - 1);
                assertThat(done).as("child audit").contains(" over=0 ").endsWith(" errors=0");
                for (String line : lines) {
                    if (line.startsWith("FIFO ")) {
                        String[] parts = line.split(" ");
                        fifo.add(new long[] {Long.parseLong(parts[1]), Long.parseLong(parts[2])});
                    }
                }
                assertThat(child.waitFor(Duration.ofSeconds(20))).isZero();
            }
        }
        assertThat(Long.parseLong(redis.get(name + LoadProcess.AUDIT_SUFFIX))).as("audit counter").isZero();

        fifo.sort(Comparator.comparingLong(pair -> pair[0]));
        System.out.println("grants to waiters audited for FIFO: " + fifo.size());
        assertThat(fifo).as("grants after waiting").hasSizeGreaterThan(10);
        for (int i = 1; i < fifo.size(); i++) {
            assertThat(fifo.get(i)[1]).as("token of ticket %d after ticket %d", fifo.get(i)[0], fifo.get(i - 1)[0])
                    .isGreaterThan(fifo.get(i - 1)[1]);
        }
        RedisPermitSemaphore observer = open(size, Duration.ofSeconds(10), Duration.ofSeconds(2));
        await().until(() -> observer.used() == 0 && observer.waiting() == 0); // nothing lost, nobody left in line
    }
}
