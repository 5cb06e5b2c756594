package io.github.poolkit.autoconfigure;

import org.springframework.boot.context.properties.NestedConfigurationProperty;

/**
 * Settings of the primary weighted semaphore ({@code poolkit.semaphore}); the named ones inherit its {@code size},
 * not its {@code adaptive} keys.
 */
public class SemaphoreProperties {

    /** Whether to create the primary WeightedSemaphore bean "weightedSemaphore": true or false. */
    private boolean enabled = true;

    /** Total weight of the permits; must not be negative. */
    private long size = 64;

    /**
     * A size that follows how long permits are held, for the primary semaphore only: named semaphores do not inherit
     * these keys. Max defaults to size.
     */
    @NestedConfigurationProperty
    private final AdaptiveProperties adaptive = new AdaptiveProperties();

    /** Creates the primary semaphore's settings, every key at its default. */
    public SemaphoreProperties() {
    }

    /** {@return whether to create the primary semaphore} */
    public boolean isEnabled() {
        return enabled;
    }

    /**
     * Sets whether to create the primary semaphore.
     *
     * @param enabled whether to create the primary semaphore
     */
    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    /** {@return the total weight of the permits} */
    public long getSize() {
        return size;
    }

    /**
     * Sets the total weight of the permits.
     *
     * @param size the total weight of the permits
     */
    public void setSize(long size) {
        this.size = size;
    }

    /** {@return the adaptive size's settings} */
    public AdaptiveProperties getAdaptive() {
        return adaptive;
    }
}
