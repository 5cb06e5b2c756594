package io.github.poolkit.redis;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisScriptingAsyncCommands;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The two connections of one semaphore instance, from the application's Lettuce client (standalone, Sentinel or
 * Cluster): one for scripts (so they run in the order sent), one subscribed to this instance's grant channel. Lettuce
 * reconnects both, and re-subscribes, after a connection loss.
 *
 * @param commands  the script connection
 * @param scripting its asynchronous commands
 * @param grants    the pub/sub connection, already subscribed
 */
record Connections(StatefulConnection<String, String> commands, RedisScriptingAsyncCommands<String, String> scripting,
        StatefulRedisPubSubConnection<String, String> grants) {

    /**
     * Opens both and subscribes; closes what it opened and throws {@link SemaphoreUnavailableException} when Redis
     * cannot be reached within {@code timeout}.
     */
    static Connections open(AbstractRedisClient client, SemaphoreKeys keys, Duration timeout,
            Consumer<String> onGrantMessage, String owner) {
        StatefulConnection<String, String> commands = null;
        StatefulRedisPubSubConnection<String, String> grants = null;
        try {
            RedisScriptingAsyncCommands<String, String> scripting;
            if (client instanceof RedisClient redis) {
                StatefulRedisConnection<String, String> c = redis.connect(StringCodec.UTF8);
                commands = c;
                scripting = c.async();
                grants = redis.connectPubSub(StringCodec.UTF8);
            } else if (client instanceof RedisClusterClient cluster) {
                StatefulRedisClusterConnection<String, String> c = cluster.connect(StringCodec.UTF8);
                commands = c;
                scripting = c.async();
                grants = cluster.connectPubSub(StringCodec.UTF8);
            } else {
                throw new IllegalArgumentException("Unsupported Lettuce client " + client.getClass().getName()
                        + ": use a RedisClient or a RedisClusterClient");
            }
            grants.addListener(new RedisPubSubAdapter<>() {
                @Override
                public void message(String channel, String message) {
                    onGrantMessage.accept(message);
                }
            });
            grants.async().subscribe(keys.grantChannelPrefix() + owner).get(timeout.toNanos(), TimeUnit.NANOSECONDS);
            return new Connections(commands, scripting, grants);
        } catch (IllegalArgumentException e) {
            throw e;
        } catch (Exception e) {
            if (grants != null) {
                grants.close();
            }
            if (commands != null) {
                commands.close();
            }
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new SemaphoreUnavailableException("Cluster semaphore '" + keys.name() + "' could not connect to"
                    + " Redis within " + timeout.toMillis() + " ms: " + SemaphoreScript.unwrap(e)
                    + ". Check that Redis is up and reachable (spring.data.redis.*)", SemaphoreScript.unwrap(e));
        }
    }
}
