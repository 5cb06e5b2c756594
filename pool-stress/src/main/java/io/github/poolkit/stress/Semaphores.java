package io.github.poolkit.stress;

import io.github.poolkit.WeightedSemaphore;

/**
 * Makes the semaphore of one test state in the state the race starts from.
 *
 * <p>Guarantee: the semaphore returned has {@code size} permits, {@code used} of them taken by a caller that never
 * gives them back unless the test does, and nobody waiting; a semaphore that refuses them fails the state's
 * construction (jcstress then reports the test as failed) instead of starting the race from another state.
 */
final class Semaphores {

    private Semaphores() {
    }

    /**
     * @param size the semaphore's size
     * @param used how many permits are taken before the race, 1 to {@code size}
     * @return a new semaphore with {@code used} permits in use
     */
    static WeightedSemaphore inUse(int size, int used) {
        WeightedSemaphore semaphore = new WeightedSemaphore(size);
        if (!semaphore.tryAcquire(used)) {
            throw new IllegalStateException("a new semaphore of size " + size + " refused " + used + " permit(s)");
        }
        return semaphore;
    }
}
