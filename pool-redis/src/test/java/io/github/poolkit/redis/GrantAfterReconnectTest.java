package io.github.poolkit.redis;

import static io.github.poolkit.redis.RedisPermitSemaphoreTest.assertState;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.poolkit.Permit;
import io.lettuce.core.KillArgs;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.Delay;
import io.lettuce.core.resource.DefaultClientResources;
import java.lang.reflect.Field;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A grant published while the waiter's pub/sub connection is down (closed by Redis, or Redis restarted) is found as
 * soon as Lettuce has re-subscribed the waiter's grant channel, not at the waiter's next heartbeat (lease time / 3:
 * 10 s here, longer than any wait below).
 *
 * <p>The waiter's Lettuce client reconnects only {@link #RECONNECT_DELAY} after losing a connection (the holder's
 * reconnects at once), so the holder's release, and the grant message it publishes, certainly come while the waiter's
 * grant channel is not subscribed; the tests check that with {@code PUBSUB CHANNELS}, and never wait for the
 * re-subscription before the release. One more holds back the answer of the waiter's acquire until after the
 * re-subscription: the request, not yet known to be waiting then, is checked when its answer comes.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GrantAfterReconnectTest {

    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final Duration RECONNECT_DELAY = Duration.ofSeconds(3);

    @RegisterExtension
    static final RedisServer redis = RedisServer.withAof();

    @RegisterExtension
    final SemaphoreInstances semaphores = new SemaphoreInstances(redis);

    private ClientResources slowResources;
    private RedisClient slowClient;
    private RedisPermitSemaphore waiter;

    @BeforeEach
    void slowToReconnect() {
        slowResources = DefaultClientResources.builder().reconnectDelay(Delay.constant(RECONNECT_DELAY)).build();
        slowClient = RedisClient.create(slowResources, RedisURI.builder().withHost("127.0.0.1")
                .withPort(redis.port()).withTimeout(Duration.ofSeconds(10)).build());
    }

    @AfterEach
    void closeWaiter() {
        if (waiter != null) {
            waiter.close();
        }
        slowClient.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        slowResources.shutdown(0, 2, TimeUnit.SECONDS);
    }

    /** Redis closes the pub/sub connections only, or the script connections as well. */
    @ParameterizedTest(name = "script connections closed too: {0}")
    @ValueSource(booleans = {false, true})
    void aGrantPublishedWhileThePubSubConnectionIsClosedByRedisIsFoundOnReSubscribing(boolean normalToo)
            throws Exception {
        Queue queue = queueAWaiter();
        try (StatefulRedisConnection<String, String> admin = redis.client().connect()) {
            if (normalToo) {
                assertThat(admin.sync().clientKill(KillArgs.Builder.typeNormal().skipme())).isPositive();
            }
            assertThat(admin.sync().clientKill(KillArgs.Builder.typePubsub().skipme())).isPositive();
            queue.releaseWhileTheWaiterIsNotSubscribed(admin);
        }
        queue.assertGrantedOnReSubscribing();
    }

    @Test
    void aGrantPublishedWhileTheWaiterIsStillReconnectingAfterARedisRestartIsFoundOnReSubscribing() throws Exception {
        Queue queue = queueAWaiter();
        redis.restart(); // with AOF: the lease and the place in line survive it
        try (StatefulRedisConnection<String, String> admin = redis.client().connect()) {
            await().ignoreExceptionsInstanceOf(SemaphoreUnavailableException.class)
                    .until(() -> queue.holder.waiting() == 1); // the holder has reconnected
            queue.releaseWhileTheWaiterIsNotSubscribed(admin);
        }
        queue.assertGrantedOnReSubscribing();
    }

    /**
     * The waiter's "queued" answer is read only after the re-subscription was confirmed (the check made then did not
     * know the request was waiting): the request is checked when that answer comes.
     */
    @Test
    void aQueuedAnswerReadAfterTheReSubscriptionIsCheckedThen() throws Exception {
        CompletableFuture<Void> answerRead = new CompletableFuture<>();
        UnaryOperator<ScriptCalls> slowAcquireAnswer = calls -> new ScriptCalls() {
            @Override
            public CompletionStage<List<Object>> evalsha(String sha, String[] keys, String[] argv) {
                return held(argv, calls.evalsha(sha, keys, argv));
            }

            @Override
            public CompletionStage<List<Object>> eval(String source, String[] keys, String[] argv) {
                return held(argv, calls.eval(source, keys, argv));
            }

            private CompletionStage<List<Object>> held(String[] argv, CompletionStage<List<Object>> answer) {
                return argv[0].equals("acquire") ? answer.thenCombine(answerRead, (a, go) -> a) : answer;
            }
        };
        Queue queue = queueAWaiter(slowAcquireAnswer); // in line in Redis; the waiter has not read that yet
        try (StatefulRedisConnection<String, String> admin = redis.client().connect()) {
            assertThat(admin.sync().clientKill(KillArgs.Builder.typePubsub().skipme())).isPositive();
            queue.releaseWhileTheWaiterIsNotSubscribed(admin);
        }
        WaitingChecks checks = checksOf(waiter);
        await().until(() -> checks.subscriptions() == 2); // re-subscribed: that check found no request in line
        answerRead.complete(null);
        queue.assertGrantedOnReSubscribing();
    }

    /** A holder of 3 of 4 permits (quick to reconnect) and the waiter, in line for 2. */
    private Queue queueAWaiter() throws Exception {
        return queueAWaiter(UnaryOperator.identity());
    }

    private Queue queueAWaiter(UnaryOperator<ScriptCalls> waiterLink) throws Exception {
        RedisPermitSemaphore holder = semaphores.open(4, LEASE, Duration.ofSeconds(2));
        String channels = "poolkit:semaphore:{" + semaphores.name() + "}:grants:*";
        List<String> holderChannel;
        try (StatefulRedisConnection<String, String> admin = redis.client().connect()) {
            holderChannel = admin.sync().pubsubChannels(channels);
            waiter = new RedisPermitSemaphore(RedisPermitSemaphore.builder(slowClient, semaphores.name()).size(4)
                    // the command timeout outlasts a held-back answer
                    .leaseTime(LEASE).commandTimeout(Duration.ofSeconds(10)), waiterLink);
            List<String> both = admin.sync().pubsubChannels(channels);
            assertThat(both).hasSize(2).containsAll(holderChannel);
            String waiterChannel = both.stream().filter(c -> !holderChannel.contains(c)).findFirst().orElseThrow();
            Permit held = holder.acquirePermit(3);
            CompletableFuture<Permit> queued = waiter.acquireAsync(2);
            await().until(() -> holder.waiting() == 1);
            return new Queue(holder, held, queued, waiterChannel);
        }
    }

    private static WaitingChecks checksOf(RedisPermitSemaphore semaphore) throws ReflectiveOperationException {
        Field field = RedisPermitSemaphore.class.getDeclaredField("requests");
        field.setAccessible(true);
        return ((Requests) field.get(semaphore)).checks();
    }

    private record Queue(RedisPermitSemaphore holder, Permit held, CompletableFuture<Permit> queued,
            String waiterChannel) {

        /** Closes the holder's permit, which grants the waiter in Redis while the waiter cannot hear of it. */
        void releaseWhileTheWaiterIsNotSubscribed(StatefulRedisConnection<String, String> admin) {
            held.close();
            assertThat(held.lost().toCompletableFuture()).isNotDone();
            assertState(holder, 4, 2, 0); // granted in Redis...
            // ...while the waiter's grant channel is not subscribed: the grant message reached nobody
            assertThat(admin.sync().pubsubChannels(waiterChannel)).isEmpty();
            assertThat(queued).isNotDone();
        }

        /** The waiter hears of its grant once re-subscribed, long before its next heartbeat (lease / 3 = 10 s). */
        void assertGrantedOnReSubscribing() throws Exception {
            Permit granted = queued.get(RECONNECT_DELAY.plusSeconds(3).toMillis(), TimeUnit.MILLISECONDS);
            assertThat(granted.isValid()).isTrue();
            granted.close();
            assertState(holder, 4, 0, 0);
        }
    }
}
