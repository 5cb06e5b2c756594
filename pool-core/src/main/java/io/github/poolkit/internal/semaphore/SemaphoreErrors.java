package io.github.poolkit.internal.semaphore;

/**
 * The argument checks of {@code WeightedSemaphore} and the errors it throws for requests it cannot serve, each naming
 * the problem and the fix. Internal; not part of poolkit's API.
 */
public final class SemaphoreErrors {

    private SemaphoreErrors() {
    }

    /**
     * Checks a size given at construction or to {@code resize}.
     *
     * @param size the size to check
     * @throws IllegalArgumentException if {@code size < 0}
     */
    public static void checkSize(long size) {
        if (size < 0) {
            throw new IllegalArgumentException(
                    "size must be >= 0 but was " + size + "; pass the total number of permits the semaphore holds");
        }
    }

    /**
     * Checks the weight of a request or a release.
     *
     * @param n         the number of permits
     * @param operation the method called, named in the message
     * @throws IllegalArgumentException if {@code n < 0}
     */
    public static void checkNotNegative(long n, String operation) {
        if (n < 0) {
            throw new IllegalArgumentException(
                    operation + ": the number of permits must be >= 0 but was " + n + "; pass a non-negative weight");
        }
    }

    /**
     * The error for a request larger than the size, which could never be granted.
     *
     * @param n    the permits requested
     * @param size the semaphore's size
     * @return the exception to throw (or to complete a future with)
     */
    public static IllegalArgumentException tooLarge(long n, long size) {
        return new IllegalArgumentException("cannot acquire " + n + " permits from a semaphore of size " + size
                + ": the request could never be granted; ask for at most size() permits");
    }

    /**
     * The error for a release of more permits than are in use.
     *
     * @param n    the permits released
     * @param used the permits in use
     * @param size the semaphore's size
     * @return the exception to throw
     */
    public static IllegalStateException releasedMoreThanHeld(long n, long used, long size) {
        return new IllegalStateException("released more than held: release(" + n + ") with only " + used
                + " of " + size + " permits in use; release only permits that were acquired");
    }
}
