package io.github.poolkit.internal.schedule;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Timeout(10)
class TimerHeapTest {

    /** A bare heap entry. */
    private static final class Timer extends TimerHeap.Entry {
        Timer(long deadline, long sequence) {
            this.deadline = deadline;
            this.sequence = sequence;
        }

        @Override
        public String toString() {
            return deadline + "/" + sequence;
        }
    }

    private static final Comparator<Timer> DUE_ORDER = (a, b) -> TimerHeap.before(a, b) ? -1 : TimerHeap.before(b, a) ? 1 : 0;

    /** Checks heap order and that every entry knows its slot. */
    private static void assertInvariants(TimerHeap<Timer> heap) {
        for (int i = 0; i < heap.size(); i++) {
            Timer e = heap.entryAt(i);
            assertThat(e.heapIndex).as("index of slot %d", i).isEqualTo(i);
            if (i > 0) {
                Timer parent = heap.entryAt((i - 1) / 2);
                assertThat(TimerHeap.before(e, parent)).as("slot %d before its parent", i).isFalse();
            }
        }
    }

    private static List<Timer> drain(TimerHeap<Timer> heap) {
        List<Timer> out = new ArrayList<>();
        for (Timer t; (t = heap.poll()) != null; ) {
            assertThat(t.heapIndex).isEqualTo(TimerHeap.NOT_IN_HEAP);
            out.add(t);
        }
        return out;
    }

    @Test
    void pollReturnsEntriesByDeadlineThenSequence() {
        TimerHeap<Timer> heap = new TimerHeap<>();
        Timer late = new Timer(30, 0);
        Timer early = new Timer(10, 5);
        Timer tieFirst = new Timer(20, 1);
        Timer tieSecond = new Timer(20, 2);
        heap.add(late);
        heap.add(tieSecond);
        heap.add(early);
        heap.add(tieFirst);

        assertThat(heap.peek()).isSameAs(early);
        assertThat(drain(heap)).containsExactly(early, tieFirst, tieSecond, late);
        assertThat(heap.isEmpty()).isTrue();
        assertThat(heap.poll()).isNull();
        assertThat(heap.peek()).isNull();
    }

    @Test
    void deadlinesAreComparedBySubtractionSoTheyMayWrapAround() {
        TimerHeap<Timer> heap = new TimerHeap<>();
        Timer beforeWrap = new Timer(Long.MAX_VALUE - 5, 0);
        Timer afterWrap = new Timer(Long.MIN_VALUE + 5, 1); // 11 ns later than beforeWrap
        heap.add(afterWrap);
        heap.add(beforeWrap);
        assertThat(drain(heap)).containsExactly(beforeWrap, afterWrap);
    }

    @Test
    void removeTakesOutAnyEntryAndKeepsOrderAndIndices() {
        TimerHeap<Timer> heap = new TimerHeap<>();
        List<Timer> all = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            Timer t = new Timer((i * 37L) % 101, i);
            all.add(t);
            heap.add(t);
        }
        assertInvariants(heap);
        List<Timer> removed = new ArrayList<>();
        for (int i = 0; i < all.size(); i += 3) {
            Timer t = all.get(i);
            assertThat(heap.remove(t)).isTrue();
            assertThat(t.heapIndex).isEqualTo(TimerHeap.NOT_IN_HEAP);
            assertThat(heap.remove(t)).as("second removal").isFalse();
            removed.add(t);
            assertInvariants(heap);
        }
        assertThat(heap.size()).isEqualTo(all.size() - removed.size());
        List<Timer> expected = new ArrayList<>(all);
        expected.removeAll(removed);
        expected.sort(DUE_ORDER);
        assertThat(drain(heap)).containsExactlyElementsOf(expected);
    }

    @Test
    void randomOperationsMatchASortedModel() {
        Random random = new Random(42);
        TimerHeap<Timer> heap = new TimerHeap<>();
        List<Timer> model = new ArrayList<>();
        long sequence = 0;
        for (int step = 0; step < 20_000; step++) {
            int op = random.nextInt(10);
            if (op < 5 || model.isEmpty()) {
                Timer t = new Timer(random.nextInt(1_000), sequence++);
                heap.add(t);
                model.add(t);
            } else if (op < 8) {
                Timer t = model.remove(random.nextInt(model.size()));
                assertThat(heap.remove(t)).isTrue();
            } else {
                Timer first = model.stream().min(DUE_ORDER).orElseThrow();
                assertThat(heap.poll()).isSameAs(first);
                model.remove(first);
            }
            assertThat(heap.size()).isEqualTo(model.size());
            if (step % 500 == 0) {
                assertInvariants(heap);
            }
        }
        assertInvariants(heap);
        model.sort(DUE_ORDER);
        assertThat(drain(heap)).containsExactlyElementsOf(model);
    }

    @Test
    void removeIfTakesOutMatchesAndReheapifiesTheRest() {
        TimerHeap<Timer> heap = new TimerHeap<>();
        List<Timer> all = new ArrayList<>();
        Random random = new Random(7);
        for (int i = 0; i < 1_000; i++) {
            Timer t = new Timer(random.nextInt(10_000), i);
            all.add(t);
            heap.add(t);
        }
        List<Timer> removed = heap.removeIf(t -> t.sequence % 3 == 0);

        assertThat(removed).hasSize(334).allMatch(t -> t.sequence % 3 == 0)
                .allMatch(t -> t.heapIndex == TimerHeap.NOT_IN_HEAP);
        assertInvariants(heap);
        List<Timer> expected = new ArrayList<>(all);
        expected.removeAll(removed);
        expected.sort(DUE_ORDER);
        assertThat(drain(heap)).containsExactlyElementsOf(expected);
    }

    @Test
    void clearEmptiesTheHeapAndReleasesEveryEntry() {
        TimerHeap<Timer> heap = new TimerHeap<>();
        List<Timer> all = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            Timer t = new Timer(50 - i, i);
            all.add(t);
            heap.add(t);
        }
        List<Timer> removed = heap.clear();

        assertThat(removed).containsExactlyInAnyOrderElementsOf(all);
        assertThat(all).allMatch(t -> t.heapIndex == TimerHeap.NOT_IN_HEAP);
        assertThat(heap.isEmpty()).isTrue();
        heap.add(all.get(0)); // entries can go back in
        assertThat(heap.peek()).isSameAs(all.get(0));
    }

    @Test
    void anEntryCanBeInOnlyOneHeapAtATime() {
        TimerHeap<Timer> heap = new TimerHeap<>();
        TimerHeap<Timer> other = new TimerHeap<>();
        Timer t = new Timer(1, 0);
        heap.add(t);
        assertThatThrownBy(() -> heap.add(t)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("already in a timer heap");
        assertThatThrownBy(() -> other.add(t)).isInstanceOf(IllegalStateException.class);
        Timer stranger = new Timer(1, 1);
        other.add(stranger); // same slot (0) as t in heap
        assertThat(heap.remove(stranger)).as("entry of another heap").isFalse();
        assertThat(heap.peek()).isSameAs(t);
    }

    /**
     * After a burst, the storage shrinks as the heap empties, by poll, remove or removeIf (a burst of a million
     * timers would otherwise keep its array for good), and order and slots hold throughout.
     */
    @Test
    void theStorageShrinksAsABurstDrains() {
        TimerHeap<Timer> heap = new TimerHeap<>();
        List<Timer> burst = new ArrayList<>();
        Random random = new Random(7);
        for (int i = 0; i < 100_000; i++) {
            Timer t = new Timer(random.nextInt(1_000_000), i);
            burst.add(t);
            heap.add(t);
        }
        int grown = heap.capacity();
        assertThat(grown).isGreaterThanOrEqualTo(100_000);
        for (int i = 0; i < 80_000; i++) {
            assertThat(heap.remove(burst.get(i))).isTrue();
        }
        assertInvariants(heap);
        assertThat(heap.capacity()).as("after removals").isLessThan(grown).isLessThanOrEqualTo(4 * heap.size())
                .isGreaterThanOrEqualTo(heap.size());
        heap.removeIf(t -> t.sequence % 2 == 0);
        assertInvariants(heap);
        assertThat(heap.size()).isEqualTo(10_000);
        assertThat(heap.capacity()).as("after removeIf").isLessThanOrEqualTo(4 * heap.size())
                .isGreaterThanOrEqualTo(heap.size());
        List<Timer> rest = new ArrayList<>(burst.subList(80_000, 100_000));
        rest.removeIf(t -> t.sequence % 2 == 0);
        rest.sort(DUE_ORDER);
        List<Timer> drained = new ArrayList<>();
        for (Timer t; (t = heap.poll()) != null; ) {
            drained.add(t);
            assertThat(heap.capacity()).isGreaterThanOrEqualTo(heap.size());
        }
        assertThat(drained).containsExactlyElementsOf(rest);
        assertThat(heap.capacity()).as("empty again").isEqualTo(16);
    }
}
