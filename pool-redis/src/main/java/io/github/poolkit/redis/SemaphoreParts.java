package io.github.poolkit.redis;

import io.github.poolkit.SemaphoreListener;
import io.lettuce.core.AbstractRedisClient;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;

/**
 * The parts of one {@link RedisPermitSemaphore} instance, connected: its two connections, what the parts share
 * ({@link Instance}), the leases held, the request table, the batched release and the heartbeat (later ones, and later
 * connections, come from {@link RedisLink} as the instance pauses and resumes). {@link #connect} is how an instance
 * starts: it opens the connections, listens for grants, and runs the script once (which stores the size if Redis has
 * none) before the heartbeat starts. Invariant: if any of that fails, the connections are closed again, so a semaphore
 * that could not be built holds nothing.
 *
 * <p>Redis holds the truth (semaphore.lua); {@link RedisPermitSemaphore} is the public face of parts that do one job
 * each: Requests (the request table, until each result settles), Leases (the grants held; closing a Permit's; telling a
 * holder of a loss), LeaseRenewal (the heartbeat), GrantMessages (grants told by pub/sub), WaitingChecks (grants found
 * by renewals and re-subscriptions), BatchedRelease (release(n)), Instance (what they share), SemaphoreScript (one
 * script run), this class (connecting them) and RedisLink (the connections and the heartbeat as the semaphore pauses,
 * resumes and closes, with the invariants of those moves).
 *
 * @param instance       what the parts share
 * @param connections    the scripts' and the grant messages' connections
 * @param leases         the grants held
 * @param requests       the request table
 * @param batchedRelease {@code release(n)}
 * @param renewal        the heartbeat, started
 */
record SemaphoreParts(Instance instance, Connections connections, Leases leases, Requests requests,
        BatchedRelease batchedRelease, LeaseRenewal renewal) {

    /**
     * Connects the parts of a semaphore, as {@link RedisPermitSemaphore.Builder#build()} describes.
     *
     * @param link wraps the calls of the script on their way to Redis ({@link UnaryOperator#identity()}: none)
     * @throws SemaphoreUnavailableException if Redis does not answer within the command timeout
     */
    static SemaphoreParts connect(AbstractRedisClient client, SemaphoreKeys keys, long size, Duration leaseTime,
            Duration timeout, Executor completions, SemaphoreListener listener, UnaryOperator<ScriptCalls> link) {
        Connections connections = Connections.open(client, keys);
        SemaphoreScript script = new SemaphoreScript(link.apply(ScriptCalls.of(connections.scripting())), keys,
                size, leaseTime, timeout, client.getResources().timer());
        Instance instance = new Instance(keys, leaseTime, timeout, completions, script, UUID.randomUUID().toString(),
                new AtomicLong());
        Leases leases = new Leases(instance);
        Requests requests = new Requests(instance, leases, listener);
        BatchedRelease batchedRelease = new BatchedRelease(instance, leases);
        new GrantMessages(requests).listen(connections, instance); // closes the connections if it fails
        try {
            script.run("state").get(timeout.toNanos(), TimeUnit.NANOSECONDS); // stores the size if none
        } catch (Exception e) {
            connections.close();
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new SemaphoreUnavailableException("Cluster semaphore '" + keys.name()
                    + "' could not reach Redis within " + timeout.toMillis() + " ms", SemaphoreScript.unwrap(e));
        }
        return new SemaphoreParts(instance, connections, leases, requests, batchedRelease,
                new LeaseRenewal(instance, leases, requests));
    }
}
