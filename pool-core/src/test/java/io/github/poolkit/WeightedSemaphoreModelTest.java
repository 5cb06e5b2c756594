package io.github.poolkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Compares the semaphore, step by step, with a reference model of x/sync's rules: a FIFO line, grants from the head
 * while they fit, {@code tryAcquire} only with an empty line, and a withdrawn head letting its followers through; plus
 * {@code resize}: growing grants the head requests that now fit, shrinking takes nothing back (no grant until
 * {@code used} fits) and refuses the waiting requests larger than the new size.
 * Single-threaded (requests go through {@link WeightedSemaphore#acquireAsync(long)}), so every run is reproducible
 * from its seed.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class WeightedSemaphoreModelTest {

    private static final long SIZE = 10;
    private static final int STEPS = 2_000;

    /** A request as the model sees it. */
    private record Request(long permits, CompletableFuture<Permit> future) {
    }

    private final WeightedSemaphore semaphore = new WeightedSemaphore(SIZE);
    private final List<Request> line = new ArrayList<>(); // the model's FIFO line
    private final List<Long> held = new ArrayList<>(); // weights the test holds, granted by the model
    private long used; // the model's permits in use
    private long size = SIZE; // the model's size

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void behavesLikeTheReferenceModel(long seed) {
        Random random = new Random(seed);
        for (int step = 0; step < STEPS; step++) {
            switch (random.nextInt(11)) {
                case 0, 1, 2, 3 -> request(random.nextLong(SIZE + 1));
                case 4, 5 -> tryAcquire(random.nextLong(SIZE + 1));
                case 6, 7 -> releaseOne(random);
                case 8, 9 -> cancelOne(random);
                default -> resize(random.nextLong(SIZE + 3));
            }
            String where = "seed " + seed + ", step " + step;
            assertThat(semaphore.used()).as(where).isEqualTo(used);
            assertThat(semaphore.size()).as(where).isEqualTo(size);
            assertThat(semaphore.available()).as(where).isEqualTo(size - used);
            assertThat(semaphore.waiting()).as(where).isEqualTo(line.size());
            for (Request request : line) {
                assertThat(request.future()).as(where).isNotDone();
            }
        }
    }

    private void request(long n) {
        if (n > size) {
            assertThatThrownBy(() -> semaphore.acquireAsync(n)).isInstanceOf(IllegalArgumentException.class);
            return;
        }
        Request request = new Request(n, semaphore.acquireAsync(n));
        line.add(request);
        grantFromHead();
    }

    private void tryAcquire(long n) {
        boolean expected = line.isEmpty() && n <= size - used;
        assertThat(semaphore.tryAcquire(n)).as("tryAcquire(%d) with used %d, %d waiting", n, used, line.size())
                .isEqualTo(expected);
        if (expected) {
            used += n;
            held.add(n);
        }
    }

    private void releaseOne(Random random) {
        if (held.isEmpty()) {
            assertThatThrownBy(() -> semaphore.release(used + 1)).isInstanceOf(IllegalStateException.class);
            return;
        }
        long n = held.remove(random.nextInt(held.size()));
        semaphore.release(n);
        used -= n;
        grantFromHead();
    }

    private void cancelOne(Random random) {
        if (line.isEmpty()) {
            return;
        }
        int index = random.nextInt(line.size());
        Request request = line.remove(index);
        assertThat(request.future().cancel(false)).isTrue();
        if (index == 0) {
            grantFromHead();
        }
    }

    private void resize(long newSize) {
        semaphore.resize(newSize);
        size = newSize;
        for (var it = line.iterator(); it.hasNext(); ) {
            Request request = it.next();
            if (request.permits() > size) {
                it.remove();
                assertThat(request.future()).as("refused %s at size %s", request.permits(), size)
                        .isCompletedExceptionally();
                assertThatThrownBy(request.future()::join).hasCauseInstanceOf(IllegalArgumentException.class);
            }
        }
        grantFromHead();
    }

    /** The model's grant rule: from the head, in order, while the request fits. */
    private void grantFromHead() {
        while (!line.isEmpty() && line.getFirst().permits() <= size - used) {
            Request granted = line.removeFirst();
            assertThat(granted.future()).as("granted %s", granted.permits()).isCompleted();
            assertThat(granted.future().join().permits()).isEqualTo(granted.permits());
            used += granted.permits();
            held.add(granted.permits());
        }
    }
}
