package io.github.poolkit.stress;

/**
 * Encodes, as an outcome value, whether a call that may be refused was accepted: 1 if it returned, 0 if it threw the
 * expected refusal.
 *
 * <p>Guarantee: any other exception propagates, so jcstress reports the test as failed instead of recording a value.
 */
final class Accepted {

    private Accepted() {
    }

    /**
     * Runs {@code call} and tells whether it was accepted.
     *
     * @param refusal the exception that means "refused" (e.g. {@code PoolClosedException})
     * @param call the call, e.g. {@code () -> pool.execute(task)}
     * @return 1 if {@code call} returned, 0 if it threw {@code refusal}
     */
    static int unless(Class<? extends RuntimeException> refusal, Runnable call) {
        try {
            call.run();
            return 1;
        } catch (RuntimeException e) {
            if (refusal.isInstance(e)) {
                return 0;
            }
            throw e;
        }
    }
}
