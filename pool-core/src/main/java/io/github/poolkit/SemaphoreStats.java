package io.github.poolkit;

/**
 * One snapshot of a semaphore's figures, read at once by {@link PermitSemaphore#stats()}: what a metrics scrape, a
 * health check or an admin endpoint shows. All of them hold at the same instant, so {@code available()} is the
 * difference of figures that were true together (a cluster semaphore reads them in one round trip).
 *
 * @param size    the total weight that may be held at once
 * @param used    the permits in use; more than {@code size} after a shrink below what was in use
 * @param waiting the requests waiting for their turn
 */
public record SemaphoreStats(long size, long used, int waiting) {

    /**
     * Returns the permits free at that instant.
     *
     * @return {@code size() - used()}; negative after the size shrank below what is in use
     */
    public long available() {
        return size - used;
    }
}
