package io.github.poolkit.autoconfigure.actuate;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import java.util.function.Supplier;

import io.github.poolkit.PermitSemaphore;
import io.github.poolkit.SemaphoreStats;
import io.github.poolkit.WeightedSemaphore;
import io.github.poolkit.autoconfigure.actuate.PoolsEndpoint.SemaphoreDescriptor;

/**
 * Reads the states of several semaphores for the {@code pools} endpoint, the health contributor and the meters: a
 * {@link WeightedSemaphore} (in this JVM, a few field reads) on the calling thread, and each other one (shared through
 * a store, such as a cluster semaphore on Redis) on a virtual thread of its own, all at once. So with the store down,
 * a read of the whole list waits one command timeout, not one per semaphore.
 */
final class SemaphoreReads {

    private SemaphoreReads() {
    }

    /**
     * @param semaphores the semaphores by bean name
     * @return their entries by bean name, each read once (an unreadable one with its error)
     */
    static SortedMap<String, SemaphoreDescriptor> readAll(Map<String, PermitSemaphore> semaphores) {
        SortedMap<String, SemaphoreDescriptor> read = new TreeMap<>();
        Map<String, PermitSemaphore> shared = shared(semaphores);
        semaphores.forEach((name, semaphore) -> {
            if (!shared.containsKey(name)) {
                read.put(name, SemaphoreDescriptor.of(semaphore));
            }
        });
        read.putAll(inParallel(shared, SemaphoreDescriptor::of));
        return read;
    }

    /**
     * @param semaphores semaphores by bean name
     * @return those shared through a store (any but a {@link WeightedSemaphore}, whose reads are field reads)
     */
    static Map<String, PermitSemaphore> shared(Map<String, PermitSemaphore> semaphores) {
        Map<String, PermitSemaphore> shared = new LinkedHashMap<>(semaphores);
        shared.values().removeIf(WeightedSemaphore.class::isInstance);
        return shared;
    }

    /**
     * @param shared semaphores shared through a store, by bean name
     * @return each one's {@link PermitSemaphore#stats()}, read all at once: a supplier of the figures, or one that
     *         throws what the read threw
     */
    static Map<String, Supplier<SemaphoreStats>> statsOf(Map<String, PermitSemaphore> shared) {
        return inParallel(shared, semaphore -> {
            try {
                SemaphoreStats stats = semaphore.stats();
                return () -> stats;
            }
            catch (RuntimeException failure) {
                return () -> {
                    throw failure;
                };
            }
        });
    }

    /**
     * @param read what to read of one semaphore; it keeps a failure in its result rather than throw
     * @return the results by bean name, once every read has ended (each within its semaphore's own timeout)
     */
    private static <R> Map<String, R> inParallel(Map<String, PermitSemaphore> semaphores,
            Function<PermitSemaphore, R> read) {
        Map<String, Future<R>> reads = new LinkedHashMap<>();
        if (!semaphores.isEmpty()) {
            try (ExecutorService readers = Executors.newVirtualThreadPerTaskExecutor()) {
                semaphores.forEach((name, semaphore) -> reads.put(name, readers.submit(() -> read.apply(semaphore))));
            }
        }
        Map<String, R> results = new LinkedHashMap<>();
        reads.forEach((name, result) -> results.put(name, result.resultNow()));
        return results;
    }
}
