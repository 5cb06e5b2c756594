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
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The two connections of one semaphore instance, from the application's Lettuce client (standalone, Sentinel or
 * Cluster): one for scripts (so they run in the order sent), one for this instance's grant channel. Lettuce
 * reconnects both, and re-subscribes, after a connection loss.
 *
 * @param commands  the script connection
 * @param scripting its asynchronous commands
 * @param grants    the pub/sub connection; {@link #listen} subscribes it
 */
record Connections(StatefulConnection<String, String> commands, RedisScriptingAsyncCommands<String, String> scripting,
        StatefulRedisPubSubConnection<String, String> grants) {

    /**
     * {@return the Lettuce client that a Spring Data Redis connection factory has at each call} (a factory stopped and
     * started again makes a new one); checks now that the factory is Lettuce's and started.
     */
    static Supplier<AbstractRedisClient> lettuceClients(RedisConnectionFactory connectionFactory, String name) {
        lettuceClient(connectionFactory, name);
        return () -> lettuceClient(connectionFactory, name);
    }

    /** {@return {@code client} at each call} */
    static Supplier<AbstractRedisClient> always(AbstractRedisClient client) {
        Objects.requireNonNull(client, "client");
        return () -> client;
    }

    /** {@return the Lettuce client of a Spring Data Redis connection factory} */
    static AbstractRedisClient lettuceClient(RedisConnectionFactory connectionFactory, String name) {
        if (!(connectionFactory instanceof LettuceConnectionFactory lettuce)) {
            throw new IllegalArgumentException("The cluster semaphore '" + name + "' needs Lettuce, got "
                    + (connectionFactory == null ? "null" : connectionFactory.getClass().getName())
                    + ": set spring.data.redis.client-type=lettuce (Lettuce is Spring Boot's default)");
        }
        return lettuce.getRequiredNativeClient();
    }

    /**
     * Opens both; closes what it opened and throws {@link SemaphoreUnavailableException} when Redis cannot be reached.
     */
    static Connections open(AbstractRedisClient client, SemaphoreKeys keys) {
        StatefulConnection<String, String> commands = null;
        try {
            if (client instanceof RedisClient redis) {
                StatefulRedisConnection<String, String> c = redis.connect(StringCodec.UTF8);
                commands = c;
                return new Connections(c, c.async(), redis.connectPubSub(StringCodec.UTF8));
            } else if (client instanceof RedisClusterClient cluster) {
                StatefulRedisClusterConnection<String, String> c = cluster.connect(StringCodec.UTF8);
                commands = c;
                return new Connections(c, c.async(), cluster.connectPubSub(StringCodec.UTF8));
            }
            throw new IllegalArgumentException("Unsupported Lettuce client " + client.getClass().getName()
                    + ": use a RedisClient or a RedisClusterClient");
        } catch (IllegalArgumentException e) {
            throw e;
        } catch (IllegalStateException e) {
            if (commands != null) {
                commands.close();
            }
            if (e.getMessage() == null || !e.getMessage().contains("RedisURI is not available")) {
                throw unreachable(keys, null, e); // a client shut down ("event executor group is terminated"), say
            }
            // not Redis being down: a client that cannot connect by itself
            throw new IllegalArgumentException("The cluster semaphore '" + keys.name() + "' cannot connect with this"
                    + " Lettuce client (" + e.getMessage() + "). It needs a standalone, Sentinel or Cluster Redis; a"
                    + " static master/replica setup (spring.data.redis.masterreplica.nodes), whose client has no"
                    + " address of its own, is not supported: point it at the primary (spring.data.redis.host/port)"
                    + " or use Sentinel", e);
        } catch (RuntimeException e) {
            if (commands != null) {
                commands.close();
            }
            throw unreachable(keys, null, e); // bounded by the client's own connect and command timeouts, not ours
        }
    }

    /**
     * Hands every message on {@code channel} to {@code onMessage}, runs {@code onSubscribed} each time Redis confirms
     * the subscription (this one, and Lettuce's after each reconnect), and subscribes, waiting at most
     * {@code timeout}; on failure closes both connections and throws {@link SemaphoreUnavailableException}.
     */
    void listen(String channel, Consumer<String> onMessage, Runnable onSubscribed, SemaphoreKeys keys,
            Duration timeout) {
        grants.addListener(new RedisPubSubAdapter<>() {
            @Override
            public void message(String from, String message) {
                onMessage.accept(message);
            }

            @Override
            public void subscribed(String subscribedTo, long count) {
                if (channel.equals(subscribedTo)) {
                    onSubscribed.run();
                }
            }
        });
        try {
            grants.async().subscribe(channel).get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (Exception e) {
            close();
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw unreachable(keys, timeout, e);
        }
    }

    /** Closes both. */
    void close() {
        grants.close();
        commands.close();
    }

    /** @param timeout how long it waited, or {@code null} when the Redis client's own timeouts bounded the wait */
    private static SemaphoreUnavailableException unreachable(SemaphoreKeys keys, Duration timeout, Exception e) {
        Throwable cause = SemaphoreScript.unwrap(e);
        return new SemaphoreUnavailableException("Cluster semaphore '" + keys.name() + "' could not connect to"
                + " Redis" + ((timeout != null) ? " within " + timeout.toMillis() + " ms" : "") + ": " + cause
                + ". Check that Redis is up and reachable (spring.data.redis.*) and that its client is open", cause);
    }
}
