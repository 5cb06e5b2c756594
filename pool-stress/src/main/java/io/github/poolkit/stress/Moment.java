package io.github.poolkit.stress;

/**
 * A moment on the {@link System#nanoTime()} clock that actors spin until, so that they act as close to it as they can,
 * e.g. when a scheduler's timer fires a job.
 *
 * <p>Guarantee: {@link #spinUntil()} returns no earlier than the moment, and it never parks the thread, so it adds no
 * wake-up latency of its own to the race.
 */
final class Moment {

    private final long nanoTime;

    private Moment(long nanoTime) {
        this.nanoTime = nanoTime;
    }

    /**
     * @param nanos how far from now, in nanoseconds
     * @return the moment that far from now
     */
    static Moment after(long nanos) {
        return new Moment(System.nanoTime() + nanos);
    }

    /** Spins until the moment has come. */
    void spinUntil() {
        while (System.nanoTime() - nanoTime < 0) {
            Thread.onSpinWait();
        }
    }
}
