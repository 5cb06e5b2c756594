package io.github.poolkit.benchmarks;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A yardstick, not a semaphore: two Lua scripts, one per acquire and one per release, run with {@code EVALSHA}
 * through Lettuce the way {@code RedisPermitSemaphore} runs its own (one asynchronous call, the caller waiting on its
 * future). It prices the Redis work of a design without its client code, so that a benchmark shows how much of a
 * peer's latency is the script itself. Neither script checks anything a real semaphore must (no line, no reaping):
 * each is a lower bound for the scripts of its kind, never something to ship.
 */
final class ScriptYardstick implements RedisSemaphorePeer.Permits {

    /**
     * The least Redis work of a grant that is a lease with a fencing token, kept in one hash: Redis's clock, the
     * counters read, the count, the fencing counter and the lease ({@code l:<id>} = weight, token, expiry) written.
     * The release reads the count and the lease, drops the lease and writes the count. Three and four Redis calls,
     * as poolkit's script makes on its short path, with none of its checks.
     */
    static final String LEASE_ACQUIRE = """
            local t = redis.call('TIME')
            local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
            local s = redis.call('HMGET', KEYS[1], 'size', 'used', 'fence', 'reapAt', 'waiting')
            local fence = (tonumber(s[3]) or 0) + 1
            redis.call('HSET', KEYS[1], 'used', (tonumber(s[2]) or 0) + 1, 'fence', fence,
                'l:' .. ARGV[1], string.format('%d %d %d', 1, fence, now + 30000))
            return fence
            """;

    static final String LEASE_RELEASE = """
            redis.call('TIME')
            local s = redis.call('HMGET', KEYS[1], 'used', 'reapAt', 'waiting', 'l:' .. ARGV[1])
            redis.call('HDEL', KEYS[1], 'l:' .. ARGV[1])
            redis.call('HSET', KEYS[1], 'used', tonumber(s[1]) - 1)
            return 1
            """;

    /**
     * A bare counter of free permits, with the calls Redisson's {@code RSemaphore} makes: a read and a decrement to
     * acquire, an increment and a message to release. No lease, no token, no check on release.
     */
    static final String COUNTER_ACQUIRE = """
            local free = redis.call('GET', KEYS[1])
            if free and tonumber(free) >= 1 then
                redis.call('DECRBY', KEYS[1], 1)
                return 1
            end
            return 0
            """;

    static final String COUNTER_RELEASE = """
            local free = redis.call('INCRBY', KEYS[1], 1)
            redis.call('PUBLISH', KEYS[1] .. ':released', free)
            return 1
            """;

    private final RedisClient client;
    private final StatefulRedisConnection<String, String> connection;
    private final RedisAsyncCommands<String, String> commands;
    private final String[] keys;
    private final String acquireSha;
    private final String releaseSha;
    private final AtomicLong ids = new AtomicLong();

    /** The lease floor ({@link #LEASE_ACQUIRE}, {@link #LEASE_RELEASE}) in the hash {@code name}. */
    static ScriptYardstick leaseFloor(int port, String name) {
        return new ScriptYardstick(port, name, LEASE_ACQUIRE, LEASE_RELEASE);
    }

    /** The bare counter ({@link #COUNTER_ACQUIRE}, {@link #COUNTER_RELEASE}) in the key {@code name}. */
    static ScriptYardstick counter(int port, String name, int size) {
        ScriptYardstick counter = new ScriptYardstick(port, name, COUNTER_ACQUIRE, COUNTER_RELEASE);
        try {
            counter.connection.sync().set(name, Integer.toString(size));
        } catch (RuntimeException | Error e) {
            counter.close();
            throw e;
        }
        return counter;
    }

    /** Connects and loads both scripts; shuts the client down if that fails. */
    private ScriptYardstick(int port, String name, String acquireScript, String releaseScript) {
        client = RedisClient.create("redis://127.0.0.1:" + port);
        try {
            connection = client.connect();
            commands = connection.async();
            keys = new String[] {name};
            acquireSha = connection.sync().scriptLoad(acquireScript);
            releaseSha = connection.sync().scriptLoad(releaseScript);
        } catch (RuntimeException | Error e) {
            client.shutdown();
            throw e;
        }
    }

    @Override
    public Object acquire() throws InterruptedException {
        String id = Long.toString(ids.incrementAndGet());
        long reply = await(commands.evalsha(acquireSha, ScriptOutputType.INTEGER, keys, id));
        if (reply == 0) {
            throw new IllegalStateException("yardstick " + keys[0] + " ran out of permits");
        }
        return id;
    }

    @Override
    public void release(Object grant) {
        try {
            await(commands.evalsha(releaseSha, ScriptOutputType.INTEGER, keys, (String) grant));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static long await(RedisFuture<Long> reply) throws InterruptedException {
        try {
            return reply.toCompletableFuture().get();
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    @Override
    public void close() {
        connection.close();
        client.shutdown();
    }
}
