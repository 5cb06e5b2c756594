package io.github.poolkit.benchmarks;

import io.github.poolkit.Permit;
import io.github.poolkit.redis.RedisPermitSemaphore;
import io.lettuce.core.RedisClient;
import java.time.Duration;
import java.util.function.Consumer;
import java.util.function.Function;
import org.redisson.Redisson;
import org.redisson.api.RPermitExpirableSemaphore;
import org.redisson.api.RSemaphore;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * The cluster semaphores compared on one loopback Redis: poolkit's {@link RedisPermitSemaphore} (a lease renewed for
 * the holder, weights, FIFO, fencing token) and Redisson's {@link RSemaphore} (a counter) and
 * {@link RPermitExpirableSemaphore} (a permit id per grant). Each acquires and releases one permit. Two yardsticks
 * ({@link ScriptYardstick}) price the scripts alone: the least work of a lease-keeping grant, and a bare counter.
 */
public enum RedisSemaphorePeer {

    /** {@code acquirePermit(1)} then {@code close()}: one script run each. */
    POOLKIT {
        @Override
        Permits open(int port, String name, int size) {
            return opened(RedisClient.create("redis://127.0.0.1:" + port), RedisClient::shutdown, client -> {
                RedisPermitSemaphore semaphore = RedisPermitSemaphore.builder(client, name).size(size)
                        .leaseTime(Duration.ofSeconds(30)).build();
                return Permits.of(() -> semaphore.acquirePermit(1), grant -> ((Permit) grant).close(), () -> {
                    semaphore.close();
                    client.shutdown();
                });
            });
        }
    },

    /** Redisson's {@code RSemaphore}: {@code acquire()} then {@code release()}. */
    REDISSON_SEMAPHORE {
        @Override
        Permits open(int port, String name, int size) {
            return opened(redisson(port), RedissonClient::shutdown, redisson -> {
                RSemaphore semaphore = redisson.getSemaphore(name);
                semaphore.trySetPermits(size);
                return Permits.of(() -> {
                    semaphore.acquire();
                    return semaphore;
                }, grant -> semaphore.release(), redisson::shutdown);
            });
        }
    },

    /** Redisson's {@code RPermitExpirableSemaphore}: {@code acquire()} (a permit id) then {@code release(id)}. */
    REDISSON_PERMIT_EXPIRABLE {
        @Override
        Permits open(int port, String name, int size) {
            return opened(redisson(port), RedissonClient::shutdown, redisson -> {
                RPermitExpirableSemaphore semaphore = redisson.getPermitExpirableSemaphore(name);
                semaphore.trySetPermits(size);
                return Permits.of(semaphore::acquire, grant -> semaphore.release((String) grant), redisson::shutdown);
            });
        }
    },

    /**
     * Yardstick, not a product: the least Redis work of a lease-keeping grant ({@link ScriptYardstick#LEASE_ACQUIRE}),
     * with no line, no reaping and no checks, through Lettuce as poolkit calls it. Latency only.
     */
    LEASE_FLOOR {
        @Override
        Permits open(int port, String name, int size) {
            return ScriptYardstick.leaseFloor(port, name);
        }
    },

    /**
     * Yardstick, not a product: {@code RSemaphore}'s Redis calls as two scripts ({@link ScriptYardstick#COUNTER_ACQUIRE})
     * through Lettuce as poolkit calls it, so that it differs from {@link #LEASE_FLOOR} by the scripts alone. Latency
     * only.
     */
    COUNTER_SCRIPT {
        @Override
        Permits open(int port, String name, int size) {
            return ScriptYardstick.counter(port, name, size);
        }
    };

    /**
     * Connects a semaphore of {@code size} permits named {@code name} (one name per peer and run: the peers' keys differ).
     */
    abstract Permits open(int port, String name, int size);

    /**
     * {@return the permits {@code setup} makes with {@code client}, which they shut down when closed} If setup throws,
     * the client is shut down first (its threads would otherwise keep the benchmark's JVM from exiting).
     */
    static <C> Permits opened(C client, Consumer<C> shutdown, Function<C, Permits> setup) {
        try {
            return setup.apply(client);
        } catch (RuntimeException | Error e) {
            shutdown.accept(client);
            throw e;
        }
    }

    private static RedissonClient redisson(int port) {
        Config config = new Config();
        config.useSingleServer().setAddress("redis://127.0.0.1:" + port);
        return Redisson.create(config);
    }

    /** One semaphore of one peer. */
    interface Permits extends AutoCloseable {
        /** @return the grant, handed back to {@link #release(Object)} */
        Object acquire() throws InterruptedException;

        void release(Object grant);

        @Override
        void close();

        /**
         * The permits of a peer's own three calls, each forwarded as it is (one more call to inline; nothing beside a
         * round trip to Redis).
         */
        static Permits of(Acquire acquire, Consumer<Object> release, Runnable close) {
            return new Permits() {
                @Override
                public Object acquire() throws InterruptedException {
                    return acquire.acquire();
                }

                @Override
                public void release(Object grant) {
                    release.accept(grant);
                }

                @Override
                public void close() {
                    close.run();
                }
            };
        }
    }

    /** A peer's acquire: blocks until it holds a permit, and returns the grant that releases it. */
    @FunctionalInterface
    interface Acquire {
        Object acquire() throws InterruptedException;
    }
}
