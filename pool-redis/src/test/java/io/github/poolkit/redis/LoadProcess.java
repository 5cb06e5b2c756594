package io.github.poolkit.redis;

import io.github.poolkit.Permit;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Random load on one cluster semaphore with an audit, in this JVM or a child JVM's main. Every grant, while held,
 * adds its weight to an audit counter in Redis ({@code INCRBY}) and takes it off before the release; a counter above
 * the size is an over-grant. Requests mix blocking, timed, non-blocking and async forms, and cancel some async ones.
 * Each grant to a request that waited in line is recorded as (ticket, fencing token), the ticket from the acquire's
 * answer (seen on this JVM's {@link ScriptLink}) and the token from the grant message Redis published (heard on a
 * pattern subscription): FIFO holds iff sorting the records of every JVM by ticket also sorts them by token.
 *
 * <p>Every JVM prints {@code READY} and waits for a token on the list {@code <name>:start} so that the loads overlap.
 * As a main, args: port, name, size, threads, requests per thread, seed, lease ms; it prints
 * {@code DONE grants=.. over=.. max=.. errors=..} and {@code FIFO ticket token} lines.
 */
public final class LoadProcess {

    static final String AUDIT_SUFFIX = ":audit";
    static final String START_SUFFIX = ":start";

    final AtomicLong grants = new AtomicLong();
    final AtomicLong over = new AtomicLong();
    final AtomicLong errors = new AtomicLong();
    final AtomicLong max = new AtomicLong();
    final ConcurrentLinkedQueue<long[]> fifo = new ConcurrentLinkedQueue<>();

    public static void main(String[] args) throws Exception {
        RedisClient client = RedisClient.create("redis://127.0.0.1:" + args[0]);
        LoadProcess load = new LoadProcess();
        load.run(client, args[1], Long.parseLong(args[2]), Integer.parseInt(args[3]), Integer.parseInt(args[4]),
                Long.parseLong(args[5]), Duration.ofMillis(Long.parseLong(args[6])));
        for (long[] pair : load.fifo) {
            System.out.println("FIFO " + pair[0] + " " + pair[1]);
        }
        System.out.println("DONE grants=" + load.grants + " over=" + load.over + " max=" + load.max
                + " errors=" + load.errors);
        System.out.flush();
        client.shutdown();
        System.exit(0);
    }

    void run(RedisClient client, String name, long size, int threads, int requests, long seed, Duration lease)
            throws Exception {
        ScriptLink link = new ScriptLink();
        Map<String, Long> tickets = new ConcurrentHashMap<>(); // request id -> its place in line, when it waited
        link.watch((argv, answer) -> {
            if (argv[0].equals("acquire") && SemaphoreScript.asLong(answer.get(0)) == 2) {
                tickets.put(argv[3], SemaphoreScript.asLong(answer.get(1)));
            }
        });
        String grantChannels = "poolkit:semaphore:{" + name + "}:grants:";
        String endOfAudit = "audit-end-" + UUID.randomUUID();
        Map<String, Long> tokens = new ConcurrentHashMap<>(); // request id -> fencing token, as Redis published it
        CountDownLatch allGrantsHeard = new CountDownLatch(1);
        try (RedisPermitSemaphore semaphore = new RedisPermitSemaphore(
                RedisPermitSemaphore.builder(client, name).size(size).leaseTime(lease), link);
                StatefulRedisConnection<String, String> auditConnection = client.connect();
                StatefulRedisPubSubConnection<String, String> grants = client.connectPubSub()) {
            // every grant to a request that waited is published ("id token"), by every JVM's script runs
            grants.addListener(new RedisPubSubAdapter<>() {
                @Override
                public void message(String pattern, String channel, String message) {
                    String[] parts = message.split(" ");
                    if (parts[0].equals(endOfAudit)) {
                        allGrantsHeard.countDown();
                    } else if (Long.parseLong(parts[1]) >= 0) {
                        tokens.put(parts[0], Long.parseLong(parts[1]));
                    }
                }
            });
            grants.sync().psubscribe(grantChannels + "*");
            RedisCommands<String, String> audit = auditConnection.sync();
            // start together: the test pushes one token per JVM once all are ready
            System.out.println("READY");
            System.out.flush();
            audit.blpop(60, name + START_SUFFIX);
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                Random random = new Random(seed * 31 + t);
                Thread worker = new Thread(() -> {
                    try {
                        for (int i = 0; i < requests; i++) {
                            one(semaphore, audit, name + AUDIT_SUFFIX, size, random);
                        }
                    } catch (Exception | AssertionError e) {
                        errors.incrementAndGet();
                        e.printStackTrace();
                    }
                });
                worker.start();
                workers.add(worker);
            }
            for (Thread worker : workers) {
                worker.join();
            }
            // one subscriber hears messages in the order Redis published them: once this one comes, every grant has
            audit.publish(grantChannels + "audit", endOfAudit + " 0");
            if (!allGrantsHeard.await(30, TimeUnit.SECONDS)) {
                throw new AssertionError("the grant messages of " + name + " were not all heard within 30 s");
            }
        }
        tickets.forEach((id, ticket) -> {
            Long token = tokens.get(id);
            if (token != null) {
                fifo.add(new long[] {ticket, token});
            }
        });
    }

    private void one(RedisPermitSemaphore semaphore, RedisCommands<String, String> audit, String key, long size,
            Random random) throws Exception {
        long weight = 1 + random.nextInt((int) size);
        int kind = random.nextInt(10);
        if (kind < 4) {
            try (Permit permit = semaphore.acquirePermit(weight)) {
                hold(audit, key, weight, size, random);
            }
        } else if (kind < 7) {
            if (semaphore.tryAcquire(weight, Duration.ofMillis(random.nextInt(20)))) {
                hold(audit, key, weight, size, random);
                semaphore.release(weight);
            }
        } else if (kind < 9) {
            CompletableFuture<Permit> future = semaphore.acquireAsync(weight);
            if (random.nextBoolean()) {
                future.cancel(false);
            }
            Permit permit;
            try {
                permit = future.get(30, TimeUnit.SECONDS);
            } catch (java.util.concurrent.CancellationException cancelled) {
                return;
            }
            try (permit) {
                hold(audit, key, weight, size, random);
            }
        } else if (semaphore.tryAcquire(weight)) {
            hold(audit, key, weight, size, random);
            semaphore.release(weight);
        }
    }

    private void hold(RedisCommands<String, String> audit, String key, long weight, long size, Random random)
            throws InterruptedException {
        grants.incrementAndGet();
        long inUse = audit.incrby(key, weight);
        max.accumulateAndGet(inUse, Math::max);
        if (inUse > size) {
            over.incrementAndGet();
        }
        Thread.sleep(1 + random.nextInt(4)); // the holder's "work", not synchronisation
        audit.decrby(key, weight);
    }
}
