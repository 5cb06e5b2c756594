package io.github.poolkit.internal.pool;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Random;
import java.util.function.IntFunction;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The two idle-worker stores, {@link IdleWorkerStack} and {@link IdleWorkerRing}, against the {@link IdleWorkers}
 * contract: LIFO reuse, ordering by last use, expiry of a strict prefix, and (for the ring) wrap-around. The stores are
 * single-threaded (the pool lock guards them), so these are plain unit tests.
 */
@Timeout(10)
class IdleWorkersTest {

    private static final int RING_CAPACITY = 64;

    static Stream<Arguments> stores() {
        return Stream.of(
                Arguments.of("stack", (IntFunction<IdleWorkers>) capacity -> new IdleWorkerStack()),
                Arguments.of("ring", (IntFunction<IdleWorkers>) IdleWorkerRing::new));
    }

    /** A worker with no pool, last used at {@code lastUsedNanos}. */
    private static Worker worker(long lastUsedNanos) {
        Worker w = new Worker(null, null, null);
        w.lastUsedNanos = lastUsedNanos;
        return w;
    }

    private static List<Worker> pushAll(IdleWorkers store, long... lastUsed) {
        List<Worker> pushed = new ArrayList<>();
        for (long t : lastUsed) {
            Worker w = worker(t);
            store.push(w);
            pushed.add(w);
        }
        return pushed;
    }

    private static List<Worker> popAll(IdleWorkers store) {
        List<Worker> popped = new ArrayList<>();
        for (Worker w; (w = store.pop()) != null; ) {
            popped.add(w);
        }
        return popped;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void anEmptyStoreHasNothingToGive(String kind, IntFunction<IdleWorkers> factory) {
        IdleWorkers store = factory.apply(RING_CAPACITY);
        assertThat(store.size()).isZero();
        assertThat(store.pop()).isNull();
        assertThat(store.removeExpired(Long.MAX_VALUE)).isEmpty();
        assertThat(store.removeAll()).isEmpty();
        assertThat(store.size()).isZero();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void popGivesTheMostRecentlyUsedWorkerFirst(String kind, IntFunction<IdleWorkers> factory) {
        IdleWorkers store = factory.apply(RING_CAPACITY);
        List<Worker> pushed = pushAll(store, 10, 20, 30);
        assertThat(store.size()).isEqualTo(3);
        assertThat(store.pop()).isSameAs(pushed.get(2));
        store.push(pushed.get(2));
        assertThat(popAll(store)).containsExactly(pushed.get(2), pushed.get(1), pushed.get(0));
        assertThat(store.size()).isZero();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void holdsAsManyWorkersAsTheCapacity(String kind, IntFunction<IdleWorkers> factory) {
        IdleWorkers store = factory.apply(RING_CAPACITY);
        List<Worker> pushed = new ArrayList<>();
        for (int i = 0; i < RING_CAPACITY; i++) {
            pushed.addAll(pushAll(store, i));
        }
        assertThat(store.size()).isEqualTo(RING_CAPACITY);
        List<Worker> expected = new ArrayList<>(pushed);
        java.util.Collections.reverse(expected);
        assertThat(popAll(store)).containsExactlyElementsOf(expected);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void removeExpiredTakesTheWorkersLastUsedStrictlyBeforeTheDeadlineOldestFirst(String kind,
            IntFunction<IdleWorkers> factory) {
        IdleWorkers store = factory.apply(RING_CAPACITY);
        List<Worker> pushed = pushAll(store, 10, 20, 30, 40, 50);
        assertThat(store.removeExpired(10)).isEmpty(); // last used at the deadline: not expired
        assertThat(store.size()).isEqualTo(5);
        assertThat(store.removeExpired(31)).containsExactly(pushed.get(0), pushed.get(1), pushed.get(2));
        assertThat(store.size()).isEqualTo(2);
        assertThat(popAll(store)).containsExactly(pushed.get(4), pushed.get(3));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void removeExpiredCanEmptyTheStore(String kind, IntFunction<IdleWorkers> factory) {
        IdleWorkers store = factory.apply(RING_CAPACITY);
        List<Worker> pushed = pushAll(store, 1, 2, 3);
        assertThat(store.removeExpired(100)).containsExactlyElementsOf(pushed);
        assertThat(store.size()).isZero();
        assertThat(store.pop()).isNull();
        List<Worker> again = pushAll(store, 200, 300);
        assertThat(popAll(store)).containsExactly(again.get(1), again.get(0));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void removeAllReturnsEveryWorkerOldestFirstAndEmptiesTheStore(String kind, IntFunction<IdleWorkers> factory) {
        IdleWorkers store = factory.apply(RING_CAPACITY);
        List<Worker> pushed = pushAll(store, 5, 6, 7, 8);
        assertThat(store.removeAll()).containsExactlyElementsOf(pushed);
        assertThat(store.size()).isZero();
        assertThat(store.pop()).isNull();
        assertThat(store.removeAll()).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void expiryComparesNanoTimesSoThatItSurvivesOverflow(String kind, IntFunction<IdleWorkers> factory) {
        IdleWorkers store = factory.apply(RING_CAPACITY);
        List<Worker> pushed = pushAll(store, Long.MAX_VALUE - 10, Long.MAX_VALUE, Long.MIN_VALUE + 5);
        // the clock wrapped between the second and third push; the deadline lies after the wrap
        assertThat(store.removeExpired(Long.MIN_VALUE + 1)).containsExactly(pushed.get(0), pushed.get(1));
        assertThat(popAll(store)).containsExactly(pushed.get(2));
    }

    @Test
    void theRingWrapsAroundItsEnd() {
        IdleWorkerRing ring = new IdleWorkerRing(4);
        List<Worker> first = pushAll(ring, 1, 2, 3, 4);
        assertThat(ring.removeExpired(3)).containsExactly(first.get(0), first.get(1)); // head moves to slot 2
        List<Worker> wrapped = pushAll(ring, 5, 6); // slots 0 and 1
        assertThat(ring.size()).isEqualTo(4);
        assertThatThrownBy(() -> ring.push(worker(7))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("overflow");
        assertThat(ring.size()).isEqualTo(4);
        assertThat(ring.pop()).isSameAs(wrapped.get(1));
        assertThat(ring.removeExpired(6)).containsExactly(first.get(2), first.get(3), wrapped.get(0));
        assertThat(ring.size()).isZero();
        List<Worker> more = pushAll(ring, 8, 9, 10);
        assertThat(ring.removeAll()).containsExactlyElementsOf(more);
    }

    @Test
    void theRingOfOneHoldsOneWorker() {
        IdleWorkerRing ring = new IdleWorkerRing(1);
        Worker w = worker(1);
        for (int i = 0; i < 3; i++) {
            ring.push(w);
            assertThatThrownBy(() -> ring.push(worker(2))).isInstanceOf(IllegalStateException.class);
            assertThat(ring.pop()).isSameAs(w);
        }
        ring.push(w);
        assertThat(ring.removeExpired(2)).containsExactly(w);
        assertThat(ring.size()).isZero();
    }

    @Test
    void createPicksTheRingForPreAllocAndTheStackOtherwise() {
        assertThat(IdleWorkers.create(true, 8)).isInstanceOf(IdleWorkerRing.class);
        assertThat(IdleWorkers.create(false, 8)).isInstanceOf(IdleWorkerStack.class);
        assertThat(IdleWorkers.create(false, -1)).isInstanceOf(IdleWorkerStack.class);
    }

    @Test
    void countExpiredIsTheLengthOfTheExpiredPrefix() {
        Random random = new Random(42);
        for (int round = 0; round < 500; round++) {
            int size = random.nextInt(40);
            Worker[] workers = new Worker[size];
            long t = random.nextLong();
            for (int i = 0; i < size; i++) {
                t += random.nextInt(3); // ties allowed
                workers[i] = worker(t);
            }
            long deadline = size == 0 ? t : workers[0].lastUsedNanos + random.nextInt(size * 2 + 2) - 1;
            int expected = (int) Arrays.stream(workers).filter(w -> w.lastUsedNanos - deadline < 0).count();
            assertThat(IdleWorkers.countExpired(size, deadline, i -> workers[i]))
                    .as("round %d", round).isEqualTo(expected);
        }
    }

    /** Random pushes, pops, expiries and clears, checked against a deque model of the contract. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void behavesLikeADequeOrderedByLastUse(String kind, IntFunction<IdleWorkers> factory) {
        Random random = new Random(7);
        IdleWorkers store = factory.apply(RING_CAPACITY);
        Deque<Worker> model = new ArrayDeque<>(); // oldest first
        long clock = 1_000;
        for (int step = 0; step < 20_000; step++) {
            int op = random.nextInt(10);
            if (op < 5 && model.size() < RING_CAPACITY) {
                clock += random.nextInt(5);
                Worker w = worker(clock);
                store.push(w);
                model.addLast(w);
            } else if (op < 8) {
                assertThat(store.pop()).isSameAs(model.pollLast());
            } else if (op < 9 || model.isEmpty()) {
                long deadline = clock - random.nextInt(40);
                List<Worker> expired = new ArrayList<>();
                while (!model.isEmpty() && model.peekFirst().lastUsedNanos - deadline < 0) {
                    expired.add(model.pollFirst());
                }
                assertThat(store.removeExpired(deadline)).containsExactlyElementsOf(expired);
            } else if (random.nextInt(20) == 0) {
                assertThat(store.removeAll()).containsExactlyElementsOf(new ArrayList<>(model));
                model.clear();
            }
            assertThat(store.size()).isEqualTo(model.size());
        }
    }
}
