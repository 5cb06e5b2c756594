/**
 * poolkit's core: worker pools, weighted semaphores and a delay scheduler, with no dependencies beyond
 * {@code java.base}. Only {@code io.github.poolkit} is exported; the machinery under {@code io.github.poolkit.internal}
 * is not part of the API.
 */
module io.github.poolkit {
    exports io.github.poolkit;
}
