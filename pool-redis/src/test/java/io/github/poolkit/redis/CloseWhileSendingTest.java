package io.github.poolkit.redis;

import static io.github.poolkit.redis.RedisPermitSemaphoreTest.assertState;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code close()} while a caller's acquire is on its way out: its request is in the table, so the close fails it and
 * sends its cancel, but the acquire itself is sent only after that cancel has run in Redis (the caller's thread was
 * preempted between the two). Redis then grants or queues it for nobody; the close waits for the acquire's answer and
 * withdraws it once more, so once {@code close()} returns, Redis holds nothing for it (not a permit or a place in line
 * held by nobody until the lease time).
 */
@Timeout(60)
class CloseWhileSendingTest {

    private static final Duration LEASE = Duration.ofSeconds(60);

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    @RegisterExtension
    final SemaphoreInstances semaphores = new SemaphoreInstances(redis);

    @ParameterizedTest(name = "queued: {0}")
    @ValueSource(booleans = {false, true})
    void anAcquireSentAfterTheClosesCancelLeavesNothingHeldOnceCloseReturns(boolean queued) throws Exception {
        ScriptLink link = new ScriptLink();
        RedisPermitSemaphore closing = semaphores.open(semaphores.builder().size(3).leaseTime(LEASE), link);
        RedisPermitSemaphore other = semaphores.open(3, LEASE, Duration.ofSeconds(2));
        if (queued) {
            other.acquire(3);
        }
        CompletableFuture<Void> reached = new CompletableFuture<>();
        CompletableFuture<Void> cancelRan = new CompletableFuture<>();
        CompletableFuture<Void> acquireSent = new CompletableFuture<>();
        link.holdBeforeSending("acquire", reached, cancelRan, acquireSent);
        List<List<Object>> cancels = new CopyOnWriteArrayList<>();
        link.watch((argv, answer) -> {
            if (argv[0].equals("cancel")) {
                cancels.add(answer);
                cancelRan.complete(null); // the acquire goes out now, behind the close's cancel...
                // ...and is on the connection before the close learns that its cancel ran
                acquireSent.completeOnTimeout(null, 10, TimeUnit.SECONDS).join();
            }
        });
        CompletableFuture<Object> caller = new CompletableFuture<>();
        Thread acquirer = new Thread(() -> {
            try {
                closing.acquire(1);
                caller.complete("acquired");
            } catch (Throwable t) {
                caller.complete(t);
            }
        });
        acquirer.setDaemon(true);
        acquirer.start();
        reached.get(10, TimeUnit.SECONDS);

        closing.close();

        assertThat(cancels).as("the close's cancel found nothing; the one the acquire's answer sent withdrew it")
                .hasSize(2);
        assertState(other, 3, queued ? 3 : 0, 0);
        assertThat(caller.get(10, TimeUnit.SECONDS)).isInstanceOf(SemaphoreUnavailableException.class);
        if (queued) {
            other.release(3);
            assertState(other, 3, 0, 0);
        }
    }
}
