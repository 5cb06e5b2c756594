package io.github.poolkit.autoconfigure;

/**
 * An adaptive limit: a pool's capacity or a semaphore's size that follows the latency of the work it guards
 * ({@code io.github.poolkit.AdaptiveLimit}). Every key is {@code null} when unset.
 */
public class AdaptiveProperties {

    /**
     * How the limit adapts: "none" (a fixed capacity or size, the default), "gradient" (follows the ratio of the
     * baseline to the recent latency, settling where latency starts to grow) or "aimd" (adds about one per round
     * trip, takes a tenth off on each slowdown and, for a pool, on each overload rejection).
     */
    private PoolkitProperties.Algorithm algorithm;

    /** The smallest the limit gets; must be at least 1, and needs an algorithm (not none) to act. Default: 1. */
    private Integer min;

    /**
     * The largest the limit gets; must be at least min, and needs an algorithm (not none) to act. Default: the
     * pool's capacity (256 when unset), or the semaphore's size. It is the cap: a max above the capacity lets an
     * adaptive pool grow past it.
     */
    private Integer max;

    /** Creates the settings, every key unset. */
    public AdaptiveProperties() {
    }

    /** {@return the algorithm, or {@code null} when unset} */
    public PoolkitProperties.Algorithm getAlgorithm() {
        return algorithm;
    }

    /**
     * Sets the algorithm.
     *
     * @param algorithm the algorithm, or {@code null} to inherit
     */
    public void setAlgorithm(PoolkitProperties.Algorithm algorithm) {
        this.algorithm = algorithm;
    }

    /** {@return the smallest limit, or {@code null} when unset} */
    public Integer getMin() {
        return min;
    }

    /**
     * Sets the smallest limit.
     *
     * @param min the smallest limit, or {@code null} to inherit
     */
    public void setMin(Integer min) {
        this.min = min;
    }

    /** {@return the largest limit, or {@code null} when unset} */
    public Integer getMax() {
        return max;
    }

    /**
     * Sets the largest limit.
     *
     * @param max the largest limit, or {@code null} to inherit
     */
    public void setMax(Integer max) {
        this.max = max;
    }
}
