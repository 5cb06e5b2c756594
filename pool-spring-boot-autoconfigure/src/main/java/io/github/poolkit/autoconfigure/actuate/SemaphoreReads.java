package io.github.poolkit.autoconfigure.actuate;

import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.github.poolkit.PermitSemaphore;
import io.github.poolkit.WeightedSemaphore;
import io.github.poolkit.autoconfigure.actuate.PoolsEndpoint.SemaphoreDescriptor;

/**
 * Reads the states of several semaphores for the {@code pools} endpoint and the health contributor: a
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
        Map<String, Future<SemaphoreDescriptor>> shared = new TreeMap<>();
        semaphores.forEach((name, semaphore) -> {
            if (semaphore instanceof WeightedSemaphore) {
                read.put(name, SemaphoreDescriptor.of(semaphore));
            }
            else {
                shared.put(name, null);
            }
        });
        if (!shared.isEmpty()) {
            try (ExecutorService readers = Executors.newVirtualThreadPerTaskExecutor()) {
                shared.replaceAll((name, none) -> readers.submit(() -> SemaphoreDescriptor.of(semaphores.get(name))));
            } // waits for every read; each ends within its semaphore's own timeout, failures kept in its entry
            shared.forEach((name, entry) -> read.put(name, entry.resultNow()));
        }
        return read;
    }
}
