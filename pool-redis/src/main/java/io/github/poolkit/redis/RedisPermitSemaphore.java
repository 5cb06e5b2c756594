package io.github.poolkit.redis;

import io.github.poolkit.Permit;
import io.github.poolkit.PermitSemaphore;
import io.github.poolkit.SemaphoreListener;
import io.github.poolkit.SemaphoreStats;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.cluster.RedisClusterClient;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * A weighted semaphore shared by every instance of a service that uses the same name on the same Redis: one budget
 * (GPU memory, an API's quota, a database's connections) for all, with the rules of a {@code WeightedSemaphore}.
 *
 * <pre>{@code
 * RedisPermitSemaphore gpu = RedisPermitSemaphore.builder(connectionFactory, "gpu-memory")
 *         .size(16_384).leaseTime(Duration.ofSeconds(30)).build();
 * try (Permit permit = gpu.acquirePermit(2_048)) {
 *     render(permit.fencingToken());
 * }
 * }</pre>
 *
 * <h2>Rules, across all instances</h2>
 * <ul>
 *   <li>Weights and strict FIFO: one line in Redis for all clients; a request is granted when it fits and all earlier
 *       ones were granted or left, so a large request is never starved; {@code tryAcquire} never barges. A request
 *       larger than the size fails at once with IllegalArgumentException (acquireAsync: through its future).</li>
 *   <li>A request that gives up (timeout, interrupt, cancelled future) leaves the line; if a grant won the race
 *       with it, that grant is given back; either way the requests behind it that now fit are granted.</li>
 *   <li>Every grant is a <em>lease</em> that this instance renews every {@code leaseTime / 3} while it holds it. A
 *       holder that dies (or cannot reach Redis) for longer than {@code leaseTime} loses its permits: the next
 *       operation of any instance gives them back. Likewise a waiter whose instance stops renewing its place in
 *       line leaves it after {@code leaseTime}.</li>
 *   <li>A holder learns when its lease is lost: its {@link Permit#isValid()} turns {@code false} and its
 *       {@link Permit#lost()} stage completes, once, when a renewal finds that the lease expired, or when Redis has
 *       confirmed no renewal for longer than {@code leaseTime} (Redis frozen, unreachable, or failing over), so
 *       within {@code leaseTime} plus one renewal period of Redis's last answer. The lease is not renewed again:
 *       other instances may be granted its permits. Closing a lost permit (or one that its close finds expired)
 *       throws nothing and gives nothing back twice: it makes one round trip that returns the permits if Redis still
 *       holds that grant (leases are released by their id), and marks the permit lost if it was not yet.</li>
 *   <li>Permits taken without a {@link Permit} ({@link #acquire(long)}, {@code tryAcquire}): {@link #release(long)}
 *       of a grant that already expired throws {@link IllegalStateException}: its permits went back without it, and
 *       they are never given back twice. Releasing more than held throws the same and changes nothing.</li>
 *   <li>Every grant carries a fencing token ({@link Permit#fencingToken()}) that grows with each grant, so a protected
 *       resource can refuse a holder whose lease ran out. It is one more than the last token, but at least Redis's
 *       time in microseconds, so it keeps growing even after Redis lost the semaphore's state (a restart without
 *       persistence, a failover that lost the last writes).</li>
 *   <li>{@link #release(long)} (without a {@link Permit}) gives back permits that <em>this instance</em> took with
 *       {@link #acquire(long)} or the {@code tryAcquire} forms, oldest grant first, splitting a grant if needed;
 *       permits taken as a {@link Permit} are given back only by closing it.</li>
 * </ul>
 *
 * <h2>Size</h2>
 * The size lives in Redis. The first instance that touches the semaphore stores its configured size; instances that
 * start later with a different size use the stored one ({@link #size()} shows it) until {@link #resize(long)}
 * changes it for all. If Redis loses the semaphore's keys, the next instance to touch it stores its size again.
 *
 * <h2>Cost</h2>
 * An uncontended acquire is one script run (one round trip), as is a release; the script makes three and five Redis
 * calls for them (the leases are fields of the semaphore's {@code meta} hash). Waiting requests hold no thread
 * ({@link #acquireAsync(long)}) and are woken by a message on this instance's own pub/sub channel, never by polling; a
 * message lost to a reconnect is made up for by one script run on re-subscribing, any other by the heartbeat. Runs reap
 * expired leases and waiters when one may have expired, by Redis's clock ({@code TIME}), not a client's.
 *
 * <h2>Failures</h2>
 * Every call to Redis ends within the command timeout (default 2 s), or fails with
 * {@link SemaphoreUnavailableException}. A request that gives up (timeout, interrupt) returns once Redis confirmed that
 * it left the line; if Redis stays silent for the command timeout after that, it throws
 * {@link SemaphoreUnavailableException} rather than returning {@code false}: a timed request ends within its timeout
 * plus the command timeout. The calls that change the semaphore without waiting in line ({@link #tryAcquire(long)},
 * {@link #tryAcquirePermit(long)}, {@link #release(long)}, {@link #resize(long)}) are not interruptible: the script is
 * sent, so only Redis's answer tells what it did; they keep an interrupt in the thread's status (a read that is
 * interrupted throws {@link SemaphoreUnavailableException}). A request waiting in line without a timeout of its own
 * ({@link #acquire(long)}, {@link #acquireAsync(long)}) fails with {@link SemaphoreUnavailableException} once Redis
 * has not confirmed its place for longer than the lease time (Redis drops a place that long without renewal), instead
 * of waiting for a Redis that may never come back. {@link #stats()}, {@link #used()}, {@link #size()},
 * {@link #available()} and {@link #waiting()} read Redis (one script run each; {@link #stats()} gives all four from one
 * run, at one instant) and throw {@link SemaphoreUnavailableException} when it does not answer.
 *
 * <h2>Calls sent twice</h2>
 * Lettuce sends a command again after a reconnect when it had not read the answer, although Redis may have run it.
 * Every acquire, release, {@link #release(long)} and {@link #resize(long)} therefore carries an id unique to that
 * operation, and Redis remembers what each did (a grant or a place in line under the request's id; a record of each
 * release for the longer of the lease time and the command timeout, of each resize for a day): a second run of the
 * same operation answers as the first did and changes nothing. A request is never counted twice nor both granted and
 * queued, and a release sent twice never reports a lease as expired that it released
 * itself. An acquire sent again after its grant expired is granted anew under the same id: renewals and releases carry
 * the fencing token the holder knows, so the holder is told of the loss and that new grant, held by nobody, goes back.
 *
 * <p>Thread-safe. Memory consistency: actions before a {@link Permit#close()} or {@link #release(long)} in one
 * instance happen-before a grant of the same permits in another only through Redis's own ordering of script runs.
 */
public final class RedisPermitSemaphore implements PermitSemaphore, AutoCloseable {

    /** The largest size: 2^53 - 1, the largest count that Redis's Lua scripts (which count in doubles) hold exactly. */
    public static final long MAX_SIZE = (1L << 53) - 1;

    /** The shortest lease time: renewals run every third of it. */
    public static final Duration MIN_LEASE_TIME = Duration.ofMillis(30);

    private final Instance instance;
    private final Requests requests;
    private final BatchedRelease batchedRelease;
    private final RedisLink link;

    /**
     * Connects and stores the size if Redis has none.
     *
     * @param link wraps the calls of the script on their way to Redis ({@link UnaryOperator#identity()}: none)
     */
    RedisPermitSemaphore(Builder builder, UnaryOperator<ScriptCalls> link) {
        SemaphoreParts parts = SemaphoreParts.connect(builder.client.get(), builder.keys, builder.size,
                builder.leaseTime, builder.commandTimeout, builder.completions, builder.listener, link);
        this.instance = parts.instance();
        this.requests = parts.requests();
        this.batchedRelease = parts.batchedRelease();
        this.link = new RedisLink(builder.client, link, parts);
    }

    /**
     * Starts a builder for the semaphore {@code name} on the Redis of a Spring Data Redis connection factory.
     *
     * @param connectionFactory a started
     *                          {@link org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory}
     *                          (Spring Boot's, from {@code spring.data.redis.*}); its Lettuce client of the moment
     *                          opens this semaphore's two connections, here and on each {@link #resume()}
     * @param name              the semaphore's name: every instance using this name on this Redis shares its permits
     * @return the builder
     * @throws IllegalArgumentException if the factory is not Lettuce's
     */
    public static Builder builder(RedisConnectionFactory connectionFactory, String name) {
        return new Builder(Connections.lettuceClients(connectionFactory, name), name);
    }

    /**
     * Starts a builder for the semaphore {@code name} on the Redis of a Lettuce client, without Spring.
     *
     * @param client a {@link RedisClient} (standalone or Sentinel) or a {@link RedisClusterClient}
     * @param name   the semaphore's name: every instance using this name on this Redis shares its permits
     * @return the builder
     */
    public static Builder builder(AbstractRedisClient client, String name) {
        return new Builder(Connections.always(client), name);
    }

    /** Options of a {@link RedisPermitSemaphore}; {@link #build()} connects. */
    public static final class Builder {
        private final Supplier<AbstractRedisClient> client;
        private final SemaphoreKeys keys;
        private final String name;
        private long size = 1;
        private Duration leaseTime = Duration.ofSeconds(30);
        private Duration commandTimeout = Duration.ofSeconds(2);
        private SemaphoreListener listener;
        private Executor completions = ForkJoinPool.commonPool();

        private Builder(Supplier<AbstractRedisClient> client, String name) {
            this.client = client;
            this.keys = new SemaphoreKeys(name);
            this.name = name;
        }

        /**
         * Sets the size: the total weight of the permits that every instance shares.
         *
         * @param size the size stored in Redis if none is stored yet (see "Size" above), from 0 to {@link #MAX_SIZE};
         *             default 1
         * @return this builder
         */
        public Builder size(long size) {
            this.size = Checks.size(name, size);
            return this;
        }

        /**
         * Sets the lease time.
         *
         * @param leaseTime how long a grant (or a place in line) outlives its holder's last renewal; renewed every
         *                  third of it; at least 30 ms; default 30 s
         * @return this builder
         */
        public Builder leaseTime(Duration leaseTime) {
            this.leaseTime = Checks.leaseTime(name, leaseTime);
            return this;
        }

        /**
         * Sets how long to wait for Redis to answer.
         *
         * @param commandTimeout the longest wait for Redis to answer one script run; default 2 s
         * @return this builder
         */
        public Builder commandTimeout(Duration commandTimeout) {
            this.commandTimeout = Checks.commandTimeout(name, commandTimeout);
            return this;
        }

        /**
         * Sets the listener told of every request, or none (null).
         *
         * @param listener receives each settled request (on the caller's, I/O, timer or heartbeat thread: be quick)
         * @return this builder
         */
        public Builder listener(SemaphoreListener listener) {
            this.listener = listener;
            return this;
        }

        /**
         * Sets the executor that completes the futures.
         *
         * @param completions runs the completion of {@link #acquireAsync(long)} and {@link #tryAcquireAsync(long)}
         *                    futures and of {@link Permit#lost()} stages, and their dependent stages, so that they
         *                    never run on Redis's I/O thread nor on the heartbeat; default
         *                    {@link ForkJoinPool#commonPool()}
         * @return this builder
         */
        public Builder completions(Executor completions) {
            this.completions = Objects.requireNonNull(completions, "completions");
            return this;
        }

        /**
         * Connects (two connections: one for scripts, one for grant messages) and stores the size if Redis has none.
         *
         * @return the semaphore; close it when done
         * @throws SemaphoreUnavailableException if Redis cannot be reached within the Redis client's own timeouts
         */
        public RedisPermitSemaphore build() {
            return new RedisPermitSemaphore(this, UnaryOperator.identity());
        }
    }

    @Override
    public void acquire(long n) throws InterruptedException {
        Checks.weight(n);
        Checks.notInterrupted();
        requests.await(requests.send(n, false, true, false, "wait"), -1);
    }

    @Override
    public Permit acquirePermit(long n) throws InterruptedException {
        Checks.weight(n);
        Checks.notInterrupted();
        return requests.await(requests.send(n, false, false, false, "wait"), -1);
    }

    @Override
    public CompletableFuture<Permit> acquireAsync(long n) {
        Checks.weight(n);
        return requests.send(n, false, false, true, "wait").result;
    }

    @Override
    public boolean tryAcquire(long n) {
        Checks.weight(n);
        return requests.tryNow(n);
    }

    @Override
    public boolean tryAcquire(long n, Duration timeout) throws InterruptedException {
        return requests.tryFor(n, timeout, true) != null;
    }

    /** {@inheritDoc} Here the permits are a lease of their own, given back by closing the permit (not by release). */
    @Override
    public Permit tryAcquirePermit(long n) {
        Checks.weight(n);
        return requests.tryNow(n, false);
    }

    /** {@inheritDoc} Here one script run, the future completed on the completions executor; a lease of its own. */
    @Override
    public CompletableFuture<Permit> tryAcquireAsync(long n) {
        Checks.weight(n);
        return requests.send(n, true, false, true, "try").result;
    }

    /** {@inheritDoc} Here the permits are a lease of their own, given back by closing the permit (not by release). */
    @Override
    public Permit tryAcquirePermit(long n, Duration timeout) throws InterruptedException {
        return requests.tryFor(n, timeout, false);
    }

    /**
     * Gives back {@code n} permits that this instance took with {@link #acquire(long)} or a {@code tryAcquire} form
     * (not those held by a {@link Permit}): oldest grant first, the last one split if needed, in one script run that
     * changes all of them or none.
     *
     * @throws IllegalStateException if this instance holds fewer such permits ("released more than held"), or if one
     *                               of the grants it would use had expired; nothing changes then
     * @throws SemaphoreUnavailableException if Redis did not answer within the command timeout: the release may or may
     *                               not have been applied, and it is never applied twice (each grant it changes must
     *                               still hold what this instance knows of it), so calling it again is safe
     */
    @Override
    public void release(long n) {
        batchedRelease.release(n);
    }

    @Override
    public void resize(long size) {
        Checks.size(instance.name(), size);
        // an operation: sent again by Lettuce after a newer resize, it must not undo that one
        instance.call(instance.script().runOperation("resize", instance.nextId(), Long.toString(size)));
    }

    /**
     * Reads the size, the permits in use and the requests waiting, cluster-wide, in one script run: the figures of
     * one instant, as Redis's script runs one at a time.
     *
     * @return the snapshot
     * @throws SemaphoreUnavailableException if Redis does not answer within the command timeout, or paused or closed
     */
    @Override
    public SemaphoreStats stats() {
        List<Object> state = instance.read(instance.script().run("state"));
        return new SemaphoreStats(SemaphoreScript.asLong(state.get(0)), SemaphoreScript.asLong(state.get(1)),
                (int) SemaphoreScript.asLong(state.get(2)));
    }

    /** {@return {@code "cluster"}: the permits are shared, through Redis, by every instance that uses this name} */
    @Override
    public String scope() {
        return "cluster";
    }

    @Override
    public long size() {
        return stats().size();
    }

    @Override
    public long used() {
        return stats().used();
    }

    @Override
    public long available() {
        return stats().available();
    }

    @Override
    public int waiting() {
        return stats().waiting();
    }

    /** {@return the semaphore's name, shared by every instance that uses it} */
    public String name() {
        return instance.name();
    }

    /** {@return how long a grant outlives its holder's last renewal} */
    public Duration leaseTime() {
        return instance.leaseTime();
    }

    /**
     * Disconnects until {@link #resume()}, withdrawing waiting requests as {@link #close()} does; calls fail at once
     * meanwhile ("is paused"). Held leases are not renewed: a {@link Permit} unrenewed for a lease time is lost.
     */
    public void pause() {
        link.pause();
    }

    /**
     * Connects again after {@link #pause()} (on the factory's client of now), renewing what is held; else does nothing.
     *
     * @throws SemaphoreUnavailableException if Redis cannot be reached (it stays paused)
     * @throws IllegalStateException         if its connection factory is not started
     */
    public void resume() {
        link.resume();
    }

    /**
     * Stops renewing, withdraws the requests still waiting (they fail with {@link SemaphoreUnavailableException}; one
     * being sent now is withdrawn once Redis has answered it) and closes the connections; later calls fail at once
     * ("was closed"). Leases still held are not released: they expire after the lease time, unreported (nothing
     * watches them any more); close every permit before the semaphore.
     */
    @Override
    public void close() {
        link.close();
    }

    @Override
    public String toString() {
        return "RedisPermitSemaphore[name=" + instance.name() + ", leaseTime=" + instance.leaseTime() + "]";
    }
}
