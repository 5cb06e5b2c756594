package io.github.poolkit.internal.pool;

import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The lock-free idle stack: LIFO reuse, one claim per idle episode, expiry of the workers idle since before a
 * deadline (oldest first, only by their newest node), and dead nodes dropped by pops. The threads here are the test's
 * own; no worker thread runs.
 */
@Timeout(20)
class IdleStackTest {

    /** A worker with no pool, pushed idle at {@code since}. */
    private static Worker idleAt(IdleStack stack, long since) {
        Worker w = new Worker(null, null, null);
        w.clearHandoff();
        stack.push(w, since);
        return w;
    }

    @Test
    void theMostRecentlyIdleWorkerIsClaimedFirst() {
        IdleStack stack = new IdleStack();
        Worker first = idleAt(stack, 1);
        Worker second = idleAt(stack, 2);
        assertThat(stack.size()).isEqualTo(2);
        assertThat(stack.claim("a")).isSameAs(second);
        assertThat(stack.claim("b")).isSameAs(first);
        assertThat(stack.claim("c")).isNull();
        assertThat(stack.size()).isZero();
        assertThat(second.spinForHandoff(0)).isEqualTo("a");
        assertThat(first.spinForHandoff(0)).isEqualTo("b");
    }

    @Test
    void aBusyWorkerCannotBeClaimedAndItsNodeIsDropped() {
        IdleStack stack = new IdleStack();
        Worker w = idleAt(stack, 1);
        assertThat(w.claim("taken by someone else")).isTrue(); // claimed in place, e.g. by expiry
        assertThat(stack.claim("late")).isNull(); // the node is dead: popped and dropped
        assertThat(w.spinForHandoff(0)).isEqualTo("taken by someone else");
    }

    @Test
    void expiryClaimsTheWorkersIdleSinceBeforeTheDeadlineOldestFirst() {
        IdleStack stack = new IdleStack();
        Worker old1 = idleAt(stack, 10);
        Worker old2 = idleAt(stack, 20);
        Worker fresh = idleAt(stack, 30);
        List<Worker> expired = stack.claimIdleSince(25, Worker.STOP);
        assertThat(expired).containsExactly(old1, old2);
        assertThat(stack.size()).isEqualTo(1);
        assertThat(stack.claim("task")).isSameAs(fresh); // the dead nodes below it are never handed out
        assertThat(stack.claim("task")).isNull();
        assertThat(old1.spinForHandoff(0)).isSameAs(Worker.STOP);
    }

    /**
     * A queued pool pops its stack only while it counts an idle worker, so nothing but expiry would ever drop the nodes
     * of the workers it expired: the expiry cuts them off itself, below the deepest node that may still lead to an
     * idle worker (or all of them), so that neither memory nor the expiry's own walk grows with every worker retired.
     */
    @Test
    void expiryCutsTheDeadNodesOffSoAStackThatIsNotPoppedStaysSmall() {
        IdleStack stack = new IdleStack();
        for (int round = 1; round <= 1000; round++) {
            idleAt(stack, round * 10L);
            assertThat(stack.claimIdleSince(round * 10L + 5, Worker.STOP)).hasSize(1);
        }
        assertThat(stack.linked()).isZero();

        Worker expiring = idleAt(stack, 20_010);
        Worker live = idleAt(stack, 20_020);
        assertThat(stack.claimIdleSince(20_015, Worker.STOP)).containsExactly(expiring);
        assertThat(stack.linked()).isEqualTo(1);
        assertThat(stack.size()).isEqualTo(1);
        assertThat(stack.claim("next")).isSameAs(live);
        assertThat(stack.claim("next")).isNull();
        assertThat(stack.linked()).isZero();
    }

    @Test
    void expiryJudgesAWorkerByItsNewestIdleEpisode() {
        IdleStack stack = new IdleStack();
        Worker w = idleAt(stack, 10);
        assertThat(stack.claim("task")).isSameAs(w); // busy
        w.clearHandoff();
        stack.push(w, 100); // idle again, recently
        assertThat(stack.claimIdleSince(50, Worker.STOP)).isEmpty();
        assertThat(stack.claimAll(Worker.STOP)).containsExactly(w);
    }

    /** Many threads claim while workers go idle again and again: every idle episode is claimed exactly once. */
    @RepeatedTest(20)
    void everyIdleEpisodeIsClaimedExactlyOnce() throws Exception {
        IdleStack stack = new IdleStack();
        int workers = 4;
        int episodes = 2_000;
        AtomicInteger claims = new AtomicInteger();
        Set<Object> tokens = ConcurrentHashMap.newKeySet();
        CyclicBarrier start = new CyclicBarrier(workers + 2);
        List<Thread> threads = new ArrayList<>();
        AtomicInteger done = new AtomicInteger();
        for (int i = 0; i < workers; i++) {
            threads.add(Thread.ofPlatform().start(() -> {
                Worker w = new Worker(null, null, null);
                await(start);
                for (int e = 0; e < episodes; e++) {
                    w.clearHandoff();
                    stack.push(w, e);
                    Object token;
                    while ((token = w.spinForHandoff(1000)) == null) {
                        Thread.onSpinWait();
                    }
                    assertThat(tokens.add(token)).as("a token handed out twice").isTrue();
                }
                done.incrementAndGet();
            }));
        }
        for (int c = 0; c < 2; c++) {
            threads.add(Thread.ofPlatform().start(() -> {
                await(start);
                while (done.get() < workers) {
                    if (stack.claim(new Object()) != null) {
                        claims.incrementAndGet();
                    }
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        assertThat(claims.get()).isEqualTo(workers * episodes);
        assertThat(tokens).hasSize(workers * episodes);
        assertThat(stack.size()).isZero();
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
