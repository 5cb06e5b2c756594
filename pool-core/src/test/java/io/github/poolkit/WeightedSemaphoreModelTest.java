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
 * while they fit, {@code tryAcquire} only with an empty line, and a withdrawn head letting its followers through.
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

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void behavesLikeTheReferenceModel(long seed) {
        Random random = new Random(seed);
        for (int step = 0; step < STEPS; step++) {
            switch (random.nextInt(5)) {
                case 0, 1 -> request(random.nextLong(SIZE + 1));
                case 2 -> tryAcquire(random.nextLong(SIZE + 1));
                case 3 -> releaseOne(random);
                default -> cancelOne(random);
            }
            String where = "seed " + seed + ", step " + step;
            assertThat(semaphore.used()).as(where).isEqualTo(used);
            assertThat(semaphore.waiting()).as(where).isEqualTo(line.size());
            for (Request request : line) {
                assertThat(request.future()).as(where).isNotDone();
            }
        }
    }

    private void request(long n) {
        Request request = new Request(n, semaphore.acquireAsync(n));
        line.add(request);
        grantFromHead();
    }

    private void tryAcquire(long n) {
        boolean expected = line.isEmpty() && n <= SIZE - used;
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

    /** The model's grant rule: from the head, in order, while the request fits. */
    private void grantFromHead() {
        while (!line.isEmpty() && line.getFirst().permits() <= SIZE - used) {
            Request granted = line.removeFirst();
            assertThat(granted.future()).as("granted %s", granted.permits()).isCompleted();
            assertThat(granted.future().join().permits()).isEqualTo(granted.permits());
            used += granted.permits();
            held.add(granted.permits());
        }
    }
}
