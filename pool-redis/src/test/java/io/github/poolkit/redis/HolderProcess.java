package io.github.poolkit.redis;

import io.github.poolkit.Permit;
import io.lettuce.core.RedisClient;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * A child JVM's main: takes {@code permits} of the cluster semaphore {@code name}, prints {@code HELD <token>} and
 * holds them, renewing, until it is killed. Args: port, name, size, permits, lease ms.
 */
public final class HolderProcess {

    public static void main(String[] args) throws Exception {
        RedisClient client = RedisClient.create("redis://127.0.0.1:" + args[0]);
        RedisPermitSemaphore semaphore = RedisPermitSemaphore.builder(client, args[1]).size(Long.parseLong(args[2]))
                .leaseTime(Duration.ofMillis(Long.parseLong(args[4]))).build();
        Permit permit = semaphore.acquirePermit(Long.parseLong(args[3]));
        System.out.println("HELD " + permit.fencingToken());
        System.out.flush();
        new CountDownLatch(1).await(); // until kill -9
    }

    private HolderProcess() {
    }
}
