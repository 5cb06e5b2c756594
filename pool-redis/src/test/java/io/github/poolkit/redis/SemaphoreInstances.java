package io.github.poolkit.redis;

import java.lang.reflect.Field;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Per test: an empty Redis, a semaphore name (the test method's), instances of that semaphore closed after the test,
 * and Awaitility polling every 10 ms (each poll is one round trip to a loopback Redis).
 *
 * <pre>{@code @RegisterExtension final SemaphoreInstances semaphores = new SemaphoreInstances(redis);}</pre>
 */
final class SemaphoreInstances implements BeforeEachCallback, AfterEachCallback {

    private final RedisServer redis;
    private final List<RedisPermitSemaphore> opened = new ArrayList<>();
    private String name;

    SemaphoreInstances(RedisServer redis) {
        this.redis = redis;
    }

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        redis.flush();
        name = context.getRequiredTestMethod().getName();
        Awaitility.setDefaultPollInterval(Duration.ofMillis(10));
        Awaitility.setDefaultPollDelay(Duration.ZERO);
        Awaitility.setDefaultTimeout(Duration.ofSeconds(20));
    }

    @Override
    public void afterEach(ExtensionContext context) {
        opened.forEach(RedisPermitSemaphore::close);
        opened.clear();
        Awaitility.reset();
    }

    /** @return the semaphore's name in this test */
    String name() {
        return name;
    }

    /** @return a builder for one more instance of this test's semaphore */
    RedisPermitSemaphore.Builder builder() {
        return RedisPermitSemaphore.builder(redis.client(), name);
    }

    /** @return a new instance (its own connections, as another service instance would have), closed after the test */
    RedisPermitSemaphore open(RedisPermitSemaphore.Builder builder) {
        RedisPermitSemaphore semaphore = builder.build();
        opened.add(semaphore);
        return semaphore;
    }

    /** @return a new instance whose script calls go through {@code link}, closed after the test */
    RedisPermitSemaphore open(RedisPermitSemaphore.Builder builder, ScriptLink link) {
        RedisPermitSemaphore semaphore = new RedisPermitSemaphore(builder, link);
        opened.add(semaphore);
        return semaphore;
    }

    RedisPermitSemaphore open(long size, Duration leaseTime, Duration commandTimeout) {
        return open(builder().size(size).leaseTime(leaseTime).commandTimeout(commandTimeout));
    }

    /** Unsubscribes an instance's grant channel: Redis's grant messages no longer reach it (only its renewals tell). */
    static void unsubscribeGrants(RedisPermitSemaphore semaphore) throws ReflectiveOperationException {
        Field link = RedisPermitSemaphore.class.getDeclaredField("link");
        link.setAccessible(true);
        Field connections = RedisLink.class.getDeclaredField("connections");
        connections.setAccessible(true);
        Object open = link.get(semaphore);
        synchronized (open) { // the link's lock guards its connections
            ((Connections) connections.get(open)).grants().sync().unsubscribe();
        }
    }
}
