/**
 * jcstress tests of poolkit's concurrency guarantees, two actors at most (the CI machines have two cores, and jcstress
 * silently skips tests that need more actors than there are CPUs).
 *
 * <p>Each test names the guarantee it checks in its class comment; the outcomes it may produce are listed with
 * {@code @Outcome}, and any other outcome (including an exception thrown by an actor) fails the run. Run them with
 * {@code pool-stress/run.sh [sanity|quick|tough]}; {@code docs/reliability.md} maps guarantees to tests and records the
 * figures of the last runs.
 *
 * <p>A test class holds only its state, actors and arbiter; the scaffolding they share is in small helpers: {@code
 * Pools} (the test's pool), {@code TestPool} (that pool with a gate and the runs of the test's task, and the two ways
 * such a test ends), {@code Gate} (holds a worker busy until opened), {@code Runs} (counts a task's runs), {@code
 * Accepted} (1 if a call was accepted, 0 if refused), {@code Quiesce} (bounded waits for termination), {@code
 * Semaphores} (a semaphore with permits in use), {@code Moment} (spin until a due time) and {@code SharedScheduler}
 * (the scheduler tests' scheduler). jcstress finds actors only among the methods a test class declares itself, so tests
 * that run the same race on differently configured pools repeat their (one-line) actors.
 */
package io.github.poolkit.stress;
