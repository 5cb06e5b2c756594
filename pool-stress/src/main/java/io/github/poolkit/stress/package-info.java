/**
 * jcstress tests of poolkit's concurrency guarantees, two actors at most (the CI machines have two cores, and jcstress
 * silently skips tests that need more actors than there are CPUs).
 *
 * <p>Each test names the guarantee it checks in its class comment; the outcomes it may produce are listed with
 * {@code @Outcome}, and any other outcome (including an exception thrown by an actor) fails the run. Run them with
 * {@code pool-stress/run.sh [sanity|quick|tough]}; {@code docs/reliability.md} maps guarantees to tests and records the
 * figures of the last runs.
 */
package io.github.poolkit.stress;
